// svc layouts delete LAYOUT_ID [--yes] → DELETE /v2/layouts/{layoutId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete an email layout (asks first on a terminal; the default layout cannot be deleted)', 'deleteLayout'))
      .argument('<layoutId>', 'layout identifier or id')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc layouts delete old-frame', 'svc layouts delete old-frame --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const layoutId = checkId('LAYOUT_ID', id);
  if (!(await confirmed(deps, `layout ${layoutId}`, opts.yes))) return;
  const res = await (await deps.client()).call('deleteLayout', { params: { layoutId } });
  if (res) deps.info(`deleted layout ${layoutId}`);
}

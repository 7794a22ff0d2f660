// svc layouts get LAYOUT_ID → GET /v2/layouts/{layoutId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { printLayout } from './shared.js';

export const command = () =>
  examples(new Command('get').description(about('show an email layout with its body', 'getLayout')).argument('<layoutId>', 'layout identifier or id'), [
    'svc layouts get default-layout',
    'svc layouts get brand -o json | jq -r .controls.values.email.body > brand.html',
  ]);

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const layoutId = checkId('LAYOUT_ID', id);
  const res = await (await deps.client()).call('getLayout', { params: { layoutId } });
  if (res) await printLayout(deps, res.data);
}

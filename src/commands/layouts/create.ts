// svc layouts create LAYOUT_ID --name NAME [--body TEXT|@file|- [--editor html|block]]
// → POST /v2/layouts, then PUT /v2/layouts/{layoutId} with the body (the service creates a layout
// without one: an empty frame holding the content alone).
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, choiceOption, Command, examples, type OptsOf } from '../define.js';
import { BODY_HELP, type EditorType, layoutBody, printLayout } from './shared.js';

export const command = () =>
  examples(
    new Command('create')
      .description(about('create an email layout', 'createLayout'))
      .argument('<layoutId>', "identifier for the new layout (what an email step's layoutId names)")
      .requiredOption('--name <name>', 'name of the layout')
      .option('--body <text>', BODY_HELP)
      .addOption(choiceOption('--editor <type>', 'html or block (default: read from the body)', ['html', 'block'])),
    ['svc layouts create brand --name "Brand frame" --body @brand.html', 'svc layouts create plain --name Plain'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const layoutId = checkId('LAYOUT_ID', id);
  const email = opts.body !== undefined ? await layoutBody(deps, opts.body, opts.editor as EditorType | undefined) : undefined;
  const api = await deps.client();
  const res = await api.call('createLayout', { body: { layoutId, name: opts.name } });
  if (!res) return;
  if (!email) {
    await printLayout(deps, res.data);
    return;
  }
  const updated = await api.call('updateLayout', { params: { layoutId }, body: { name: opts.name, controlValues: { email } } }, { bodyLabel: () => '--body' });
  if (updated) await printLayout(deps, updated.data);
}

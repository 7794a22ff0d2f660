// svc layouts update LAYOUT_ID [--name] [--body TEXT|@file|- [--editor]] [--clear-body]
// → PUT /v2/layouts/{layoutId} (the service needs the name: when not given, the layout's own is kept).
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, choiceOption, Command, examples, type OptsOf } from '../define.js';
import { BODY_HELP, type EditorType, layoutBody, printLayout } from './shared.js';

export const command = () =>
  examples(
    new Command('update')
      .description(about("change an email layout's name or body", 'updateLayout'))
      .argument('<layoutId>', 'layout identifier or id')
      .option('--name <name>', 'new name')
      .option('--body <text>', BODY_HELP)
      .addOption(choiceOption('--editor <type>', 'html or block (default: read from the body)', ['html', 'block']))
      .option('--clear-body', 'remove the stored body (emails are then sent without a frame)'),
    ['svc layouts update brand --body @brand.html', 'svc layouts update brand --name "Brand 2025"'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const layoutId = checkId('LAYOUT_ID', id);
  if (opts.body !== undefined && opts.clearBody) throw new UsageError('--body and --clear-body contradict each other: give one');
  if (opts.name === undefined && opts.body === undefined && !opts.clearBody) throw new UsageError('nothing to change: give --name, --body or --clear-body');
  if (opts.name !== undefined && opts.name.trim() === '') throw new UsageError('--name: must not be empty');
  const email = opts.body !== undefined ? await layoutBody(deps, opts.body, opts.editor as EditorType | undefined) : undefined;
  const api = await deps.client();
  let name = opts.name;
  if (name === undefined) {
    const current = await api.call('getLayout', { params: { layoutId } });
    name = (current?.data as { name?: string } | undefined)?.name ?? layoutId;
  }
  const body = { name, ...(email && { controlValues: { email } }), ...(opts.clearBody && { controlValues: null }) };
  const res = await api.call('updateLayout', { params: { layoutId }, body }, { bodyLabel: () => '--body' });
  if (res) await printLayout(deps, res.data);
}

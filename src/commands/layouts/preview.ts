// svc layouts preview LAYOUT_ID [--subscriber JSON] [--body TEXT|@file|- [--editor]]
// → POST /v2/layouts/{layoutId}/preview (a POST that changes nothing).
import { checkId, isPlainObject } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, choiceOption, Command, examples, type OptsOf } from '../define.js';
import { BODY_HELP, type EditorType, layoutBody } from './shared.js';

export const command = () =>
  examples(
    new Command('preview')
      .description(about('render an email layout (the content shown as a placeholder)', 'previewLayout'))
      .argument('<layoutId>', 'layout identifier or id')
      .option('--subscriber <json>', 'subscriber fields to render with: inline JSON, @file or -')
      .option('--body <text>', `${BODY_HELP}; rendered instead of the stored one`)
      .addOption(choiceOption('--editor <type>', 'html or block (default: read from the body)', ['html', 'block'])),
    [
      'svc layouts preview brand',
      'svc layouts preview brand --subscriber \'{"firstName":"Ada"}\'',
      'svc layouts preview brand --body @draft.html -o json | jq -r .result.preview.body > draft-preview.html',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const layoutId = checkId('LAYOUT_ID', id);
  const subscriber = opts.subscriber !== undefined ? await deps.input.jsonObject('--subscriber', opts.subscriber) : undefined;
  const email = opts.body !== undefined ? await layoutBody(deps, opts.body, opts.editor as EditorType | undefined) : undefined;
  const body = { ...(email && { controlValues: { email } }), ...(subscriber && { previewPayload: { subscriber } }) };
  const res = await (await deps.client()).call(
    'previewLayout',
    { params: { layoutId }, body },
    { mutates: false, bodyLabel: (f) => (f === 'controlValues' ? '--body' : '--subscriber') },
  );
  if (!res) return;
  const result = isPlainObject(res.data) && isPlainObject(res.data.result) ? res.data.result : {};
  const html = isPlainObject(result.preview) && typeof result.preview.body === 'string' ? result.preview.body : undefined;
  if (deps.format() !== 'table' || html === undefined) {
    await deps.print(res.data, { view: 'preview' });
    return;
  }
  // A terminal gets the rendered layout as the text it shows, wrapped to the width.
  const { textBlock } = await import('../workflow/preview-text.js');
  await deps.print(textBlock('body', html, deps.io.stdout.columns || 100), { view: 'preview' });
}

// A layout's body as the layouts commands take it: inline, @file or - (stdin), its editor given or
// read from the text (a JSON document is the block editor's, anything else HTML).
import type { Deps } from '../../deps.js';

export const BODY_HELP = 'layout body: inline, @file or - (HTML with {{content}} where the email goes, or a block-editor JSON document)';

export type EditorType = 'html' | 'block';

export async function layoutBody(deps: Deps, body: string, editor: EditorType | undefined): Promise<{ body: string; editorType: EditorType }> {
  const text = body === '-' ? await deps.input.stdinText('--body') : body.startsWith('@') ? await deps.input.fileText('--body', body.slice(1)) : body;
  return { body: text, editorType: editor ?? (text.trimStart().startsWith('{') ? 'block' : 'html') };
}

/**
 * A layout as a command prints it: scripts get the answer whole; a terminal gets its short fields
 * and then its body's source (the schemas it carries are for editors, not people).
 */
export async function printLayout(deps: Deps, layout: unknown): Promise<void> {
  const r = (layout ?? {}) as Record<string, unknown>;
  if (deps.format() !== 'table') {
    await deps.print(layout, { view: 'layouts' });
    return;
  }
  const values = (r.controls as { values?: { email?: { body?: unknown; editorType?: unknown } } } | undefined)?.values;
  const summary = {
    layoutId: r.layoutId,
    _id: r._id,
    name: r.name,
    isDefault: r.isDefault,
    editorType: values?.email?.editorType ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  await deps.print(summary, { view: 'record' });
  const body = values?.email?.body;
  if (typeof body !== 'string' || body === '') return;
  // The body's source, as `--body` takes it back (the output path makes it safe for the terminal).
  deps.io.stdout.write('\nbody:\n');
  await deps.print(body, { view: 'record' });
}

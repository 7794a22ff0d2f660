// Email layouts as the engine reads them: what a layout's body must be (a whole HTML document or a
// block-editor document, with the `{{content}}` variable where an email step's body goes), the Liquid
// HTML a layout renders from, and the layouts an email is rendered with (`renderStep`'s options: a
// step's `layoutId` names one, null means none, absent means the environment's default).
import { blockDocumentToLiquid, type BlockNode, parseBlockDocument } from './block-editor.js';
import { DEFAULT_EMAIL_LAYOUT } from './email-layout.js';
import type { RenderStepOptions } from './render-step.js';

/** The variable a layout's body places the email step's rendered body with. */
const LAYOUT_CONTENT_VARIABLE = 'content';

export interface EmailLayoutControls {
  body: string;
  editorType: 'html' | 'block';
}

/** What `renderStep` needs of a stored layout. */
interface LayoutForRender {
  _id: string;
  layoutId: string;
  isDefault: boolean;
  email: EmailLayoutControls | null;
}

/** The layout every environment starts with, its default: the same frame emails get without one. */
export const DEFAULT_LAYOUT = {
  layoutId: 'default-layout',
  name: 'Default Layout',
  email: { body: DEFAULT_EMAIL_LAYOUT, editorType: 'html' } as EmailLayoutControls,
};

/** What the layout editor shows in place of the step body when a layout alone is previewed. */
export const LAYOUT_PREVIEW_CONTENT = '<div style="padding:16px;border:1px dashed #9ca3af;color:#6b7280;text-align:center">Email content goes here</div>';

const CONTENT_OUTPUT = new RegExp(`\\{\\{\\s*${LAYOUT_CONTENT_VARIABLE}\\s*\\}\\}`);

function isWholeHtml(body: string): boolean {
  return body.includes('<html') && body.includes('</html>') && body.includes('<body') && body.includes('</body>');
}

function hasContentNode(node: BlockNode): boolean {
  if (node.type === 'variable' && node.attrs?.id === LAYOUT_CONTENT_VARIABLE) return true;
  return (node.content ?? []).some(hasContentNode);
}

/** Why the service refuses this layout body (its words), or null when it is a valid layout. */
export function layoutBodyProblem(email: EmailLayoutControls): string | null {
  const doc = parseBlockDocument(email.body);
  const html = isWholeHtml(email.body);
  if (email.editorType === 'html' && !html) return 'Content must be a valid HTML content';
  if (email.editorType === 'block' && !doc) return 'Content must be a valid Maily JSON content';
  const placed = doc ? hasContentNode(doc) : CONTENT_OUTPUT.test(email.body);
  return placed ? null : `The layout body should contain the "${LAYOUT_CONTENT_VARIABLE}" variable`;
}

/** The Liquid HTML a layout renders from; a layout without controls passes the body through. */
function layoutSource(email: EmailLayoutControls | null): string {
  if (!email) return `{{ ${LAYOUT_CONTENT_VARIABLE} }}`;
  const doc = email.editorType === 'block' ? parseBlockDocument(email.body) : null;
  return doc ? blockDocumentToLiquid(doc) : email.body;
}

/** `renderStep`'s options for an email: each layout by `layoutId` and database id, and the default. */
export function emailLayoutOptions(layouts: readonly LayoutForRender[]): RenderStepOptions {
  const byId: Record<string, string> = {};
  let defaultLayout: string | undefined;
  for (const layout of layouts) {
    const source = layoutSource(layout.email);
    byId[layout._id] = source;
    byId[layout.layoutId] = source;
    if (layout.isDefault) defaultLayout = source;
  }
  return defaultLayout === undefined ? { layouts: byId } : { layouts: byId, defaultLayout };
}

/** A layout's body as its own preview renders it: the content variable shown as a placeholder. */
export function layoutPreviewSource(email: EmailLayoutControls | null): string {
  const source = layoutSource(email);
  return source.replace(new RegExp(CONTENT_OUTPUT.source, 'g'), LAYOUT_PREVIEW_CONTENT);
}

/** The layout editor's controls: their JSON Schema and how the dashboard draws them. */
export const LAYOUT_DATA_SCHEMA = {
  type: 'object',
  properties: {
    email: {
      type: 'object',
      properties: { body: { type: 'string' }, editorType: { type: 'string', enum: ['html', 'block'] } },
      required: ['body', 'editorType'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

export const LAYOUT_UI_SCHEMA = {
  group: 'LAYOUT',
  properties: {
    email: {
      component: 'LAYOUT_EMAIL',
      properties: { body: { component: 'BLOCK_EDITOR' }, editorType: { component: 'EMAIL_EDITOR_SELECT', placeholder: 'block' } },
    },
  },
};

/** The variables a layout's body may use: the subscriber's fields and the step's body. */
export const LAYOUT_VARIABLES_SCHEMA = {
  type: 'object',
  properties: {
    subscriber: {
      type: 'object',
      properties: Object.fromEntries(
        ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'].map((k) => [k, { type: 'string' }]),
      ),
      additionalProperties: true,
    },
    [LAYOUT_CONTENT_VARIABLE]: { type: 'string' },
  },
  additionalProperties: false,
};

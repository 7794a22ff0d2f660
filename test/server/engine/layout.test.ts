// The pure rules of email layouts: what a layout body must hold, and which layout an email step is
// wrapped in (its layoutId, none for null, the environment's default when absent).
import { describe, expect, it } from 'vitest';
import { emailLayoutOptions, layoutBodyProblem, layoutPreviewSource, LAYOUT_PREVIEW_CONTENT } from '../../../src/server/engine/layout.js';
import { renderStep } from '../../../src/server/engine/render-step.js';
import { buildScope } from '../../../src/server/engine/scope.js';

const html = (inner: string) => `<html><body>${inner}</body></html>`;
const block = (withContent: boolean) =>
  JSON.stringify({
    type: 'doc',
    content: [{ type: 'paragraph', content: withContent ? [{ type: 'variable', attrs: { id: 'content' } }] : [{ type: 'text', text: 'x' }] }],
  });

describe('layoutBodyProblem', () => {
  it("accepts a whole HTML document or a block document with the content variable, in the service's words otherwise", () => {
    expect(layoutBodyProblem({ editorType: 'html', body: html('{{ content }}') })).toBeNull();
    expect(layoutBodyProblem({ editorType: 'block', body: block(true) })).toBeNull();
    expect(layoutBodyProblem({ editorType: 'html', body: '<div>{{content}}</div>' })).toBe('Content must be a valid HTML content');
    expect(layoutBodyProblem({ editorType: 'block', body: 'not json' })).toBe('Content must be a valid Maily JSON content');
    expect(layoutBodyProblem({ editorType: 'html', body: html('{{ payload.x }}') })).toBe('The layout body should contain the "content" variable');
    expect(layoutBodyProblem({ editorType: 'block', body: block(false) })).toBe('The layout body should contain the "content" variable');
  });
});

describe('an email step inside a layout', () => {
  const scope = buildScope({ subscriber: { subscriberId: 's', firstName: 'Ada' }, payload: {} });
  const layouts = emailLayoutOptions([
    { _id: 'a'.repeat(24), layoutId: 'frame', isDefault: false, email: { editorType: 'html', body: html('<i>{{subscriber.firstName}}</i>{{content}}') } },
    { _id: 'b'.repeat(24), layoutId: 'default-layout', isDefault: true, email: { editorType: 'html', body: html('<u>default</u>{{content}}') } },
  ]);
  const body = (controls: Record<string, unknown>) => {
    const r = renderStep('email', { subject: 'S', body: '<p>Hi</p>', ...controls }, scope, layouts);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.content.body;
  };

  it('is wrapped in the layout its layoutId names (by layoutId or database id), in none for null', () => {
    expect(body({ editorType: 'html', layoutId: 'frame' })).toBe(html('<i>Ada</i><p>Hi</p>'));
    expect(body({ editorType: 'html', layoutId: 'a'.repeat(24) })).toBe(html('<i>Ada</i><p>Hi</p>'));
    expect(body({ editorType: 'html', layoutId: null })).toBe('<p>Hi</p>');
  });

  it("a block-editor body without a layoutId takes the environment's default layout", () => {
    const doc = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(body({ body: doc })).toMatch(/^<html><body><u>default<\/u>.*Hi.*<\/body><\/html>$/);
  });

  it("a layout's own preview shows a placeholder where the content goes", () => {
    expect(layoutPreviewSource({ editorType: 'html', body: html('{{ content }}') })).toBe(html(LAYOUT_PREVIEW_CONTENT));
  });
});

import { describe, expect, it } from 'vitest';
import { blockDocumentToLiquid, escapeOutsideLiquid, parseBlockDocument, type BlockNode } from '../../../src/server/engine/block-editor.js';
import { renderTemplate } from '../../../src/server/engine/template.js';

function html(doc: BlockNode, scope: Record<string, unknown> = {}): string {
  const result = renderTemplate(blockDocumentToLiquid(doc), scope);
  if (!result.ok) throw new Error(result.error.message);
  return result.output;
}

const p = (...content: BlockNode[]): BlockNode => ({ type: 'paragraph', content });
const text = (t: string, marks?: BlockNode['marks']): BlockNode => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });
const doc = (...content: BlockNode[]): BlockNode => ({ type: 'doc', content });

describe('parseBlockDocument', () => {
  it('accepts a document object or its JSON text, and nothing else', () => {
    const d = doc(p(text('hi')));
    expect(parseBlockDocument(d)).toEqual(d);
    expect(parseBlockDocument(JSON.stringify(d))).toEqual(d);
    expect(parseBlockDocument('<p>{{ payload.x }}</p>')).toBeNull();
    expect(parseBlockDocument('{ not json')).toBeNull();
    expect(parseBlockDocument({ type: 'paragraph' })).toBeNull();
  });
});

describe('blockDocumentToLiquid', () => {
  it('renders paragraphs, headings, marks, links and variables with fallbacks', () => {
    const out = html(
      doc(
        { type: 'heading', attrs: { level: 2, textAlign: 'center' }, content: [text('Hello')] },
        p(text('Dear '), { type: 'variable', attrs: { id: 'subscriber.firstName', fallback: 'friend' } }, text(', ')),
        p(text('bold', [{ type: 'bold' }]), text(' site', [{ type: 'link', attrs: { href: 'https://example.com/{{ payload.id }}' } }])),
      ),
      { subscriber: {}, payload: { id: 7 } },
    );
    expect(out).toBe(
      '<h2 style="text-align:center;">Hello</h2><p>Dear friend, </p><p><strong>bold</strong>' +
        '<a href="https://example.com/7" target="_blank" rel="noopener noreferrer"> site</a></p>',
    );
  });

  it('escapes literal HTML in text but keeps Liquid quotes working', () => {
    expect(html(doc(p(text('<script>x</script> & {{ payload.n | default: "none" }}'))), { payload: {} })).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; &amp; none</p>',
    );
    expect(escapeOutsideLiquid('a"b {{ "q" }}', true)).toBe('a&quot;b {{ "q" }}');
  });

  it('repeats a for block per item, item paths written as paths of the collection', () => {
    const loop: BlockNode = {
      type: 'for',
      attrs: { each: '{{ payload.comments }}', iterations: 2 },
      content: [p({ type: 'variable', attrs: { id: 'payload.comments.author' } }, text(': {{ payload.comments.text }}'))],
    };
    const comments = [
      { author: 'Ann', text: 'hi' },
      { author: 'Bob', text: 'yo' },
      { author: 'Cy', text: 'no' },
    ];
    expect(html(doc(loop), { payload: { comments } })).toBe('<p>Ann: hi</p><p>Bob: yo</p>');
  });

  it('supports nested loops', () => {
    const inner: BlockNode = { type: 'for', attrs: { each: 'payload.posts.tags' }, content: [text('#{{ payload.posts.tags.name }} ')] };
    const outer: BlockNode = { type: 'for', attrs: { each: 'payload.posts' }, content: [p(text('{{ payload.posts.title }}: '), inner)] };
    const posts = [
      { title: 'A', tags: [{ name: 'x' }, { name: 'y' }] },
      { title: 'B', tags: [] },
    ];
    expect(html(doc(outer), { payload: { posts } })).toBe('<p>A: #x #y </p><p>B: </p>');
  });

  it('shows a node only when its showIfKey is truthy', () => {
    const d = doc({ ...p(text('vip')), attrs: { showIfKey: 'payload.vip' } }, p(text('all')));
    expect(html(d, { payload: { vip: false } })).toBe('<p>all</p>');
    expect(html(d, { payload: { vip: true } })).toBe('<p>vip</p><p>all</p>');
  });

  it('renders buttons and linked images, with variable attributes', () => {
    const out = html(
      doc(
        { type: 'button', attrs: { text: 'Open', url: 'payload.url', isUrlVariable: true, alignment: 'center' } },
        { type: 'image', attrs: { src: 'https://img/x.png', alt: 'X', width: 100, externalLink: 'https://x' } },
      ),
      { payload: { url: 'https://app/1' } },
    );
    expect(out).toContain('<a href="https://app/1"');
    expect(out).toContain('>Open</a>');
    expect(out).toContain('<a href="https://x" target="_blank" rel="noopener noreferrer"><img src="https://img/x.png" alt="X" width="100"');
  });

  it('renders lists, quotes, rules, breaks and spacers; unknown nodes render their children', () => {
    const out = html(
      doc(
        { type: 'bulletList', content: [{ type: 'listItem', content: [p(text('one'))] }] },
        { type: 'orderedList', content: [{ type: 'listItem', content: [p(text('two'))] }] },
        { type: 'blockquote', content: [p(text('q'), { type: 'hardBreak' }, text('r'))] },
        { type: 'horizontalRule' },
        { type: 'spacer', attrs: { height: 'sm' } },
        { type: 'mystery', content: [p(text('kept'))] },
      ),
    );
    expect(out).toBe(
      '<ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><blockquote><p>q<br>r</p></blockquote><hr>' +
        '<div style="height:8px;line-height:8px">&nbsp;</div><p>kept</p>',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { analyzeTemplate, controlTemplates } from '../../../src/server/engine/analysis.js';

function analysed(source: string) {
  const result = analyzeTemplate(source);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

describe('analyzeTemplate', () => {
  it('lists global variables with locations, not loop or assigned ones', () => {
    const a = analysed('Hi {{ subscriber.firstName }}\n{% for c in payload.comments %}{{ c.body }}{% endfor %}{% assign x = actor.name %}{{ x }}');
    expect(a.variables.map((v) => [v.path, v.root, v.line, v.column])).toEqual([
      ['subscriber.firstName', 'subscriber', 1, 7],
      ['payload.comments', 'payload', 2, 13],
      ['actor.name', 'actor', 2, 70],
    ]);
  });

  it('resolves loop items to their collection in data paths, through nested loops', () => {
    const a = analysed('{% for c in payload.posts %}{{ c.title }}{% for t in c.tags %}{{ t.name }}{% endfor %}{% endfor %}');
    expect(a.dataPaths).toContainEqual(['payload', 'posts', 0, 'title']);
    expect(a.dataPaths).toContainEqual(['payload', 'posts', 0, 'tags', 0, 'name']);
  });

  it('lists filters with positional and keyword arguments, in outputs and tags', () => {
    const a = analysed('{{ payload.x | truncate: 5, "…" | nope }}{% assign y = payload.z | default: payload.w, allow_false: true %}');
    expect(a.filters.map((f) => [f.name, f.args, f.named, f.subject])).toEqual([
      [
        'truncate',
        [
          { kind: 'number', value: 5 },
          { kind: 'string', value: '…' },
        ],
        [],
        'payload.x',
      ],
      ['nope', [], [], 'payload.x'],
      ['default', [{ kind: 'variable', path: 'payload.w' }], ['allow_false'], 'payload.z'],
    ]);
  });

  it('marks computed segments', () => {
    const a = analysed('{{ payload[payload.key] }}');
    expect(a.variables[0]).toMatchObject({ path: 'payload[payload.key]', segments: null, root: 'payload' });
  });

  it('returns syntax errors as data', () => {
    expect(analyzeTemplate('{{ payload.x }} {% for %}')).toMatchObject({ ok: false, error: { kind: 'syntax' } });
  });
});

describe('controlTemplates', () => {
  it('finds every template string by control path, skipping skip', () => {
    const found = controlTemplates({
      subject: 'Hi {{ a.b }}',
      plain: 'no template',
      primaryAction: { redirect: { url: '/x/{{ payload.id }}' } },
      headers: [{ key: 'X', value: '{{ payload.h }}' }],
      skip: { '==': [{ var: 'payload.x' }, '{{ y }}'] },
    });
    expect(found.map((c) => c.control)).toEqual(['subject', 'primaryAction.redirect.url', 'headers[0].value']);
  });

  it('analyses a block-editor body through its Liquid equivalent', () => {
    const body = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'payload.name' } }] }] };
    const [found] = controlTemplates({ body });
    expect(found?.control).toBe('body');
    expect(found && analysed(found.source).variables.map((v) => v.path)).toEqual(['payload.name']);
  });
});

import { describe, expect, it } from 'vitest';
import { renderControls, renderTemplate } from '../../../src/server/engine/template.js';
import { digest, pluralize, toSentence } from '../../../src/server/engine/filters.js';

const scope = {
  subscriber: { firstName: 'Ada', lastName: 'Lovelace', data: { plan: 'pro' } },
  payload: { name: 'Analytical Engine', count: 3, items: [{ title: 'a' }, { title: 'b' }], tags: ['x', 'y'] },
  steps: { digest: { events: [{ payload: { name: 'Ann' } }, { payload: { name: 'Bob' } }, { payload: { name: 'Cy' } }], eventCount: 3 } },
};

function render(source: string): string {
  const result = renderTemplate(source, scope);
  if (!result.ok) throw new Error(result.error.message);
  return result.output;
}

describe('renderTemplate', () => {
  it.each([
    ['Hi {{ subscriber.firstName }}', 'Hi Ada'],
    ['{{ payload.name | upcase }}', 'ANALYTICAL ENGINE'],
    ['{% if subscriber.data.plan == "pro" %}Pro{% else %}Free{% endif %}', 'Pro'],
    ['{% for item in payload.items %}[{{ item.title }}]{% endfor %}', '[a][b]'],
    ['{{ payload.missing }}|', '|'],
    ['{{ payload.tags }}', "['x','y']"],
    ['{{ payload.items | json }}', "[{'title':'a'},{'title':'b'}]"],
    ['{{ payload.name | nosuchfilter }}', 'Analytical Engine'],
    ['{{ steps.digest.events | toSentence: "payload.name", 2, "other" }}', 'Ann, Bob, and 1 other'],
    ['{{ steps.digest.eventCount | pluralize: "reply" }}', '3 replies'],
  ])('%s → %s', (source, expected) => {
    expect(render(source)).toBe(expected);
  });

  it('reports undefined variables with their location but still renders', () => {
    const result = renderTemplate('Hello\n  {{ subscriber.nickname }} {{ payload.name }}', scope);
    expect(result).toMatchObject({ ok: true, output: 'Hello\n   Analytical Engine' });
    expect(result.ok && result.undefinedVariables).toEqual([{ variable: 'subscriber.nickname', line: 2, column: 6 }]);
  });

  it('does not count loop variables or `size` as undefined', () => {
    const result = renderTemplate('{% for t in payload.tags %}{{ t }}{{ forloop.index }}{% endfor %}{{ payload.tags.size }}', scope);
    expect(result.ok && result.undefinedVariables).toEqual([]);
  });

  it('returns a syntax error as data, with line and column', () => {
    const result = renderTemplate('line one\nHi {{ payload.name ', scope);
    expect(result).toMatchObject({ ok: false, error: { kind: 'syntax', line: 2, column: 4 } });
    expect(!result.ok && result.error.message).toMatch(/not closed/);
  });

  it('names the variable of a failing output', () => {
    const result = renderTemplate('ok\n {{ payload.items[0].n | append: }}', { payload: { items: [{ n: 1 }] } });
    expect(result).toMatchObject({ ok: false, error: { kind: 'filter-args', filter: 'append', variable: 'payload.items[0].n', line: 2, column: 2 } });
  });

  it('returns an unclosed tag as a syntax error', () => {
    const result = renderTemplate('{% if payload.count > 1 %}many', scope);
    expect(result).toMatchObject({ ok: false, error: { kind: 'syntax', expression: '{% if payload.count > 1 %}' } });
  });

  it('stops runaway loops with an error instead of hanging', () => {
    const result = renderTemplate('{% for i in (1..100000000) %}{{ i }}{% endfor %}', scope);
    expect(result.ok).toBe(false);
  });

  it('cannot reach prototype properties', () => {
    expect(render('{{ payload.constructor.name }}{{ subscriber.__proto__ }}')).toBe('');
  });
});

describe('renderControls', () => {
  it('renders every nested string and keeps skip untouched', () => {
    const controls = {
      subject: 'For {{ subscriber.firstName }}',
      primaryAction: { label: 'Open', redirect: { url: '/items/{{ payload.count }}' } },
      data: { list: ['{{ payload.name }}', 7] },
      skip: { '==': [{ var: 'payload.name' }, '{{ not a template }}'] },
    };
    const result = renderControls(controls, scope);
    expect(result.errors).toEqual([]);
    expect(result.values).toEqual({
      subject: 'For Ada',
      primaryAction: { label: 'Open', redirect: { url: '/items/3' } },
      data: { list: ['Analytical Engine', 7] },
      skip: controls.skip,
    });
  });

  it('names the control of each error and undefined variable', () => {
    const result = renderControls({ body: 'ok {{ payload.nope }}', primaryAction: { label: '{% if %}' } }, scope);
    expect(result.errors.map((e) => e.control)).toEqual(['primaryAction.label']);
    expect(result.undefinedVariables).toEqual([{ control: 'body', variable: 'payload.nope', line: 1, column: 7 }]);
  });
});

describe('service filters', () => {
  it('digest lists names and counts the rest', () => {
    expect(digest(['John', 'Josh', 'Sara', 'Kim'])).toBe('John, Josh and 2 others');
    expect(digest([{ u: { n: 'A' } }, { u: { n: 'B' } }], 2, 'u.n')).toBe('A and B');
    expect(digest(['a', 'b', 'c'], 5)).toBe('a, b and c');
  });

  it('toSentence joins with an Oxford comma', () => {
    expect(toSentence(['a', 'b', 'c'], '', 3)).toBe('a, b, and c');
    expect(toSentence(['a', 'b', 'c', 'd'], '', 1)).toBe('a and 3 others');
  });

  it('pluralize prints nothing for zero and uses a given plural', () => {
    expect(pluralize(0, 'event')).toBe('');
    expect(pluralize([1], 'person', 'people')).toBe('1 person');
    expect(pluralize('2', 'person', 'people')).toBe('2 people');
    expect(pluralize(2, 'match')).toBe('2 matches');
  });
});

describe('partials', () => {
  it('never reads files for include/render/layout', () => {
    for (const source of ["{% include '/etc/passwd' %}", "{% render 'package.json' %}", "{% layout 'x' %}body"]) {
      const result = renderTemplate(source, {});
      expect(result.ok).toBe(false);
    }
  });
});

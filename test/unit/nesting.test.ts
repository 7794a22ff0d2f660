// How deep input nests, judged before it is parsed (YAML) or after (JSON values): deep input is
// refused where it enters, because the parsers and every recursive walker overflow the stack on it,
// and the yaml parser's overflow can abort the whole process.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { nestedDeeperThan, yamlNestsDeeperThan } from '../../src/core/json-depth.js';

/** A value nested exactly `depth` levels, alternating objects and arrays. */
const nested = (depth: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
  return v;
};

describe('nestedDeeperThan', () => {
  test('counts arrays and objects, iteratively', () => {
    expect(nestedDeeperThan(nested(10), 10)).toBe(false);
    expect(nestedDeeperThan(nested(11), 10)).toBe(true);
    expect(nestedDeeperThan(nested(100_000), 100)).toBe(true);
    expect(nestedDeeperThan('x', 0)).toBe(false);
  });
});

describe('yamlNestsDeeperThan', () => {
  test('real documents pass', () => {
    const docs = [
      'plan: pro\nseats: 3\nowner:\n  name: Ada\n  tags: [a, b, {c: d}]\n',
      "name: 'O''Brien'\nnote: it's [not] {a} flow\nurl: http://x/[a]?b={c}\n",
      '# a comment with [[[[ brackets\nlist:\n  - a\n  - - b\n    - c\n  - {x: [1, 2]}\n',
      'text: |\n  indented\n     more\n        and more\n',
      '---\n- 1\n- -1\n- "quoted [ ] { }"\n',
    ];
    for (const d of docs) expect(yamlNestsDeeperThan(d, 100), d).toBe(false);
  });

  test('deep flow and block nesting are caught', () => {
    expect(yamlNestsDeeperThan(`x: ${'['.repeat(3000)}${']'.repeat(3000)}`, 100)).toBe(true);
    expect(yamlNestsDeeperThan(`${'{a: '.repeat(200)}1${'}'.repeat(200)}`, 100)).toBe(true);
    let block = 'x:\n';
    for (let i = 1; i < 200; i++) block += `${' '.repeat(i)}k:\n`;
    expect(yamlNestsDeeperThan(block, 100)).toBe(true);
    expect(yamlNestsDeeperThan(`${'- '.repeat(200)}1\n`, 100)).toBe(true);
  });

  test('never says less than the real depth of a document the yaml library writes (block and flow styles)', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.string(), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), fc.boolean(), (v, max, flow) => {
        const text = stringify(v, flow ? { collectionStyle: 'flow' } : {});
        expect(parse(text)).toEqual(v);
        if (nestedDeeperThan(v, max)) expect(yamlNestsDeeperThan(text, max), text).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('a value nested past the limit, written as YAML either way, is caught', () => {
    for (const flow of [false, true]) {
      const text = stringify(nested(120), flow ? { collectionStyle: 'flow' } : {});
      expect(yamlNestsDeeperThan(text, 100)).toBe(true);
      expect(yamlNestsDeeperThan(stringify(nested(60), flow ? { collectionStyle: 'flow' } : {}), 100)).toBe(false);
    }
  });
});

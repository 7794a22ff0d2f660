// Templates of text and plain outputs render without liquidjs' renderer (see simpleTemplate in
// template.ts): the answer must be liquidjs' own, byte for byte, with the same undefined-variable
// report, for any such template and any scope.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTemplate, renderWithLiquid } from '../../../src/server/engine/template.js';
import '../../helpers/fast-check-seed.js';

const NAMES = [
  'payload',
  'subscriber',
  'code',
  'name',
  'items',
  'size',
  'first',
  'last',
  'true',
  'nil',
  'empty',
  'length',
  'a_1',
  'x',
  'toString',
  'constructor',
];
const name = fc.constantFrom(...NAMES);
const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((p) => p.join('.'));
const output = fc.tuple(fc.constantFrom('{{', '{{ ', '{{\n', '{{-'), path, fc.constantFrom('}}', ' }}', '\t}}', ' -}}')).map((p) => p.join(''));
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('Your code is ', '. ', '{', '}', '}}', '%}', '{%', '{ {', '\n', '&<b>'));
const template = fc.array(fc.oneof(output, text), { maxLength: 8 }).map((parts) => parts.join(''));
const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(name, tie('v'), { maxKeys: 4 })),
})).v;
const scope = fc.record({ payload: fc.dictionary(name, value, { maxKeys: 5 }), subscriber: fc.dictionary(name, value, { maxKeys: 3 }) });

describe('simple templates', () => {
  it('render as liquidjs renders them, with the same undefined variables', () => {
    fc.assert(
      fc.property(template, scope, (source, s) => {
        expect(renderTemplate(source, s, 'body')).toEqual(renderWithLiquid(source, s, 'body'));
      }),
      { numRuns: 3000 },
    );
  });

  it('the bench workflow message, and its usual neighbours', () => {
    const s = { payload: { code: '123456', n: 7, ok: true, none: null, list: [1, 2], obj: { a: 1 } }, subscriber: { firstName: 'Ada' } };
    for (const source of [
      'Your Acme code is {{ payload.code }}. It expires in 10 minutes.',
      'Hi {{subscriber.firstName}}, {{ payload.n }} {{ payload.ok }} [{{ payload.none }}]',
      '{{ payload.list }} {{ payload.obj }} {{ payload.missing }} {{ payload.list.size }}',
    ]) {
      expect(renderTemplate(source, s)).toEqual(renderWithLiquid(source, s));
    }
    expect(renderTemplate('Your Acme code is {{ payload.code }}.', s)).toEqual({ ok: true, output: 'Your Acme code is 123456.', undefinedVariables: [] });
    // Past liquidjs' parse limit, the template fails as liquidjs fails it.
    const huge = `${'x'.repeat(1_000_001)}{{ payload.code }}`;
    expect(renderTemplate(huge, s)).toEqual(renderWithLiquid(huge, s));
    expect(renderTemplate(huge, s).ok).toBe(false);
  });
});

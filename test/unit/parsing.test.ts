import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseDuration, parseTime, formatDuration } from '../../src/core/duration.js';
import { locateJsonError } from '../../src/core/json-error.js';
import { checkId, deepMerge, parseContextRef, parseJsonText, parseSetPairs } from '../../src/core/input.js';
import { UsageError } from '../../src/core/errors.js';

describe('durations and times', () => {
  test.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1.5h', 5_400_000],
    ['7d', 604_800_000],
    ['1w', 604_800_000],
  ])('%s = %i ms', (text, ms) => expect(parseDuration(text)).toBe(ms));
  test.each(['', '10', 'ten s', '5 s', '-1s', '1y', 's'])('%j is not a duration', (text) => expect(parseDuration(text)).toBeUndefined());
  test('relative ages count back from now; ISO times are normalised', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseTime('2h', now)).toBe('2026-11-22T10:00:00.000Z');
    expect(parseTime('2026-11-01', now)).toBe('2026-11-01T00:00:00.000Z');
    expect(parseTime('2026-11-01T10:00:00+02:00', now)).toBe('2026-11-01T08:00:00.000Z');
    expect(parseTime('yesterday', now)).toBeUndefined();
    expect(parseTime('2026-13-45', now)).toBeUndefined();
    // Not on the calendar: Date.parse would roll these over into the next month.
    expect(parseTime('2026-02-30T10:00:00Z', now)).toBeUndefined();
    expect(parseTime('2026-04-31', now)).toBeUndefined();
    expect(parseTime('2028-02-29', now)).toBe('2028-02-29T00:00:00.000Z');
  });
  test('formatDuration', () => {
    expect(formatDuration(150)).toBe('150ms');
    expect(formatDuration(2500)).toBe('2.5s');
    expect(formatDuration(90_000)).toBe('1m30s');
  });
});

describe('JSON error locations', () => {
  test.each([
    ['{"a":}', 1, 6, 'expected a value'],
    ['{\n  "a": 1,\n}', 3, 1, 'expected a property name'],
    ['[1, 2', 1, 6, 'expected "," or "]"'],
    ["{'a': 1}", 1, 2, 'expected a property name'],
    ['{"a": 1} x', 1, 10, 'after the end'],
    ['"tab\there"', 1, 5, 'control character'],
    ['', 1, 1, 'unexpected end of input'],
  ])('%j → line %i, column %i', (text, line, column, message) => {
    const loc = locateJsonError(text);
    expect(loc).toMatchObject({ line, column });
    expect(loc.message).toContain(message);
  });
  test('the scanner accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const loc = locateJsonError(text);
        if (!valid) expect(loc.message).not.toBe('invalid JSON');
        expect(loc.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });
  test('parseJsonText names the flag and the file', () => {
    expect(() => parseJsonText('--payload', '{"a":1,}', 'data.json')).toThrow('--payload: invalid JSON in data.json at line 1, column 8');
  });
});

describe('--set pairs', () => {
  test('strings, typed JSON, dotted keys, later pairs win', () => {
    expect(parseSetPairs('--set', ['a=1', 'b:=1', 'c.d=x', 'c.e:=[1,"2"]', 'f=a=b', 'a=2'])).toEqual({ a: '2', b: 1, c: { d: 'x', e: [1, '2'] }, f: 'a=b' });
  });
  test.each([['novalue'], ['=x'], ['a..b=1'], ['n:={'], ['__proto__.x=1'], ['a=1', 'a.b=2']])('%j is refused', (...pairs) => {
    expect(() => parseSetPairs('--set', pairs)).toThrow(UsageError);
  });
  test('deepMerge keeps both sides and lets the second win', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, l: [1] }, { a: { c: 3 }, l: [2] })).toEqual({ a: { b: 1, c: 3 }, l: [2] });
  });
});

describe('identifiers and contexts', () => {
  test('context refs accept = and :', () => {
    expect(parseContextRef('--context', 'tenant=acme')).toEqual({ type: 'tenant', id: 'acme' });
    expect(parseContextRef('--context', 'tenant:acme')).toEqual({ type: 'tenant', id: 'acme' });
  });
  test.each(['tenant', '=acme', 'ten ant=acme', `t=${'x'.repeat(101)}`, 'tenant=a:b'])('%j is refused', (v) => {
    expect(() => parseContextRef('--context', v)).toThrow(UsageError);
  });
  test('ids: no control characters, not empty, not absurdly long', () => {
    expect(checkId('--to', 'user-1 é')).toBe('user-1 é');
    expect(() => checkId('--to', '')).toThrow('must not be empty');
    expect(() => checkId('--to', 'a\nb')).toThrow('control characters');
    expect(() => checkId('--to', 'x'.repeat(513))).toThrow('at most 512');
  });
});

describe('parsers never crash on arbitrary input', () => {
  test('every failure is a UsageError with a one-line message', () => {
    const oneLineUsage = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        expect((e as Error).message).not.toContain('\n');
      }
    };
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }), fc.string({ unit: 'binary' }), (pairs, text) => {
        oneLineUsage(() => parseSetPairs('--set', pairs));
        oneLineUsage(() => parseContextRef('--context', text));
        oneLineUsage(() => checkId('--to', text));
        oneLineUsage(() => parseJsonText('--payload', text));
        parseDuration(text);
        parseTime(text, Date.now());
      }),
      { numRuns: 500 },
    );
  });
});

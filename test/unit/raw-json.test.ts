// The byte reader of list answers (io/raw-json.ts): where the records of `data` are, which may be
// copied as they came, and which answers it leaves to JSON.parse.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_RAW_DEPTH, parseElement, scanList } from '../../src/io/raw-json.js';
import { safeJson, UNSAFE_BEYOND_C0 } from '../../src/io/safe-text.js';

const event = (JSON.parse(readFileSync(new URL('../../bench/lib/event-fixture.json', import.meta.url), 'utf8')) as { data: unknown }).data;
const body = (elements: string[], rest = ',"hasMore":true,"page":0') => Buffer.from(`{"data":[${elements.join(',')}]${rest}}`);
/** Whether the one record of a page may be copied as its bytes. */
const copied = (element: string) => scanList(body([element]))!.clean[0] === 1;

describe('scanList', () => {
  test('finds each record of data as JSON.stringify printed it, and the paging fields', () => {
    const records = [event, { ...(event as object), _id: 'x' }, 1, 'two', null, [], {}];
    const bytes = body(records.map((r) => JSON.stringify(r)));
    const list = scanList(bytes)!;
    expect(list.count).toBe(records.length);
    expect(list.hasMore).toBe(true);
    for (let i = 0; i < records.length; i++) {
      expect(bytes.toString('utf8', list.spans[2 * i], list.spans[2 * i + 1])).toBe(JSON.stringify(records[i]));
      expect(list.clean[i], JSON.stringify(records[i])).toBe(1);
      expect(parseElement(list, i)).toEqual(records[i]);
    }
  });

  test('whitespace around the envelope and between records is allowed; inside a record it is not copied', () => {
    const list = scanList(Buffer.from('\n{ "data" : [ {"a":1} ,\n{"a": 1} ] , "hasMore" : false }\n'))!;
    expect(list.count).toBe(2);
    expect([...list.clean]).toEqual([1, 0]);
    expect(list.hasMore).toBe(false);
  });

  test('hasMore is true only for the literal true, and the last one counts (as JSON.parse keeps)', () => {
    expect(scanList(body([], ',"hasMore":"true"'))!.hasMore).toBe(false);
    expect(scanList(body([], ',"hasMore":1'))!.hasMore).toBe(false);
    expect(scanList(body([], ',"hasMore":true,"hasMore":false'))!.hasMore).toBe(false);
    expect(scanList(body([], ',"hasMore":false,"hasMore":true'))!.hasMore).toBe(true);
    expect(scanList(body([], ''))!.hasMore).toBe(false);
  });

  test.each([
    ['cut short', '{"data":[{"a":1}'],
    ['not JSON', 'upstream error'],
    ['empty', ''],
    ['a top-level array', '[{"a":1}]'],
    ['no data', '{"items":[]}'],
    ['data not an array', '{"data":{"a":1}}'],
    ['data twice', '{"data":[1],"data":[2]}'],
    ['an escaped envelope key', '{"data":[1],"d\\u0061ta":[2]}'],
    ['trailing text', '{"data":[]} x'],
    ['a raw control character in a string', '{"data":["a\u0001b"]}'],
    ['a leading zero', '{"data":[01]}'],
    ['a bad escape', '{"data":["\\x"]}'],
    ['a short \\u escape', '{"data":["\\u00"]}'],
    ['a byte-order mark', '\ufeff{"data":[]}'],
    ['a trailing comma', '{"data":[1,]}'],
    ['a key without a value', '{"data":[{"a"}]}'],
    ['a bare word', '{"data":[tru]}'],
    ['too deep', `{"data":[${'['.repeat(MAX_RAW_DEPTH + 1)}${']'.repeat(MAX_RAW_DEPTH + 1)}]}`],
  ])('leaves to JSON.parse: %s', (_name, text) => {
    expect(scanList(Buffer.from(text))).toBeUndefined();
  });

  test('copies what JSON.stringify prints: strings', () => {
    expect(copied(JSON.stringify('a"b\\c\n\t\b\f\r\u0000\u001f é 😀 \u2028 \u200d /'))).toBe(true);
    // What safeJson escapes for a terminal is never copied raw: bidi marks, hidden characters.
    for (const ch of ['\u202e', '\u2066', '\u200e', '\u061c', '\u200b', '\u2060', '\ufeff', '\u009b'])
      expect(copied(JSON.stringify(`a${ch}b`)), ch).toBe(false);
    expect(copied('"\\u001F"')).toBe(false); // upper-case hex
    expect(copied('"\\u000a"')).toBe(false); // JSON.stringify writes \n
    expect(copied('"\\u0041"')).toBe(false);
    expect(copied('"\\/"')).toBe(false);
    expect(copied('"\\ud83d\\ude00"')).toBe(false); // JSON.stringify writes the character
    expect(copied(JSON.stringify('\ud800'))).toBe(false); // a lone surrogate, \ud800
  });

  test('copies what JSON.stringify prints: numbers', () => {
    for (const n of ['0', '-1', '123456789012345', '0.5', '-0.5', '1.25', '0.000001', '123456.789', '-12.5']) {
      expect(copied(n), n).toBe(true);
      expect(JSON.stringify(JSON.parse(n))).toBe(n);
    }
    for (const n of ['-0', '1.0', '1.50', '0.0', '1e5', '1E5', '2.5e-3', '0.0000001', '1234567890123456', '9007199254740993', '0.30000000000000004']) {
      expect(copied(n), n).toBe(false);
    }
  });

  test('does not copy what safeJson escapes: DEL, C1 and bidi controls', () => {
    for (const ch of ['\u007f', '\u0080', '\u0085', '\u009f', '\u202a', '\u202e', '\u2066', '\u2069']) expect(copied(JSON.stringify(`x${ch}`)), ch).toBe(false);
    for (const ch of ['\u00a0', '\u2065', '\u202f', '\u2028']) expect(copied(JSON.stringify(`x${ch}`)), ch).toBe(true);
  });

  test("copies exactly what safeJson leaves alone: safe-text.ts's list, one table for both", () => {
    // Every character of the list and its neighbours (a list grown there is followed here).
    const around = UNSAFE_BEYOND_C0.flatMap(([first, last]) => [first - 1, first, last, last + 1]).filter((c) => c > 0x7e && (c < 0xd800 || c > 0xdfff));
    for (const code of around) {
      const text = JSON.stringify(`x${String.fromCodePoint(code)}`);
      expect(copied(text), code.toString(16)).toBe(safeJson(text) === text);
    }
  });

  test('does not copy invalid UTF-8 (the usual path decodes it to U+FFFD)', () => {
    for (const bad of [[0x80], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe0, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5], [0xe2, 0x80]]) {
      const b = Buffer.concat([Buffer.from('{"data":["a'), Buffer.from(bad), Buffer.from('"]}')]);
      expect(scanList(b)!.clean[0], bad.join(' ')).toBe(0);
    }
  });

  test('does not copy a record whose keys masking or JSON.parse would change', () => {
    for (const key of ['token', 'Token', 'APIKEY', 'password', 'credentials', 'auth', 'secretKey', 'to\u212aen', '__proto__', '0', '12', '4294967294']) {
      expect(copied(`{"a":1,${JSON.stringify(key)}:"v"}`), key).toBe(false);
      expect(copied(`{"x":{${JSON.stringify(key)}:1}}`), key).toBe(false);
    }
    for (const key of ['tokens', 'email', 'to', 'authors', '01', '1a', '_proto_']) expect(copied(`{${JSON.stringify(key)}:"v"}`), key).toBe(true);
  });

  test('does not copy an object with a key twice (JSON.parse keeps the last value, in the first place)', () => {
    expect(copied('{"a":1,"b":2,"a":3}')).toBe(false);
    expect(copied('{"a":{"x":1,"x":1}}')).toBe(false);
    expect(copied('{"a\\n":1,"a\\n":2}')).toBe(false);
    // The same key in different objects, nested or side by side, is no repeat.
    expect(copied('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}],"c":{"a":1}}')).toBe(true);
    // Many keys: the stack of keys grows past its first size.
    const many = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, { [`k${i}`]: i }]));
    expect(copied(JSON.stringify(many))).toBe(true);
    expect(copied(`${JSON.stringify(many).slice(0, -1)},"k599":0}`)).toBe(false);
  });

  test('a page of many records grows its tables', () => {
    const list = scanList(body(Array.from({ length: 1000 }, (_, i) => `{"i":${i}}`)))!;
    expect(list.count).toBe(1000);
    expect(parseElement(list, 999)).toEqual({ i: 999 });
    expect(list.clean.every((c) => c === 1)).toBe(true);
  });
});

// An export written from the answer's bytes (io/stream.ts rawPage, io/raw-json.ts) must print exactly
// what the parse path prints for the same answer: JSON.parse of the decoded body, mask(), then
// safeJson(JSON.stringify()) per ndjson line or the re-indented JSON.stringify(r, null, 2) of a json
// array. The answers here are raw JSON text built from pieces that each break the byte copy one way:
// whitespace, escapes JSON.stringify does not write, numbers it writes another way, invalid UTF-8, lone
// surrogates, DEL, C1 and bidi controls, masked keys in any case (the Kelvin sign lower-cases to "k"),
// repeated keys, integer keys, __proto__, and the API key inside a value.
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { scanList } from '../../src/io/raw-json.js';
import { createRecordWriter } from '../../src/io/stream.js';
import type { Output, OutputFormat } from '../../src/io/types.js';

const KEY = 'sk_test_0123456789abcdef';

function sink(): { stream: Writable; text: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks) };
}

function output(stdout: Writable, format: OutputFormat, showSecrets = false): Output {
  return { stdout, format, secrets: [KEY], showSecrets, color: false, note: () => undefined };
}

/** What the parse path prints for these answers, one page each. */
async function parsePath(bodies: Buffer[], format: OutputFormat, showSecrets = false): Promise<Buffer> {
  const s = sink();
  const w = await createRecordWriter(output(s.stream, format, showSecrets));
  for (const b of bodies) await w.page((JSON.parse(b.toString('utf8')) as { data: unknown[] }).data);
  await w.end();
  return s.text();
}

/** What the byte path prints for the same answers. */
async function rawPath(bodies: Buffer[], format: OutputFormat, showSecrets = false): Promise<Buffer> {
  const s = sink();
  const w = await createRecordWriter(output(s.stream, format, showSecrets));
  expect(w.raw).toBe(true);
  for (const b of bodies) {
    const list = scanList(b);
    expect(list, b.toString()).toBeDefined();
    await w.rawPage(list!);
  }
  await w.end();
  return s.text();
}

const bytes = (...b: number[]) => Buffer.from(b);
const text = (s: string) => Buffer.from(s, 'utf8');

// Pieces of string content, as bytes between the quotes.
const stringPiece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 8 }).map((s) => text(JSON.stringify(s).slice(1, -1))) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => text(JSON.stringify(s).slice(1, -1))) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...[
        '\\"',
        '\\\\',
        '\\n',
        '\\t',
        '\\b',
        '\\f',
        '\\r',
        '\\/',
        '\\u0000',
        '\\u001f',
        '\\u001F',
        '\\u000a',
        '\\u0041',
        '\\u00e9',
        '\\u007f',
        '\\u009b',
        '\\u202e',
        '\\ud83d\\ude00',
        '\\ud800',
        '\\udc00',
        '\\uD800',
        'é',
        '😀',
        '\u2028',
        '\u2029',
        '\u202a',
        '\u202e',
        '\u2066',
        '\u2069',
        '\u2065',
        '\u202f',
        '\u0085',
        '\u009f',
        '\u00a0',
        '\u007f',
        '\u212a',
        '\ufeff',
        sk(),
      ].map(text),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      bytes(0x80),
      bytes(0xc0, 0x80),
      bytes(0xc1, 0xbf),
      bytes(0xed, 0xa0, 0x80),
      bytes(0xed, 0xbf, 0xbf),
      bytes(0xe0, 0x80, 0x80),
      bytes(0xf0, 0x80, 0x80, 0x80),
      bytes(0xf4, 0x90, 0x80, 0x80),
      bytes(0xf5),
      bytes(0xff),
      bytes(0xe2, 0x80),
      bytes(0xf0, 0x9f, 0x98),
      bytes(0xc2),
    ),
  },
);

function sk(): string {
  return KEY;
}

const rawString = fc.array(stringPiece, { maxLength: 5 }).map((parts) => Buffer.concat([text('"'), ...parts, text('"')]));

const rawNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => text(JSON.stringify(d))),
  fc.integer().map((i) => text(String(i))),
  fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map((i) => text(String(i))),
  fc
    .tuple(fc.integer({ min: 0, max: 999999 }), fc.integer({ min: 0, max: 9 }), fc.nat({ max: 999999 }))
    .map(([i, zeros, f]) => text(`${i}.${'0'.repeat(zeros)}${f}`)),
  fc.constantFrom(
    ...[
      '0',
      '-0',
      '0.0',
      '-0.0',
      '1.0',
      '1.50',
      '1e5',
      '1E+2',
      '1e-7',
      '2.5e-3',
      '0.000001',
      '0.0000001',
      '-0.000001',
      '123456789012345',
      '1234567890123456',
      '123456789012345.6',
      '12345678901234.5',
      '9007199254740993',
      '0.1',
      '0.30000000000000004',
      '100000000000000000000',
      '1000000000000000000000',
      '-12.25',
    ].map(text),
  ),
);

const keyNames = [
  'a',
  'b',
  'name',
  '_id',
  'token',
  'Token',
  'TOKEN',
  'apiKey',
  'APIKEY',
  'password',
  'credentials',
  'Credentials',
  'auth',
  'secret',
  'authorization',
  'to\u212aen',
  'api\u212aey',
  '__proto__',
  '0',
  '12',
  '01',
  '4294967295',
  'data',
  'hasMore',
  'email',
  'to',
];
const rawKey = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...keyNames).map((k) => text(JSON.stringify(k))) }, { weight: 1, arbitrary: rawString });

const ws = fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom(' ', '\n', '\t', '\r\n  ') }).map(text);

const { value: rawValue } = fc.letrec<{ value: Buffer; object: Buffer; array: Buffer }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    rawString,
    rawNumber,
    fc.constantFrom(text('true'), text('false'), text('null')),
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(ws, rawKey, ws, ws, tie('value'), ws), { maxLength: 5 })
    .map((members) =>
      Buffer.concat([text('{'), ...members.flatMap(([a, k, b, c, v, d], i) => [i ? text(',') : text(''), a, k, b, text(':'), c, v, d]), text('}')]),
    ),
  array: fc
    .array(fc.tuple(ws, tie('value'), ws), { maxLength: 4 })
    .map((items) => Buffer.concat([text('['), ...items.flatMap(([a, v, b], i) => [i ? text(',') : text(''), a, v, b]), text(']')])),
}));

/**
 * An object as JSON.stringify prints one, but whose keys come from a small pool: some repeat, some
 * are masked, integer-like or __proto__, which only the keys make unclean.
 */
const canonicalWithKeys = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'name') },
        { weight: 1, arbitrary: fc.constantFrom('__proto__', '7', 'to\u212aen', 'Secret') },
        { weight: 1, arbitrary: fc.constantFrom(...keyNames) },
      ),
      fc.oneof({ weight: 6, arbitrary: fc.jsonValue({ maxDepth: 1 }) }, { weight: 1, arbitrary: fc.constant(KEY) }),
    ),
    { maxLength: 5 },
  )
  .map((members) => text(`{${members.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`));

/** Mostly clean records (JSON.stringify of a JSON value), some raw ones: the mix an export meets. */
const element = fc.oneof(
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => text(JSON.stringify(v))) },
  { weight: 2, arbitrary: canonicalWithKeys },
  { weight: 3, arbitrary: rawValue },
);

const page = fc
  .tuple(fc.array(fc.tuple(ws, element, ws), { maxLength: 8 }), fc.boolean(), ws)
  .map(([items, hasMore, sp]) =>
    Buffer.concat([
      text('{'),
      sp,
      text('"data":['),
      ...items.flatMap(([a, e, b], i) => [i ? text(',') : text(''), a, e, b]),
      text(`],"hasMore":${hasMore},"page":0,"pageSize":50}`),
    ]),
  );

describe('an export from the answer bytes prints what the parse path prints', () => {
  test.each(['ndjson', 'json'] as const)('%s, random pages', async (format) => {
    await fc.assert(
      fc.asyncProperty(fc.array(page, { minLength: 1, maxLength: 3 }), async (bodies) => {
        const raw = await rawPath(bodies, format);
        const parsed = await parsePath(bodies, format);
        expect(raw.toString('utf8')).toBe(parsed.toString('utf8'));
        expect(raw.equals(parsed)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  test('with --show-secrets too', async () => {
    await fc.assert(
      fc.asyncProperty(page, async (body) => {
        expect((await rawPath([body], 'ndjson', true)).equals(await parsePath([body], 'ndjson', true))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  test('paging fields come from the bytes as JSON.parse reads them; most records are copied', () => {
    let records = 0;
    let copied = 0;
    fc.assert(
      fc.property(page, (body) => {
        const list = scanList(body)!;
        const parsed = JSON.parse(body.toString('utf8')) as { data: unknown[]; hasMore: unknown };
        expect(list.count).toBe(parsed.data.length);
        expect(list.hasMore).toBe(parsed.hasMore === true);
        records += list.count;
        for (let i = 0; i < list.count; i++) copied += list.clean[i]!;
      }),
      { numRuns: 300 },
    );
    // The pages above test both paths only if both are taken.
    expect(copied / records).toBeGreaterThan(0.3);
    expect(copied / records).toBeLessThan(0.9);
  });
});

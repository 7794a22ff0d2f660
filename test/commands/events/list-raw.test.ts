// `events list --all -o ndjson|json` writes the records from the answer's bytes (io/stream.ts rawPage)
// and must print exactly what the parse path prints. --debug turns the byte path off (the trace shows
// the parsed answer), so the same command under --debug is the parse path to compare with. The feed
// here writes its pages by hand: records that may be copied as they came, and records the byte path
// must leave to the parser (whitespace, `1.0`, a masked key, the API key in a value, a C1 control, a
// repeated key, a lone surrogate, invalid UTF-8).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { runSvc } from '../../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
const clean = (i: number) => JSON.stringify({ _id: `6761f0c2a3b4c5d6e7f0${String(i).padStart(4, '0')}`, transactionId: `txn-${i}`, jobs: [], n: 1.5 });
const PAGES: Buffer[][] = [
  [clean(0), clean(1), clean(2)].map((s) => Buffer.from(s)),
  [
    clean(3),
    '{ "_id": "6761f0c2a3b4c5d6e7f00004", "jobs": [] }',
    '{"_id":"6761f0c2a3b4c5d6e7f00005","n":1.0}',
    '{"_id":"6761f0c2a3b4c5d6e7f00006","payload":{"Token":"tok_abcdefghijkl"}}',
    `{"_id":"6761f0c2a3b4c5d6e7f00007","note":"key ${KEY} quoted"}`,
    '{"_id":"6761f0c2a3b4c5d6e7f00008","name":"a\u0085b\u202ec"}',
    clean(9),
  ].map((s) => Buffer.from(s)),
  [
    Buffer.from('{"_id":"6761f0c2a3b4c5d6e7f00010","a":1,"a":2}'),
    Buffer.from('{"_id":"6761f0c2a3b4c5d6e7f00011","s":"\\ud800"}'),
    Buffer.concat([Buffer.from('{"_id":"6761f0c2a3b4c5d6e7f00012","s":"x'), Buffer.from([0xc0, 0x80]), Buffer.from('"}')]),
    Buffer.from(clean(13)),
  ],
];
let server: Server;
let baseUrl: string;
/** Answer the next request for this page cut short once (a dropped connection the HTTP core retries). */
let cutPage: number | undefined;
const asked: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    // Only the feed: GET /v1/svc-dev (does --status talk to svc dev?) is answered as the hosted service answers it.
    if (new URL(req.url ?? '/', 'http://feed').pathname === '/v1/svc-dev') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"statusCode":404,"message":"Cannot GET"}');
      return;
    }
    const page = Number(new URL(req.url ?? '/', 'http://feed').searchParams.get('page') ?? 0);
    asked.push(page);
    const records = PAGES[page] ?? [];
    const body = Buffer.concat([
      Buffer.from('{"data":['),
      ...records.flatMap((r, i) => (i ? [Buffer.from(','), r] : [r])),
      Buffer.from(`],"hasMore":${page + 1 < PAGES.length},"pageSize":50,"page":${page}}`),
    ]);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (cutPage === page) {
      cutPage = undefined;
      res.end(body.subarray(0, body.length - 20));
    } else res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => vi.restoreAllMocks());

const env = () => ({ SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY });

/** The command's output, and how many whole list answers went through JSON.parse. */
async function run(argv: string[]): Promise<{ stdout: string; stderr: string; code: number; bodiesParsed: number }> {
  const parse = vi.spyOn(JSON, 'parse');
  const r = await runSvc(argv, { env: env() });
  const bodiesParsed = parse.mock.calls.filter(([text]) => typeof text === 'string' && text.startsWith('{"data":[')).length;
  parse.mockRestore();
  return { ...r, bodiesParsed };
}

test.each(['ndjson', 'json'])('events list --all -o %s prints from the bytes what the parse path prints', async (format) => {
  const fast = await run(['events', 'list', '--all', '-o', format]);
  expect(fast.code, fast.stderr).toBe(0);
  // The byte path: no answer was parsed whole.
  expect(fast.bodiesParsed).toBe(0);
  const slow = await run(['events', 'list', '--all', '-o', format, '--debug']);
  expect(slow.code, slow.stderr).toBe(0);
  expect(slow.bodiesParsed).toBe(PAGES.length);
  expect(fast.stdout).toBe(slow.stdout);
  expect(fast.stderr).toBe('14 records\n');
  // What the parse path makes of the records the byte path could not copy.
  expect(fast.stdout).not.toContain(KEY);
  expect(fast.stdout).not.toContain('tok_abcdefghijkl');
  if (format === 'ndjson') {
    const lines = fast.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(14);
    // An event with its jobs gets svc's derived field, appended to the bytes as they came.
    const derived = '"derived":{"status":"none","reason":null,"channels":[]}';
    expect(lines[0]).toBe(`${clean(0).slice(0, -1)},${derived}}`);
    expect(lines[4]).toBe(`{"_id":"6761f0c2a3b4c5d6e7f00004","jobs":[],${derived}}`);
    expect(lines[5]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00005","n":1}');
    expect(lines[7]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00007","note":"key sk_…cdef quoted"}');
    expect(lines[8]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00008","name":"a\\u0085b\\u202ec"}');
    expect(lines[10]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00010","a":2}');
    expect(lines[11]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00011","s":"\\ud800"}');
    expect(lines[12]).toBe('{"_id":"6761f0c2a3b4c5d6e7f00012","s":"x\ufffd\ufffd"}');
  } else expect(JSON.parse(fast.stdout)).toHaveLength(14);
});

test('an answer cut short is retried, as on the parse path', async () => {
  asked.length = 0;
  cutPage = 1;
  const r = await run(['events', 'list', '--all', '-o', 'ndjson']);
  expect(r.code, r.stderr).toBe(0);
  expect(asked).toEqual([0, 1, 1, 2]);
  expect(r.stdout.trimEnd().split('\n')).toHaveLength(14);
  expect(r.stderr).toBe('14 records\n');
});

test('--status, --fields and table output keep the parse path', async () => {
  for (const argv of [
    ['events', 'list', '--all', '-o', 'ndjson', '--fields', '_id'],
    ['events', 'list', '--all', '-o', 'ndjson', '--status', 'pending'],
    ['events', 'list', '--all', '-o', 'yaml'],
  ]) {
    const r = await run(argv);
    expect(r.code, r.stderr).toBe(0);
    expect(r.bodiesParsed, argv.join(' ')).toBe(PAGES.length);
  }
});

test('messages list --all -o ndjson takes the byte path too', async () => {
  const fast = await run(['messages', 'list', '--all', '-o', 'ndjson']);
  expect(fast.code, fast.stderr).toBe(0);
  expect(fast.bodiesParsed).toBe(0);
  const slow = await run(['messages', 'list', '--all', '-o', 'ndjson', '--debug']);
  expect(slow.bodiesParsed).toBe(PAGES.length);
  expect(fast.stdout).toBe(slow.stdout);
  expect(fast.stdout.trimEnd().split('\n')).toHaveLength(14);
  expect(fast.stderr).toBe('14 records\n');
});

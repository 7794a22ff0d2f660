// The built binary's export from the answer bytes: `events list --all -o ndjson|json` against a loopback
// feed of real events (with a few records the byte path must leave to the parser) prints what the parse
// path prints (the same command with `--query '[]'`, which keeps every record and takes that path), and
// so does the same command under --debug, which runs the byte path too.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { svcBin } from '../helpers/bin.js';

const KEY = 'sk_test_0123456789abcdef';
const PAGES = 12;
const LIMIT = 50;
const fixture = (JSON.parse(readFileSync(new URL('../../bench/lib/event-fixture.json', import.meta.url), 'utf8')) as { data: Record<string, unknown> }).data;
let server: Server;
let baseUrl: string;

/** Event i; every 37th carries something only the parse path prints right. */
function event(i: number): string {
  const e = { ...fixture, _id: (0x6761f0c2a3b4c5d6e7f00000n + BigInt(i)).toString(16), transactionId: `txn-${i}` };
  if (i % 37 === 1) return JSON.stringify({ ...e, payload: { token: 'tok_0123456789abcdef' } });
  if (i % 37 === 2) return JSON.stringify({ ...e, payload: { note: `key ${KEY}` } });
  if (i % 37 === 3) return JSON.stringify(e, null, 1);
  if (i % 37 === 4) return JSON.stringify({ ...e, payload: { name: 'bidi \u202e and C1 \u009b' } });
  return JSON.stringify(e);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://feed').searchParams.get('page') ?? 0);
    const data = [];
    for (let i = page * LIMIT; i < Math.min(PAGES * LIMIT, (page + 1) * LIMIT); i++) data.push(event(i));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":[${data.join(',')}],"hasMore":${page + 1 < PAGES},"pageSize":${LIMIT},"page":${page}}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test.each(['ndjson', 'json'])('svc events list --all -o %s: the byte path prints what the parse path prints', async (format) => {
  const env = { SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY };
  const [fast, slow, debug] = await Promise.all([
    svcBin(['events', 'list', '--all', '-o', format], { env }),
    svcBin(['events', 'list', '--all', '-o', format, '--query', '[]'], { env }),
    svcBin(['events', 'list', '--all', '-o', format, '--debug'], { env }),
  ]);
  expect(fast.exitCode, String(fast.stderr)).toBe(0);
  expect(slow.exitCode).toBe(0);
  expect(debug.exitCode).toBe(0);
  expect(fast.stderr).toBe(`${PAGES * LIMIT} records`);
  expect(fast.stdout).toBe(slow.stdout);
  expect(debug.stdout).toBe(fast.stdout);
  for (const secret of [KEY, 'tok_0123456789abcdef']) expect(String(debug.stderr)).not.toContain(secret);
  expect(fast.stdout).not.toContain(KEY);
  expect(fast.stdout).not.toContain('tok_0123456789abcdef');
  expect(fast.stdout).toContain('bidi \\u202e and C1 \\u009b');
  const records =
    format === 'json'
      ? (JSON.parse(String(fast.stdout)) as unknown[])
      : String(fast.stdout)
          .split('\n')
          .map((l) => JSON.parse(l));
  expect(records).toHaveLength(PAGES * LIMIT);
});

// `events list --all` into a reader slower than the feed: svc asks for the next page only once stdout
// has taken what was written, so that an export into a slow pipe holds one page, not all of them.
// (On Linux a pipe to stdout is written synchronously; on macOS it is not, and stdout buffers.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../../src/main.js';
import { tempConfigDir } from '../../helpers/run.js';

const PAGES = 6;
const LIMIT = 50;
let server: Server;
let baseUrl: string;
const pagesAsked: number[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    if (url.pathname === '/ping') return void res.writeHead(204).end();
    const page = Number(url.searchParams.get('page') ?? 0);
    pagesAsked.push(page);
    const data = Array.from({ length: LIMIT }, (_, i) => ({
      _id: (0x6761f0c2a3b4c5d6e7f00000n + BigInt(page * LIMIT + i)).toString(16),
      transactionId: `txn-${page * LIMIT + i}`,
      createdAt: '2026-11-01T00:00:00.000Z',
      channels: ['email'],
      jobs: [],
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data, hasMore: page + 1 < PAGES, pageSize: LIMIT, page }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the next page waits until stdout drains', async () => {
  let paused = true;
  const held: (() => void)[] = [];
  let text = '';
  const stdout = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      if (paused) held.push(cb);
      else cb();
    },
  });
  const stderr = new PassThrough();
  let errText = '';
  stderr.on('data', (c: Buffer) => (errText += c.toString()));
  const run = main(['events', 'list', '--all', '-o', 'ndjson'], {
    io: { stdout, stderr, stdin: Readable.from([]) },
    env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), SVC_BASE_URL: baseUrl, SVC_API_KEY: 'sk_test_0123456789abcdef' },
    cwd: process.cwd(),
    handleSignals: false,
  });
  // While the reader takes nothing, svc stops after the page it wrote: it waits on the reader (a write
  // whose callback is held, or a listener on 'drain'), and a request it had sent before that would
  // have reached the server before one sent after it over a fresh connection has been answered.
  await expect.poll(() => held.length > 0 || stdout.listenerCount('drain') > 0, { timeout: 15_000 }).toBe(true);
  expect((await fetch(`${baseUrl}/ping`)).status).toBe(204);
  expect(pagesAsked, errText).toEqual([0]);
  paused = false;
  for (const cb of held.splice(0)) cb();
  expect(await run).toBe(0);
  expect(pagesAsked).toEqual([0, 1, 2, 3, 4, 5]);
  expect(text.trim().split('\n')).toHaveLength(PAGES * LIMIT);
});

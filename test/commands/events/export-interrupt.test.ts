// Ctrl-C during an export whose reader has stopped reading: the byte path's wait for the write ends,
// and the command says how far it got and which --page continues, at once (not when the reader reads).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { main } from '../../../src/main.js';
import { runSvc, tempConfigDir } from '../../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let server: Server;
let baseUrl: string;
let served = 0;
beforeAll(async () => {
  // Endless pages of 50 clean records (the byte path copies them).
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://feed').searchParams.get('page') ?? 0);
    served++;
    const data = Array.from({ length: 50 }, (_, i) => ({
      _id: (0x6761f0c2a3b4c5d6e7f00000n + BigInt(page * 50 + i)).toString(16),
      transactionId: `txn-${page}-${i}`,
      pad: 'x'.repeat(2000),
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data, hasMore: true, pageSize: 50, page }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

for (const extra of [[], ['--fields', '_id']]) {
  test(`events list --all -o ndjson ${extra.join(' ')}: Ctrl-C with a reader that stopped reading ends at once, naming the --page that continues`, async () => {
    // A reader that never reads: its buffer fills, and writes wait.
    const stdout = new PassThrough({ highWaterMark: 1024 });
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const ctl = new AbortController();
    served = 0;
    const run = main(['events', 'list', '--all', '-o', 'ndjson', ...extra], {
      io: { stdout, stderr, stdin: Readable.from([]) },
      env: { PATH: process.env.PATH, NO_COLOR: '1', SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY, SVC_CONFIG_DIR: tempConfigDir() },
      cwd: process.cwd(),
      handleSignals: false,
      signal: ctl.signal,
    });
    // Interrupted once pages are waiting on the reader: the server has answered, and what svc wrote
    // fills stdout past its mark (nobody reads it).
    await expect.poll(() => served >= 1 && stdout.writableNeedDrain, { timeout: 15_000 }).toBe(true);
    const t0 = Date.now();
    ctl.abort();
    const code = await Promise.race([run, new Promise((r) => setTimeout(() => r('still waiting'), 5000))]);
    expect(code, err).toBe(130);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(err).toMatch(/interrupted after \d+ records?/);
    expect(err).toMatch(/--page \d+/);
  });
}

test('an interrupt that came before the command started (while it loaded) still stops it: exit 130', async () => {
  served = 0;
  const r = await runSvc(['events', 'list', '--all', '-o', 'ndjson'], {
    env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: KEY },
    signal: AbortSignal.abort(),
  });
  expect(r.code).toBe(130);
  expect(served).toBeLessThanOrEqual(1);
});

// A long run of requests (an export of a million events is 20,000 pages) must not keep anything per
// request after its answer: the timer of each attempt's timeout and its abort wiring are released when
// the attempt ends, not when the timeout would have fired 30 s later. Counted with async_hooks: every
// Timeout created by the requests must be destroyed by the time the last answer is back.
import { createHook } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ _id: 'a' }], hasMore: true, page: 0, pageSize: 1 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('no timer or abort listener outlives its request', async () => {
  const outer = new AbortController();
  const client = new ApiClient({ baseUrl, apiKey: 'sk_test_0123456789abcdef', timeoutMs: 30_000, retries: 0, userAgent: 'test', signal: outer.signal });
  const live = new Set<number>();
  const hook = createHook({
    init(id, type) {
      if (type === 'Timeout') live.add(id);
    },
    destroy(id) {
      live.delete(id);
    },
  });
  hook.enable();
  try {
    for (let i = 0; i < 200; i++) {
      const res = await client.send({ method: 'GET', path: '/v1/notifications', query: { page: i } });
      expect(res.status).toBe(200);
    }
    // A destroy hook runs on the next turn of the loop after clearTimeout.
    await new Promise((r) => setImmediate(r));
  } finally {
    hook.disable();
    await client.close();
  }
  // Timers of the keep-alive agent may remain; one per request may not.
  expect(live.size).toBeLessThan(5);
  expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
});

test('the timeout still ends an attempt that gets no answer', async () => {
  const silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const client = new ApiClient({
    baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    timeoutMs: 150,
    retries: 0,
    userAgent: 'test',
  });
  try {
    await expect(client.send({ method: 'GET', path: '/v1/notifications' })).rejects.toMatchObject({ code: 'timeout' });
  } finally {
    await client.close();
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

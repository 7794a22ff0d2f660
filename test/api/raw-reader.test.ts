// The byte reader of exports (io/raw-json.ts) under --debug: the HTTP core hands it the answer's bytes
// whether or not a trace is on, so that `--debug` runs the path it is debugging; the trace still shows
// the answer parsed and masked.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { Api } from '../../src/api/session.js';
import { scanList } from '../../src/io/raw-json.js';
import { startStub, type Stub } from '../helpers/stub.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => stub.close());

function api(trace?: (line: string) => void): Api {
  return new Api(
    { baseUrl: stub.url, apiKey: KEY, timeoutMs: 5_000, retries: 0, userAgent: 'test', env: {}, ...(trace ? { trace } : {}) },
    { command: 'svc events list', dryRun: false, showSecrets: false, note: () => undefined, warn: () => undefined, showRequest: async () => undefined },
  );
}

test.each([
  ['without a trace', false],
  ['with the --debug trace', true],
])('rawPages %s: each page comes as the bytes the service sent', async (_what, traced) => {
  const records = [
    { _id: 'a1', payload: { token: 'tok_0123456789abcdef' } },
    { _id: 'a2', payload: { note: 'plain' } },
  ];
  stub.on('GET', '/v1/notifications', (req) => ({
    body: { data: req.query.get('page') === '0' ? records : [], hasMore: req.query.get('page') === '0', page: 0 },
  }));
  const lines: string[] = [];
  const client = api(traced ? (l) => lines.push(l) : undefined);
  const pages = [];
  for await (const page of client.rawPages({ method: 'GET', path: '/v1/notifications', query: { page: 0 } }, scanList)) pages.push(page);
  await client.close();
  expect(pages.map((p) => p.raw?.count)).toEqual([2, 0]);
  expect(pages[0]!.records).toBeUndefined();
  if (!traced) return;
  // The trace shows the answer parsed, its token masked: never the secret itself.
  const body = lines.find((l) => l.startsWith('< {'));
  expect(body).toContain('"_id":"a1"');
  expect(lines.join('\n')).not.toContain('tok_0123456789abcdef');
  expect(lines.join('\n')).not.toContain(KEY);
});

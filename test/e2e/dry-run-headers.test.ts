// --dry-run prints the request svc would send: the same headers as the request it does send (one
// function builds both, ApiClient.headersFor), with the key masked.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startStub, type Stub } from '../helpers/stub.js';
import { svcBin } from '../helpers/bin.js';

const KEY = 'sk_test_dryrun_0123456789';
let stub: Stub;
beforeAll(async () => {
  stub = await startStub();
  stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 'tx-1' } } });
});
afterAll(async () => stub.close());

test('the headers --dry-run prints are the headers the request carries (user-agent included), the key masked', async () => {
  const args = ['trigger', 'welcome', '--to', 'u1', '--idempotency-key', 'key-1', '-o', 'json'];
  const env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
  const dry = await svcBin([...args, '--dry-run'], { env });
  expect(dry.exitCode, String(dry.stderr)).toBe(0);
  expect(stub.requests).toHaveLength(0);
  const printed = JSON.parse(String(dry.stdout)).headers as Record<string, string>;
  const sent = await svcBin(args, { env });
  expect(sent.exitCode, String(sent.stderr)).toBe(0);
  const received = stub.requests[0]!.headers;
  for (const [name, value] of Object.entries(printed)) {
    if (name === 'authorization') {
      expect(received.authorization).toBe(`ApiKey ${KEY}`);
      expect(value).not.toContain(KEY);
    } else expect(received[name], name).toBe(value);
  }
  expect(printed['user-agent']).toMatch(/^svc\//);
  expect(Object.keys(printed).sort()).toEqual(['accept', 'authorization', 'content-type', 'idempotency-key', 'user-agent']);
});

// The HTTP core through real commands: exit codes per status, retries and their idempotency key,
// Retry-After, timeouts, refused connections, envelope handling and error output.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
const fast = ['--retries', '2'];

beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
});
afterEach(async () => stub.close());

const errorBody = (status: number, message: string, extra: Record<string, unknown> = {}) => ({
  statusCode: status,
  timestamp: new Date().toISOString(),
  path: '/v1/integrations/active',
  message,
  ...extra,
});

describe('exit codes', () => {
  test.each([
    [401, 3, 'unauthorized', 'API Key not found'],
    [403, 3, 'forbidden', 'Forbidden'],
    [404, 5, 'not_found', 'Not found'],
    [400, 6, 'bad_request', 'Bad'],
    [409, 6, 'conflict', 'Context exists'],
    [422, 6, 'validation_failed', 'Validation Error'],
  ])('HTTP %i → exit %i, no retry', async (status, code, errCode, message) => {
    stub.on('GET', '/v1/integrations/active', { status, body: errorBody(status, message) });
    const r = await runSvc(['integrations', 'active', ...fast], { env });
    expect(r.code).toBe(code);
    expect(stub.requests).toHaveLength(1);
    expect(r.stderr).toContain(`${status}`);
    expect(r.stderr).toContain(message);
    const j = await runSvc(['integrations', 'active', '-o', 'json', ...fast], { env });
    expect(JSON.parse(j.stderr)).toMatchObject({ error: { code: errCode, status } });
    expect(j.stdout).toBe('');
  });

  test('429 is retried with Retry-After and gives exit 7 when retries run out', async () => {
    stub.on('GET', '/v1/integrations/active', { status: 429, headers: { 'retry-after': '0' }, body: errorBody(429, 'API rate limit exceeded') });
    const r = await runSvc(['integrations', 'active', ...fast], { env });
    expect(r.code).toBe(7);
    expect(stub.requests).toHaveLength(3);
    expect(r.stderr).toContain('API rate limit exceeded');
  });

  test('a Retry-After longer than svc waits is not retried early into another 429: exit 7 at once, saying how long', async () => {
    // svc waits at most 60 s between attempts; retrying after 60 s of a 120 s window only meets the same refusal.
    stub.on('GET', '/v1/integrations/active', { status: 429, headers: { 'retry-after': '120' }, body: errorBody(429, 'API rate limit exceeded') });
    const started = Date.now();
    const r = await runSvc(['integrations', 'active', ...fast], { env });
    expect(r.code).toBe(7);
    expect(stub.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.stderr).toContain('the service asks to wait 2m');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  test.each([500, 502, 503, 504])('%i is retried and gives exit 1 when retries run out', async (status) => {
    stub.on('GET', '/v1/integrations/active', { status, body: errorBody(status, 'boom', { errorId: 'err-42' }) });
    const r = await runSvc(['integrations', 'active', '--retries', '1'], { env });
    expect(r.code).toBe(1);
    expect(stub.requests).toHaveLength(2);
    expect(r.stderr).toContain('request id err-42');
  });

  test('a refused connection gives exit 4 after retries', async () => {
    const url = stub.url;
    await stub.close();
    const r = await runSvc(['integrations', 'active', '--retries', '1'], { env: { ...env, SVC_BASE_URL: url } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/could not reach 127\.0\.0\.1:\d+: connection refused \(2 attempts\)/);
  });

  test('a timeout per attempt gives exit 4 and says so', async () => {
    stub.on('GET', '/v1/integrations/active', { delayMs: 1000, body: { data: [] } });
    const r = await runSvc(['integrations', 'active', '--timeout', '150ms', '--retries', '1'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no answer from');
    expect(r.stderr).toContain('within 150ms');
    expect(stub.requests).toHaveLength(2);
  });

  test('no API key from any source: exit 3 naming the ways to get one, nothing sent', async () => {
    const r = await runSvc(['integrations', 'active'], { env: { SVC_BASE_URL: stub.url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('svc login');
    expect(r.stderr).toContain('svc dev');
    expect(stub.requests).toHaveLength(0);
  });
});

describe('retries of state changes', () => {
  test('a POST retried after a dropped connection and a 503 carries the same idempotency key', async () => {
    stub.on('POST', '/v2/contexts', (_req, n) =>
      n === 1
        ? { drop: true }
        : n === 2
          ? { status: 503, body: errorBody(503, 'busy') }
          : { status: 201, body: { data: { type: 't', id: 'i', data: {}, createdAt: 'x', updatedAt: 'x' } } },
    );
    const r = await runSvc(['contexts', 'create', 't', 'i', '--retries', '3'], { env });
    expect(r.code).toBe(0);
    expect(stub.requests).toHaveLength(3);
    const keys = stub.requests.map((q) => q.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
  });

  test('a 409 "still in progress" with Retry-After is retried; a plain 409 is not', async () => {
    stub.on('POST', '/v2/contexts', (_req, n) =>
      n === 1
        ? { status: 409, headers: { 'retry-after': '0' }, body: errorBody(409, 'in progress') }
        : { status: 201, body: { data: { type: 't', id: 'i', data: {}, createdAt: 'x', updatedAt: 'x' } } },
    );
    expect((await runSvc(['contexts', 'create', 't', 'i'], { env })).code).toBe(0);
    expect(stub.requests).toHaveLength(2);
  });

  test('GET requests carry no idempotency key', async () => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
    await runSvc(['integrations', 'active'], { env });
    expect(stub.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  test('a truncated JSON body is retried', async () => {
    stub.on('GET', '/v1/integrations/active', (_r, n) => (n === 1 ? { body: '{"data": [' } : { body: { data: [] } }));
    const r = await runSvc(['integrations', 'active'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('[]');
    expect(stub.requests).toHaveLength(2);
  });
});

describe('answers', () => {
  test('an answer that does not match the schema is printed in full with a warning', async () => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [{ name: 'x', extra: { kept: true } }] } });
    const r = await runSvc(['integrations', 'active'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ name: 'x', extra: { kept: true } }]);
    expect(r.stderr).toMatch(
      /^warning: the answer to GET \/v1\/integrations\/active does not match the documented shape \(\[0\]\._environmentId: is required\)/,
    );
  });

  test('--debug traces each attempt with the key masked', async () => {
    stub.on('GET', '/v1/integrations/active', (_r, n) => (n === 1 ? { status: 502, body: errorBody(502, 'bad gateway') } : { body: { data: [] } }));
    const r = await runSvc(['integrations', 'active', '--debug'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(attempt 1/4)');
    expect(r.stderr).toContain('(attempt 2/4)');
    expect(r.stderr).toContain('< 502');
    expect(r.stderr).toContain('> authorization: ApiKey sk_…cdef');
    expect(r.stderr).not.toContain(KEY);
  });

  test('--debug masks tokens and personal data in bodies, the key everywhere', async () => {
    stub.on('POST', '/v1/channel-connections', { status: 201, body: { data: { identifier: 'c1', auth: { accessToken: 'xoxb-secret-token-9999' } } } });
    stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 't' } } });
    const c = await runSvc(
      ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--access-token-stdin', '--debug'],
      { env, stdin: 'xoxb-secret-token-9999' },
    );
    expect(c.code).toBe(0);
    expect(c.stderr).toContain('"integrationIdentifier":"slack"');
    const t = await runSvc(
      [
        'trigger',
        'w',
        '--to-json',
        '{"subscriberId":"u1","email":"ada@example.com","phone":"+15551234567","channels":[{"providerId":"chat-webhook","credentials":{"webhookUrl":"https://hooks.example/abc"}}]}',
        '--debug',
      ],
      { env },
    );
    expect(t.code).toBe(0);
    const all = c.stdout + c.stderr + t.stdout + t.stderr;
    for (const secret of [KEY, 'xoxb-secret-token-9999', 'ada@example.com', '+15551234567', 'https://hooks.example/abc']) {
      expect(all).not.toContain(secret);
    }
    expect(t.stderr).toContain('"subscriberId":"u1"');
  });
});

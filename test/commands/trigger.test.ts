import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;

beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
});
afterEach(async () => {
  await stub.close();
});

const processed = { data: { acknowledged: true, status: 'processed', transactionId: 'txn-1' } };

describe('svc trigger', () => {
  test('sends the workflow, recipients, payload and --set fields with auth, idempotency key and user agent', async () => {
    stub.on('POST', '/v1/events/trigger', { status: 201, body: processed });
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'data.json'), JSON.stringify({ user: { name: 'Ada' }, n: 1 }));
    const r = await runSvc(
      [
        'trigger',
        'welcome',
        '--to',
        'user-1',
        '--to',
        'user-2',
        '--payload',
        '@data.json',
        '--set',
        'user.plan=pro',
        '--set',
        'n:=2',
        '--transaction-id',
        't-9',
      ],
      { env, cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    stub.assertAllUsed();
    const req = stub.requests[0]!;
    expect(req.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect(req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(req.headers['user-agent']).toMatch(/^svc\/\d+\.\d+\.\d+ /);
    expect(req.body).toEqual({ name: 'welcome', to: ['user-1', 'user-2'], payload: { user: { name: 'Ada', plan: 'pro' }, n: 2 }, transactionId: 't-9' });
    expect(JSON.parse(r.stdout)).toEqual(processed.data);
  });

  test('--to-json, --actor JSON, --tenant id and --context entries build the body', async () => {
    stub.on('POST', '/v1/events/trigger', { status: 201, body: processed });
    const r = await runSvc(
      [
        'trigger',
        'otp',
        '--to-json',
        '[{"subscriberId":"u1","phone":"+15551234567"},{"type":"Topic","topicKey":"ops"}]',
        '--actor',
        '{"subscriberId":"boss"}',
        '--tenant',
        'acme',
        '--context',
        'tenant=acme',
        '--context',
        'app:web',
      ],
      { env },
    );
    expect(r.code).toBe(0);
    expect(stub.requests[0]!.body).toEqual({
      name: 'otp',
      to: [
        { subscriberId: 'u1', phone: '+15551234567' },
        { type: 'Topic', topicKey: 'ops' },
      ],
      actor: { subscriberId: 'boss' },
      tenant: 'acme',
      context: { tenant: 'acme', app: 'web' },
    });
  });

  test('a trigger that is not processed prints the answer and exits 1', async () => {
    stub.on('POST', '/v1/events/trigger', {
      status: 201,
      body: { data: { acknowledged: true, status: 'trigger_not_active', error: ['workflow is inactive'] } },
    });
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).status).toBe('trigger_not_active');
    expect(r.stderr).toContain('trigger was not processed: trigger_not_active: workflow is inactive');
  });

  test.each([
    [['trigger', 'welcome'], 'missing recipients'],
    [['trigger', 'welcome', '--to', 'u1', '--payload', '{"a":}'], '--payload: invalid JSON at line 1, column 6'],
    [['trigger', 'welcome', '--to', 'u1', '--payload', '[1]'], '--payload: expected a JSON object'],
    [['trigger', 'welcome', '--to', 'u1', '--payload', '@missing.json'], '--payload: cannot read missing.json: no such file'],
    [['trigger', 'welcome', '--to', 'u1', '--set', 'novalue'], '--set: expected key=value'],
    [['trigger', 'welcome', '--to', 'u1', '--context', 'bad context=x'], '--context: context type'],
    [['trigger', 'welcome', '--to-json', '{"firstName":"x"}'], '--to/--to-json recipient'],
    [['trigger', 'welcome', ...Array.from({ length: 101 }, (_, i) => ['--to', `u${i}`]).flat()], 'at most 100 recipients'],
    [['trigger', 'welcome', '--to', 'u1', '--bogus'], "unknown option '--bogus'"],
    [['trigger', 'welcome', '--to', 'u1', '--timeout', 'soon'], "option '--timeout <duration>' argument 'soon' is invalid"],
  ])('bad input %#: exit 2, names the problem, sends nothing', async (argv, message) => {
    const r = await runSvc(argv as string[], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(stub.requests).toHaveLength(0);
  });

  test('--dry-run prints the request with the key masked and sends nothing', async () => {
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--dry-run', '--idempotency-key', 'k-1'], { env });
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ method: 'POST', url: `${stub.url}/v1/events/trigger`, body: { name: 'welcome', to: ['u1'] } });
    expect(printed.headers['idempotency-key']).toBe('k-1');
    expect(r.stdout).not.toContain(KEY);
    expect(printed.headers.authorization).toBe('ApiKey sk_…cdef');
    expect(stub.requests).toHaveLength(0);
  });

  test('--dry-run validates the credentials too: no key is exit 3, nothing printed or sent', async () => {
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--dry-run'], { env: { SVC_BASE_URL: stub.url } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: no API key: run `svc login`/);
    expect(stub.requests).toHaveLength(0);
  });

  test('an empty list in a table says so on stderr; stdout carries only data', async () => {
    stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, page: 0, pageSize: 10 } });
    const r = await runSvc(['events', 'list', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('(no results)');
  });
});

describe('recipients and files', () => {
  test('--to ada,grace is two recipients, as at the prompt, not one subscriber named "ada,grace"', async () => {
    stub.on('POST', '/v1/events/trigger', { status: 201, body: processed });
    const r = await runSvc(['trigger', 'welcome', '--to', 'ada,grace', '--to', 'linus'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((stub.requests[0]!.body as { to: unknown }).to).toEqual(['ada', 'grace', 'linus']);
  });

  test.each(['--report', '--journal'])('%s in a folder that does not exist: exit 2 before anything is read or sent', async (flag) => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'users.csv'), 'subscriberId\nu1\n');
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', flag, 'no/such/folder/out.ndjson'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${flag}: the folder ${join(dir, 'no/such/folder')} does not exist; create it or choose another path\n`);
    expect(stub.requests).toHaveLength(0);
  });

  test('a control character in --to is refused', async () => {
    const r = await runSvc(['trigger', 'wf', '--to', 'a\u0000b'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to: must not contain control characters');
    expect(stub.requests).toHaveLength(0);
  });
});

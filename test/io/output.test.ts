// Output formats, --fields, --query, secret masking, the event timeline and --all streaming.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
});
afterEach(async () => stub.close());

const integration = (i: number, extra: Record<string, unknown> = {}) => ({
  _id: `6761f0c2a3b4c5d6e7f8091${i}`,
  _environmentId: 'env',
  _organizationId: 'org',
  name: `Mail ${i}`,
  identifier: `mail-${i}`,
  providerId: 'sendgrid',
  channel: 'email',
  active: true,
  deleted: false,
  primary: i === 1,
  ...extra,
});

describe('formats', () => {
  beforeEach(() => {
    stub.on('GET', '/v1/integrations/active', { body: { data: [integration(1), integration(2)] } });
  });
  test('json (the default when piped) prints the records as returned', async () => {
    const r = await runSvc(['integrations', 'active'], { env });
    expect(JSON.parse(r.stdout)).toEqual([integration(1), integration(2)]);
  });
  test('ndjson prints one record per line', async () => {
    const r = await runSvc(['integrations', 'active', '-o', 'ndjson'], { env });
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).identifier)).toEqual(['mail-1', 'mail-2']);
  });
  test('yaml', async () => {
    const r = await runSvc(['integrations', 'active', '-o', 'yaml'], { env });
    expect(parseYaml(r.stdout)[1].identifier).toBe('mail-2');
  });
  test('table on a terminal, with columns and no JSON', async () => {
    const r = await runSvc(['integrations', 'active'], { env, tty: true });
    expect(r.stdout).toMatch(/IDENTIFIER\s+NAME\s+CHANNEL\s+PROVIDER\s+PRIMARY\s+ACTIVE/);
    expect(r.stdout).toMatch(/mail-1\s+Mail 1\s+email\s+sendgrid\s+true/);
  });
  test('--fields keeps dot paths in json and picks the columns of a table', async () => {
    const j = await runSvc(['integrations', 'active', '--fields', 'identifier,primary'], { env });
    expect(JSON.parse(j.stdout)).toEqual([
      { identifier: 'mail-1', primary: true },
      { identifier: 'mail-2', primary: false },
    ]);
    const t = await runSvc(['integrations', 'active', '--fields', 'identifier,providerId'], { env, tty: true });
    expect(t.stdout.split('\n')[0]).toMatch(/^IDENTIFIER\s+PROVIDERID$/);
  });
  test('--query applies JMESPath and implies json', async () => {
    const r = await runSvc(['integrations', 'active', '--query', '[?primary].identifier'], { env, tty: true });
    expect(JSON.parse(r.stdout)).toEqual(['mail-1']);
  });
});

test('a bad --query expression is a usage error, and nothing is sent', async () => {
  const r = await runSvc(['integrations', 'active', '--query', '[?'], { env });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--query: invalid JMESPath expression');
  expect(stub.requests).toHaveLength(0);
});

test('a --query that parses but fails on the answer is not exit 2 (the request was sent): exit 1, saying so', async () => {
  stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
  const r = await runSvc(['integrations', 'active', '--query', 'abs(@)'], { env });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('--query: evaluating it on the result failed');
  expect(r.stderr).toContain('the command ran (what it sends was sent)');
  expect(stub.requests).toHaveLength(1);
});

describe('secrets the service returns', () => {
  const connection = {
    identifier: 'chconn_abc',
    channel: 'chat',
    providerId: 'slack',
    integrationIdentifier: 'slack',
    subscriberId: 'u1',
    contextKeys: [],
    workspace: { id: 'T1' },
    auth: { accessToken: 'xoxb-very-secret-token-123' },
    createdAt: 'x',
    updatedAt: 'x',
  };
  test.each(['json', 'ndjson', 'yaml', 'table'])('are masked in %s unless --show-secrets', async (format) => {
    stub.on('GET', '/v1/channel-connections/chconn_abc', { body: { data: connection } });
    stub.on('GET', '/v1/integrations/active', { body: { data: [integration(1, { credentials: { apiKey: 'SG.secret-sendgrid-key', from: 'a@b.c' } })] } });
    const c = await runSvc(['connections', 'get', 'chconn_abc', '-o', format], { env });
    expect(c.stdout).not.toContain('xoxb-very-secret-token-123');
    expect(c.stdout).toContain('-123');
    const i = await runSvc(['integrations', 'active', '-o', format, '--fields', 'identifier,credentials.apiKey'], { env });
    expect(i.stdout).not.toContain('SG.secret-sendgrid-key');
    const shown = await runSvc(['connections', 'get', 'chconn_abc', '-o', format, '--show-secrets'], { env });
    expect(shown.stdout).toContain('xoxb-very-secret-token-123');
  });
});
describe('lists', () => {
  const page = (n: number, hasMore: boolean) => ({
    page: n,
    hasMore,
    pageSize: 2,
    data: [0, 1].map((i) => ({
      _id: `6761f0c2a3b4c5d6e7f8${n}${i}00`,
      transactionId: `t-${n}-${i}`,
      _environmentId: 'e',
      _organizationId: 'o',
      _subscriberId: 's',
    })),
  });
  test('an empty list is [] and exit 0', async () => {
    stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, page: 0, pageSize: 10 } });
    const r = await runSvc(['events', 'list'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
  test('the paging state goes to stderr, the records to stdout', async () => {
    stub.on('GET', '/v1/notifications', { body: page(0, true) });
    const r = await runSvc(['events', 'list', '--limit', '2'], { env });
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(r.stderr).toContain('more: --page 1');
    const api = await runSvc(['api', 'GET', '/v1/notifications', '-f', 'limit=2'], { env });
    expect(JSON.parse(api.stdout)).toHaveLength(2);
    expect(api.stderr).toContain('more: -f page=1');
  });
  test('--fields naming envelope members prints the envelope', async () => {
    stub.on('GET', '/v2/subscribers', { body: { data: [], next: 'abc', previous: null, totalCount: 7, totalCountCapped: false } });
    const r = await runSvc(['subscribers', 'search', '--fields', 'next,totalCount'], { env });
    expect(JSON.parse(r.stdout)).toEqual({ next: 'abc', totalCount: 7 });
  });
  test('--all follows pages and streams one valid JSON array', async () => {
    stub.on('GET', '/v1/notifications', (req) => {
      const n = Number(req.query.get('page') ?? 0);
      return { body: page(n, n < 2) };
    });
    const r = await runSvc(['events', 'list', '--all'], { env });
    expect(r.code).toBe(0);
    const records = JSON.parse(r.stdout);
    expect(records.map((x: { transactionId: string }) => x.transactionId)).toEqual(['t-0-0', 't-0-1', 't-1-0', 't-1-1', 't-2-0', 't-2-1']);
    expect(stub.requests.map((q) => q.query.get('limit'))).toEqual(['50', '50', '50']);
  });
  test('--all -o table prints one table: a header once, the same columns on every page', async () => {
    stub.on('GET', '/v1/notifications', (req) => {
      const n = Number(req.query.get('page') ?? 0);
      return { body: page(n, n < 2) };
    });
    const r = await runSvc(['events', 'list', '--all', '-o', 'table'], { env, tty: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('ID '))).toHaveLength(1);
    expect(lines).toHaveLength(7);
    const column = (l: string) => l.indexOf('t-');
    expect(new Set(lines.slice(1).map(column)).size).toBe(1);
  });
  test('--query with --all applies to the whole result, not to each record', async () => {
    stub.on('GET', '/v1/notifications', (req) => {
      const n = Number(req.query.get('page') ?? 0);
      return { body: page(n, n < 2) };
    });
    const ids = await runSvc(['events', 'list', '--all', '--query', '[].transactionId'], { env });
    expect(ids.code, ids.stderr).toBe(0);
    expect(JSON.parse(ids.stdout)).toEqual(['t-0-0', 't-0-1', 't-1-0', 't-1-1', 't-2-0', 't-2-1']);
    const count = await runSvc(['events', 'list', '--all', '--query', 'length(@)'], { env });
    expect(JSON.parse(count.stdout)).toBe(6);
    const filtered = await runSvc(['events', 'list', '--all', '--query', "[?transactionId=='t-1-1'].transactionId", '-o', 'ndjson'], { env });
    expect(filtered.stdout).toBe('"t-1-1"\n');
  });
  test('Ctrl-C during --all leaves a valid JSON array and says where to continue', async () => {
    stub.on('GET', '/v1/notifications', (req) => ({ delayMs: 30, body: page(Number(req.query.get('page') ?? 0), true) }));
    const controller = new AbortController();
    const running = runSvc(['events', 'list', '--all'], { env, signal: controller.signal });
    while (stub.requests.length < 3) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const r = await running;
    expect(r.code).toBe(130);
    const records = JSON.parse(r.stdout);
    expect(records.length).toBeGreaterThanOrEqual(4);
    expect(r.stderr).toMatch(/interrupted after \d+ records/);
    expect(r.stderr).toMatch(/^error: interrupted after \d+ records; to continue, run the same command with --page \d+$/m);
  });

  test('--all follows cursors with ndjson', async () => {
    const sub = (id: string) => ({ subscriberId: id, _id: id });
    stub.on('GET', '/v2/subscribers', (req) => {
      const after = req.query.get('after');
      if (!after) return { body: { data: [sub('a'), sub('b')], next: 'b', previous: null, totalCount: 3, totalCountCapped: false } };
      return { body: { data: [sub('c')], next: null, previous: 'c', totalCount: 3, totalCountCapped: false } };
    });
    const r = await runSvc(['subscribers', 'search', '--all', '-o', 'ndjson'], { env });
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).subscriberId),
    ).toEqual(['a', 'b', 'c']);
    expect(stub.requests[1]!.query.get('after')).toBe('b');
  });
});

describe('--fields through arrays', () => {
  const workflow = {
    _id: '6761f0c2a3b4c5d6e7f80999',
    workflowId: 'welcome',
    name: 'Welcome',
    status: 'ACTIVE',
    active: true,
    steps: [
      { stepId: 'in-app', type: 'in_app', name: 'Inbox' },
      { stepId: 'email', type: 'email', name: 'Mail' },
    ],
  };
  test.each([
    [['-o', 'json'], false],
    [['-o', 'table'], true],
  ])('steps.stepId picks each step in %j', async (flags, tty) => {
    stub.on('GET', '/v2/workflows/welcome', { body: { data: workflow } });
    const r = await runSvc(['workflow', 'get', 'welcome', '--fields', 'workflowId,steps.stepId', ...flags], { env, tty });
    expect(r.code, r.stderr).toBe(0);
    if (tty) {
      expect(r.stdout).toMatch(/steps\.stepId\s+in-app, email/);
      expect(r.stdout).toMatch(/workflowId\s+welcome/);
    } else expect(JSON.parse(r.stdout)).toEqual({ workflowId: 'welcome', steps: [{ stepId: 'in-app' }, { stepId: 'email' }] });
  });

  test('a list table shows the array path as a column', async () => {
    const ev = (id: string, statuses: string[]) => ({ _id: id, transactionId: 't', jobs: statuses.map((status) => ({ status, type: 'in_app' })) });
    stub.on('GET', '/v1/notifications', { body: { data: [ev('6761f0c2a3b4c5d6e7f80901', ['completed', 'failed'])], hasMore: false, page: 0, pageSize: 10 } });
    const r = await runSvc(['events', 'list', '--fields', '_id,jobs.status', '-o', 'table'], { env, tty: true });
    expect(r.stdout).toMatch(/6761f0c2a3b4c5d6e7f80901\s+completed, failed/);
  });
});

test('a stream with a query per record (events watch) in a table shows each result, not raw records or JSON', async () => {
  const ev = { _id: '6761f0c2a3b4c5d6e7f80931', createdAt: '2026-11-22T10:00:01.000Z', transactionId: 't-q', subscriber: { subscriberId: 'u9' }, jobs: [] };
  stub.on('GET', '/v1/notifications', { body: { data: [ev], hasMore: false, page: 0, pageSize: 50 } });
  const controller = new AbortController();
  const running = runSvc(['events', 'watch', '--interval', '10ms', '--since', '2026-11-22T09:00:00Z', '-o', 'table', '--query', '{tx: transactionId}'], {
    env,
    signal: controller.signal,
  });
  while (stub.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  const r = await running;
  expect(r.code).toBe(130);
  expect(r.stdout).toMatch(/^tx\s+t-q$/m);
  expect(r.stdout).not.toContain('[');
});

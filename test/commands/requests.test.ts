// Each command sends the request the spec describes: method, path, query (arrays as repeated keys)
// and body. Table-driven: one row per command.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
const ID = '6761f0c2a3b4c5d6e7f80912';
const ID2 = '6761f0c2a3b4c5d6e7f80913';
let stub: Stub;
let env: Record<string, string>;

beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
});
afterEach(async () => stub.close());

const cursorPage = { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };
const activityPage = { data: [], hasMore: false, pageSize: 10, page: 0 };

interface Row {
  argv: string[];
  method: string;
  path: string;
  query?: Record<string, string[]>;
  body?: unknown;
  answer?: unknown;
  status?: number;
  stdin?: string;
}

const rows: [string, Row][] = [
  ['events list with every filter', {
    argv: ['events', 'list', '--channel', 'email', '--channel', 'sms,push', '--workflow', ID2, '--email', 'a@x.io', '--subscriber', 'u1', '--subscriber', 'u2', '--severity', 'high', '--transaction-id', 't1', '--topic-key', 'ops', '--subscription-id', 's1', '--context', 'tenant:acme', '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-02T00:00:00Z', '--page', '2', '--limit', '50'],
    method: 'GET', path: '/v1/notifications',
    query: { channels: ['email', 'sms', 'push'], templates: [ID2], emails: ['a@x.io'], subscriberIds: ['u1', 'u2'], severity: ['high'], transactionId: ['t1'], topicKey: ['ops'], subscriptionId: ['s1'], contextKeys: ['tenant:acme'], after: ['2026-11-01T00:00:00.000Z'], before: ['2026-11-02T00:00:00.000Z'], page: ['2'], limit: ['50'] },
    answer: activityPage,
  }],
  ['events get', { argv: ['events', 'get', ID], method: 'GET', path: `/v1/notifications/${ID}`, answer: { data: { _id: ID, transactionId: 't', _environmentId: 'e', _organizationId: 'o', _subscriberId: 's', jobs: [] } } }],
  ['subscribers search', {
    argv: ['subscribers', 'search', '--email', 'ada@', '--name', 'Ada L', '--phone', '+1', '--subscriber-id', 'u1', '--limit', '5', '--after', 'c1', '--order-by', 'updatedAt', '--order-direction', 'ASC', '--include-cursor'],
    method: 'GET', path: '/v2/subscribers',
    query: { email: ['ada@'], name: ['Ada L'], phone: ['+1'], subscriberId: ['u1'], limit: ['5'], after: ['c1'], orderBy: ['updatedAt'], orderDirection: ['ASC'], includeCursor: ['true'] },
    answer: cursorPage,
  }],
  ['subscribers online false', { argv: ['subscribers', 'online', 'user 1', 'false'], method: 'PATCH', path: '/v1/subscribers/user%201/online-status', body: { isOnline: false }, answer: { data: { subscriberId: 'user 1' } } }],
  ['integrations active', { argv: ['integrations', 'active'], method: 'GET', path: '/v1/integrations/active', answer: { data: [] } }],
  ['integrations primary', { argv: ['integrations', 'primary', ID], method: 'POST', path: `/v1/integrations/${ID}/set-primary`, answer: { data: { _id: ID } } }],
  ['contexts create', { argv: ['contexts', 'create', 'tenant', 'acme', '--data', '{"plan":"pro"}'], method: 'POST', path: '/v2/contexts', status: 201, body: { type: 'tenant', id: 'acme', data: { plan: 'pro' } }, answer: { data: { type: 'tenant', id: 'acme', data: { plan: 'pro' }, createdAt: 'x', updatedAt: 'x' } } }],
  ['connections create (subscriber mode, token on stdin)', {
    argv: ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--workspace-name', 'Acme', '--subscriber', 'u1', '--access-token-stdin', '--identifier', 'c-1'],
    stdin: 'xoxb-secret-token\n',
    method: 'POST', path: '/v1/channel-connections', status: 201,
    body: { integrationIdentifier: 'slack', workspace: { id: 'T1', name: 'Acme' }, auth: { accessToken: 'xoxb-secret-token' }, subscriberId: 'u1', identifier: 'c-1' },
    answer: { data: { identifier: 'c-1' } },
  }],
  ['connections create (shared mode)', {
    argv: ['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--mode', 'shared', '--context', 'tenant=acme', '--access-token', 'tok-123456789012'],
    method: 'POST', path: '/v1/channel-connections', status: 201,
    body: { integrationIdentifier: 'slack', workspace: { id: 'T1' }, auth: { accessToken: 'tok-123456789012' }, connectionMode: 'shared', context: { tenant: 'acme' } },
    answer: { data: { identifier: 'c-2' } },
  }],
  ['connections update', { argv: ['connections', 'update', 'chconn_1', '--workspace-id', 'T2', '--access-token', 'tok-abcdefghijkl'], method: 'PATCH', path: '/v1/channel-connections/chconn_1', body: { workspace: { id: 'T2' }, auth: { accessToken: 'tok-abcdefghijkl' } }, answer: { data: { identifier: 'chconn_1' } } }],
  ['connections get', { argv: ['connections', 'get', 'chconn_1'], method: 'GET', path: '/v1/channel-connections/chconn_1', answer: { data: { identifier: 'chconn_1' } } }],
  ['connections list', { argv: ['connections', 'list', '--subscriber', 'u1', '--limit', '100'], method: 'GET', path: '/v1/channel-connections', query: { subscriberId: ['u1'], limit: ['100'] }, answer: cursorPage }],
  ['connections delete', { argv: ['connections', 'delete', 'chconn_1'], method: 'DELETE', path: '/v1/channel-connections/chconn_1', status: 204 }],
  ['endpoints list', {
    argv: ['endpoints', 'list', '--subscriber', 'u1', '--context', 'tenant:acme', '--context', 'app=web', '--channel', 'chat', '--provider', 'slack', '--integration', 'slack-1', '--connection', 'chconn_1', '--limit', '100', '--before', 'x'],
    method: 'GET', path: '/v1/channel-endpoints',
    query: { subscriberId: ['u1'], contextKeys: ['tenant:acme', 'app:web'], channel: ['chat'], providerId: ['slack'], integrationIdentifier: ['slack-1'], connectionIdentifier: ['chconn_1'], limit: ['100'], before: ['x'] },
    answer: cursorPage,
  }],
  ['endpoints create', {
    argv: ['endpoints', 'create', '--subscriber', 'u1', '--integration', 'twilio', '--type', 'phone', '--endpoint', '{"phoneNumber":"+15551234567"}'],
    method: 'POST', path: '/v1/channel-endpoints', status: 201,
    body: { subscriberId: 'u1', integrationIdentifier: 'twilio', type: 'phone', endpoint: { phoneNumber: '+15551234567' } },
    answer: { data: { identifier: 'chendp_1' } },
  }],
  ['workflow get', { argv: ['workflow', 'get', 'welcome', '--environment-id', 'env1'], method: 'GET', path: '/v2/workflows/welcome', query: { environmentId: ['env1'] }, answer: { data: { workflowId: 'welcome', steps: [] } } }],
  ['workflow preview', {
    argv: ['workflow', 'preview', 'welcome', 'in-app', '--set', 'name=Ada', '--subscriber', '{"firstName":"Ada"}', '--controls', '{"body":"Hi"}', '--context', 'tenant=acme'],
    method: 'POST', path: '/v2/workflows/welcome/step/in-app/preview', status: 201,
    body: { previewPayload: { payload: { name: 'Ada' }, subscriber: { firstName: 'Ada' }, context: { tenant: 'acme' } }, controlValues: { body: 'Hi' } },
    answer: { data: { previewPayloadExample: {}, result: { type: 'in_app', preview: { body: 'Hi' } } } },
  }],
  ['messages mark-as one id', { argv: ['messages', 'mark-as', 'u1', 'read', ID], method: 'POST', path: '/v1/subscribers/u1/messages/mark-as', status: 201, body: { messageId: ID, markAs: 'read' }, answer: { data: [] } }],
  ['messages mark-as several ids', { argv: ['messages', 'mark-as', 'u1', 'unseen', ID, ID2], method: 'POST', path: '/v1/subscribers/u1/messages/mark-as', status: 201, body: { messageId: [ID, ID2], markAs: 'unseen' }, answer: { data: [] } }],
  ['messages list', { argv: ['messages', 'list', '--subscriber', 'u1', '--channel', 'in_app', '--transaction-id', 't1', '--page', '1', '--limit', '20'], method: 'GET', path: '/v1/messages', query: { subscriberId: ['u1'], channel: ['in_app'], transactionId: ['t1'], page: ['1'], limit: ['20'] }, answer: activityPage }],
  ['api GET with -f query fields', { argv: ['api', 'GET', '/v1/notifications?page=1', '-f', 'channels=email', '-f', 'channels=sms'], method: 'GET', path: '/v1/notifications', query: { page: ['1'], channels: ['email', 'sms'] }, answer: activityPage }],
  ['api POST with --data and -f', { argv: ['api', 'post', '/v2/contexts', '--data', '{"type":"tenant"}', '-f', 'id=acme', '-f', 'data.n:=1'], method: 'POST', path: '/v2/contexts', status: 201, body: { type: 'tenant', id: 'acme', data: { n: 1 } }, answer: { data: { type: 'tenant' } } }],
];

describe('request shapes', () => {
  test.each(rows)('%s', async (_name, row) => {
    stub.on(row.method, row.path, { status: row.status ?? 200, ...(row.answer !== undefined ? { body: row.answer } : {}) });
    const r = await runSvc(row.argv, { env, ...(row.stdin !== undefined ? { stdin: row.stdin } : {}) });
    expect(r.stderr.replace(/^.*records?.*\n/gm, '').replace(/^warning: .*\n/gm, '').replace(/^deleted .*\n/gm, '')).toBe('');
    expect(r.code).toBe(0);
    stub.assertAllUsed();
    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0]!;
    expect(req.method).toBe(row.method);
    const query: Record<string, string[]> = {};
    for (const k of new Set(req.query.keys())) query[k] = req.query.getAll(k);
    expect(query).toEqual(row.query ?? {});
    expect(req.body).toEqual(row.body);
    expect(req.headers.authorization).toBe(`ApiKey ${KEY}`);
  });
});

describe('events filters', () => {
  test('--workflow takes an identifier and looks up its id', async () => {
    stub.on('GET', '/v2/workflows/welcome', { body: { data: { _id: ID, workflowId: 'welcome' } } });
    stub.on('GET', '/v1/notifications', { body: activityPage });
    const r = await runSvc(['events', 'list', '--workflow', 'welcome', '--workflow', ID2], { env });
    expect(r.code).toBe(0);
    stub.assertAllUsed();
    expect(stub.requests[1]!.query.getAll('templates')).toEqual([ID, ID2]);
  });
});

describe('bad input never reaches the service', () => {
  test.each([
    [['events', 'list', '--limit', '51'], "--limit <n>' argument '51' is invalid"],
    [['events', 'list', '--page', '-1'], "--page <n>' argument '-1' is invalid"],
    [['events', 'list', '--channel', 'fax'], "--channel <channel>' argument 'fax' is invalid"],
    [['events', 'list', '--severity', 'urgent'], 'Expected one of: high, medium, low, none'],
    [['events', 'list', '--since', 'yesterday'], '--since: expected an ISO 8601 time'],
    [['events', 'list', '--context', 'tenant'], '--context: expected TYPE=ID'],
    [['events', 'get', 'abc'], 'NOTIFICATION_ID: expected a 24-character hexadecimal id'],
    [['subscribers', 'search', '--after', 'a', '--before', 'b'], '--after and --before cannot be used together'],
    [['subscribers', 'search', '--limit', '0'], "--limit <n>' argument '0' is invalid"],
    [['subscribers', 'online', 'u1', 'maybe'], "value 'maybe' is invalid for argument 'online'. Expected true or false"],
    [['contexts', 'create', 'ten ant', 'acme'], 'TYPE: must contain only letters, digits'],
    [['contexts', 'create', 'tenant', 'x'.repeat(101)], 'ID: must be at most 100 characters'],
    [['contexts', 'create', 'tenant', 'acme', '--data', '{"a":1,}'], '--data: invalid JSON at line 1, column 8'],
    [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--access-token', 't'], 'missing --subscriber'],
    [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--mode', 'shared', '--access-token', 't'], '--mode shared needs --context'],
    [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1'], 'missing access token'],
    [['connections', 'create', '--integration', 'slack', '--workspace-id', 'T1', '--subscriber', 'u1', '--mode', 'team', '--access-token', 't'], "--mode <mode>' argument 'team' is invalid"],
    [['endpoints', 'list', '--limit', '101'], "--limit <n>' argument '101' is invalid"],
    [['endpoints', 'list', '--provider', 'pigeon'], "--provider <id>' argument 'pigeon' is invalid"],
    [['endpoints', 'create', '--subscriber', 'u1', '--integration', 'i', '--type', 'phone', '--endpoint', '{"phoneNumber":"555"}'], '--endpoint phoneNumber: must be a phone number in E.164 format'],
    [['messages', 'mark-as', 'u1', 'read', 'not-an-id'], 'MESSAGE_ID: expected 24-character hexadecimal ids'],
    [['messages', 'mark-as', 'u1', 'archived', '6761f0c2a3b4c5d6e7f80912'], "value 'archived' is invalid for argument 'state'. Allowed choices are read, seen, unread, unseen"],
    [['messages', 'list', '--limit', '0'], "--limit <n>' argument '0' is invalid"],
    [['api', 'FETCH', '/v1/x'], "value 'FETCH' is invalid for argument 'method'. Expected one of: GET, POST, PUT, PATCH, DELETE"],
    [['api', 'GET', 'v1/x'], 'PATH: must start with "/"'],
    [['api', 'GET', '/v1/x', '--data', '{}'], '--data: GET requests have no body'],
    [['workflow', 'preview', 'wf', 'step', '--controls', '"text"'], '--controls: expected a JSON object, got a string'],
    [['workflow', 'create', '--data', '{"name":"x","steps":[]}'], '--data workflowId: is required'],
    [['--idempotency-key', 'k'.repeat(256), 'contexts', 'create', 'a', 'b'], "--idempotency-key <key>' argument"],
    [['--retries', '11', 'integrations', 'active'], "--retries <n>' argument '11' is invalid"],
    [['--output', 'xml', 'integrations', 'active'], "argument 'xml' is invalid"],
    [['trigger', 'wf', '--to', 'a\u0000b'], '--to: must not contain control characters'],
    [['--fields', ',', 'integrations', 'active'], "--fields <paths>' argument ',' is invalid"],
  ])('%j', async (argv, message) => {
    const r = await runSvc(argv as string[], { env });
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(stub.requests).toHaveLength(0);
  });
});

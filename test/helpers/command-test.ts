// What the tests of test/commands/<noun>/<verb>.test.ts share: a strict stub of the service per test
// (every request must be stubbed and every stub used), a test that a command sends the request the spec
// describes, and a test that bad input is refused before anything is sent.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runSvc } from './run.js';
import { startStub, type Stub } from './stub.js';

export const KEY = 'sk_test_0123456789abcdef';
export const ID = '6761f0c2a3b4c5d6e7f80912';
export const ID2 = '6761f0c2a3b4c5d6e7f80913';
export const cursorPage = { data: [], next: null, previous: null, totalCount: 0, totalCountCapped: false };
export const activityPage = { data: [], hasMore: false, pageSize: 10, page: 0 };

/** A workflow as GET /v2/workflows lists it. */
export const workflowRecord = (workflowId: string, i: number) => ({
  _id: `6761f0c2a3b4c5d6e7f8091${i}`,
  workflowId,
  slug: `${workflowId}_wf_${i}`,
  name: workflowId,
  status: 'ACTIVE',
  origin: 'svc-cloud',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  stepTypeOverviews: ['email'],
  steps: [{ slug: 'email', type: 'email' }],
});

export interface Service {
  stub: Stub;
  env: Record<string, string>;
}

/** A fresh strict stub for each test, and the environment pointing svc at it. */
export function stubbedService(): Service {
  const ctx = {} as Service;
  beforeEach(async () => {
    ctx.stub = await startStub();
    ctx.env = { SVC_API_KEY: KEY, SVC_BASE_URL: ctx.stub.url };
  });
  afterEach(async () => ctx.stub.close());
  return ctx;
}

export interface RequestCase {
  argv: string[];
  method: string;
  path: string;
  query?: Record<string, string[]>;
  body?: unknown;
  answer?: unknown;
  status?: number;
  stdin?: string;
}

/** One request, as the spec describes it: method, path, query (arrays as repeated keys), body, key. */
export function sendsRequest(svc: Service, cases: [string, RequestCase][]): void {
  test.each(cases)('sends the request: %s', async (_name, row) => {
    svc.stub.on(row.method, row.path, { status: row.status ?? 200, ...(row.answer !== undefined ? { body: row.answer } : {}) });
    const r = await runSvc(row.argv, { env: svc.env, ...(row.stdin !== undefined ? { stdin: row.stdin } : {}) });
    // Nothing on stderr but what the command says on success (a delete's confirmation): a warning,
    // such as an answer that does not match the documented shape, fails the test (its fixture is wrong).
    // A list's count line (`0 records of 0`, `page 0, 0 records · no more pages`) is its normal stderr.
    expect(r.stderr.replace(/^deleted .*\n/gm, '').replace(/^(page \d+, )?\d+ records?( of \d+)?( · no more pages)?\n/gm, '')).toBe('');
    expect(r.code).toBe(0);
    expect(svc.stub.requests).toHaveLength(1);
    const req = svc.stub.requests[0]!;
    expect(req.method).toBe(row.method);
    const query: Record<string, string[]> = {};
    for (const k of new Set(req.query.keys())) query[k] = req.query.getAll(k);
    expect(query).toEqual(row.query ?? {});
    expect(req.body).toEqual(row.body);
    expect(req.headers.authorization).toBe(`ApiKey ${KEY}`);
  });
}

/** Bad input: a one-line error naming what to fix, exit 2, nothing sent (the strict stub fails on any request). */
export function refusesInput(svc: Service, cases: [string[], string][]): void {
  test.each(cases)('refuses %j', async (argv, message) => {
    const r = await runSvc(argv, { env: svc.env });
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(svc.stub.requests).toHaveLength(0);
  });
}

// --- answers in the documented shapes ---------------------------------------------------------------
// The stub's answers are checked by the client like the service's: a fixture missing a required field
// prints a warning, which sendsRequest fails on. These build complete records; `over` sets what a test
// cares about. test/commands/fixtures.test.ts parses each with its schema.

const ORG = '6761f0c2a3b4c5d6e7f80001';
const ENV = '6761f0c2a3b4c5d6e7f80002';
const AT = '2026-11-22T10:00:00.000Z';
type Over = Record<string, unknown>;

export const fixture = {
  subscriber: (over: Over = {}) => ({
    _id: ID,
    subscriberId: 'user-1',
    _organizationId: ORG,
    _environmentId: ENV,
    deleted: false,
    createdAt: AT,
    updatedAt: AT,
    ...over,
  }),
  workflow: (over: Over = {}) => ({
    _id: ID,
    workflowId: 'welcome',
    slug: 'welcome_wf_1',
    name: 'Welcome',
    active: true,
    status: 'ACTIVE',
    origin: 'svc-cloud',
    severity: 'none',
    createdAt: AT,
    updatedAt: AT,
    preferences: { default: { all: { enabled: true, readOnly: false }, channels: {} } },
    steps: [],
    ...over,
  }),
  message: (_id: string, over: Over = {}) => ({
    _id,
    _environmentId: ENV,
    _organizationId: ORG,
    _notificationId: ID2,
    _subscriberId: ID,
    createdAt: AT,
    transactionId: 'txn-1',
    channel: 'in_app',
    read: true,
    seen: true,
    content: 'hi',
    cta: {},
    status: 'sent',
    ...over,
  }),
  integration: (over: Over = {}) => ({
    _id: ID,
    _environmentId: ENV,
    _organizationId: ORG,
    name: 'SendGrid',
    identifier: 'sendgrid',
    providerId: 'sendgrid',
    channel: 'email',
    active: true,
    deleted: false,
    primary: true,
    ...over,
  }),
  connection: (over: Over = {}) => ({
    identifier: 'chconn_1',
    channel: 'chat',
    providerId: 'slack',
    integrationIdentifier: 'slack',
    subscriberId: null,
    contextKeys: [],
    workspace: { id: 'T1' },
    auth: { accessToken: 'xoxb-fixture-token' },
    createdAt: AT,
    updatedAt: AT,
    ...over,
  }),
  endpoint: (over: Over = {}) => ({
    identifier: 'chendp_1',
    channel: 'chat',
    providerId: 'slack',
    integrationIdentifier: 'slack',
    connectionIdentifier: null,
    subscriberId: 'u1',
    contextKeys: [],
    type: 'slack_channel',
    endpoint: { channelId: 'C1' },
    createdAt: AT,
    updatedAt: AT,
    ...over,
  }),
};

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
    expect(
      r.stderr
        .replace(/^.*records?.*\n/gm, '')
        .replace(/^warning: .*\n/gm, '')
        .replace(/^deleted .*\n/gm, ''),
    ).toBe('');
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

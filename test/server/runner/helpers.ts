// Small helpers for the workflow-engine tests against an in-process service (manual clock): create a
// workflow, trigger it, and read back its notifications, jobs and messages.
import { expect } from 'vitest';
import { ManualClock } from '../../../src/server/clock.js';
import { createLocalService } from '../../../src/server/index.js';
import { TEST_KEY, type TestService } from '../../helpers/service.js';

export interface Step {
  name: string;
  type: string;
  stepId?: string;
  controlValues?: Record<string, unknown>;
  filters?: unknown[];
}

export async function createWorkflow(svc: TestService, workflowId: string, steps: Step[], extra: Record<string, unknown> = {}) {
  const r = await svc.request('POST', '/v2/workflows', { body: { name: workflowId, workflowId, active: true, steps, ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data;
}

let counter = 0;

/** Triggers and lets the runner finish what is due now; returns the transactionId. */
export async function trigger(svc: TestService, name: string, to: unknown, payload: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const transactionId = `tx-${name}-${++counter}`;
  const r = await svc.request('POST', '/v1/events/trigger', { body: { name, to, payload, transactionId, ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.data.status).toBe('processed');
  await svc.runner.idle();
  return transactionId;
}

/** Moves service time on and lets the runner run what came due. */
export async function advance(svc: TestService, ms: number) {
  svc.clock.advance(ms);
  await svc.runner.idle();
}

export async function events(svc: TestService, transactionId: string): Promise<any[]> {
  return (await svc.request('GET', `/v1/notifications?transactionId=${encodeURIComponent(transactionId)}&limit=50`)).body.data;
}

/** The single notification of a transaction. */
export async function event(svc: TestService, transactionId: string): Promise<any> {
  const list = await events(svc, transactionId);
  expect(list).toHaveLength(1);
  return list[0];
}

export const statuses = (n: any): string[] => n.jobs.map((j: any) => j.status);
export const details = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

export async function messages(svc: TestService, query: string): Promise<any[]> {
  return (await svc.request('GET', `/v1/messages?limit=100&${query}`)).body.data;
}

/** A service on a store file whose manual clock starts at `start`: reopen the file to "restart". */
export function fileService(file: string, start: number): TestService {
  const clock = new ManualClock(start);
  const svc = createLocalService({ data: file, apiKey: TEST_KEY, clock });
  const request: TestService['request'] = async (method, url, o = {}) => {
    const res = await svc.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `ApiKey ${TEST_KEY}`, ...(o.body !== undefined && { 'content-type': 'application/json' }) },
      ...(o.body !== undefined && { payload: JSON.stringify(o.body) }),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
  };
  return Object.assign(svc, { clock, request });
}

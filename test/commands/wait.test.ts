// svc trigger --wait: follows the activity of a stub whose jobs change between polls, and reports each recipient.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startStub, type Stub } from '../helpers/stub.js';
import { runSvc } from '../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
  stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 'txn-w' } } });
});
afterEach(async () => stub.close());

const job = (type: string, status: string, detail: string) => ({
  _id: `j-${type}`,
  type,
  status,
  providerId: type === 'email' ? 'sendgrid' : 'svc',
  step: { _id: 's', active: true, filters: [], _templateId: 't' },
  executionDetails: [{ _id: 'd', status: status === 'failed' ? 'Failed' : 'Success', detail, isRetry: false, isTest: false, source: 'Internal' }],
});
const notification = (sub: string, jobs: unknown[]) => ({
  _id: `6761f0c2a3b4c5d6e7f8${sub.padStart(4, '0')}`,
  transactionId: 'txn-w',
  _environmentId: 'e',
  _organizationId: 'o',
  _subscriberId: sub,
  subscriber: { _id: sub, subscriberId: sub },
  jobs,
});
const page = (data: unknown[]) => ({ body: { data, hasMore: false, page: 0, pageSize: 50 } });

describe('trigger --wait', () => {
  test("follows the activity until every job finished: exit 0 and each recipient's steps", async () => {
    stub.on('GET', '/v1/notifications', (req, n) => {
      expect(req.query.get('transactionId')).toBe('txn-w');
      if (n === 1) return page([notification('u1', [job('in_app', 'pending', 'Step queued')])]);
      return page([
        notification('u1', [job('in_app', 'completed', 'Message sent'), job('email', 'completed', 'Message sent')]),
        notification('u2', [job('in_app', 'completed', 'Message sent')]),
      ]);
    });
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--to', 'u2', '--wait'], { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.trigger.transactionId).toBe('txn-w');
    expect(out.outcome).toBe('delivered');
    expect(out.recipients.map((x: { subscriberId: string }) => x.subscriberId).sort()).toEqual(['u1', 'u2']);
    expect(out.recipients.find((x: { subscriberId: string }) => x.subscriberId === 'u1').steps).toEqual([
      { type: 'in_app', status: 'completed', outcome: 'delivered', providerId: 'svc', detail: 'Message sent', reason: null },
      { type: 'email', status: 'completed', outcome: 'delivered', providerId: 'sendgrid', detail: 'Message sent', reason: null },
    ]);
  });

  test('a failed job: exit 9 naming the step and why', async () => {
    stub.on(
      'GET',
      '/v1/notifications',
      page([notification('u1', [job('in_app', 'completed', 'Message sent'), job('email', 'failed', 'No active integration found for channel email')])]),
    );
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('email: No active integration found for channel email');
    expect(JSON.parse(r.stdout).outcome).toBe('failed');
  });

  test('-o json without a terminal: stderr holds the error object alone (no progress line before it)', async () => {
    stub.on('GET', '/v1/notifications', page([notification('u1', [job('email', 'failed', 'No active integration found for channel email')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait', '-o', 'json'], { env });
    expect(r.code).toBe(9);
    expect(JSON.parse(r.stderr).error.code).toBe('delivery_failed');
  });

  test('steps merged into a digest already under way: outcome merged (not delivered), exit 0, and why', async () => {
    stub.on('GET', '/v1/notifications', page([notification('u1', [job('digest', 'merged', 'Digest merged'), job('in_app', 'merged', 'Step merged')])]));
    const r = await runSvc(['trigger', 'comment-digest', '--to', 'u1', '--wait'], { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.outcome).toBe('merged');
    expect(out.recipients[0].outcome).toBe('merged');
    expect(r.stderr).toContain('1 recipient(s) merged into a digest already under way');
  });

  test('still pending at the timeout: exit 8', async () => {
    stub.on('GET', '/v1/notifications', page([notification('u1', [job('delay', 'delayed', 'Step delayed')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait', '--wait-timeout', '600ms'], { env });
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stdout).outcome).toBe('pending');
    expect(r.stderr).toContain('still pending after');
  });

  test('on a terminal the outcome is a readable block', async () => {
    stub.on('GET', '/v1/notifications', page([notification('u1', [job('in_app', 'completed', 'Message sent')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env, tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/✓ u1\s+delivered/);
    expect(r.stdout).toMatch(/in_app\s+delivered\s+via svc\s+Message sent/);
  });

  test('an email skipped by preferences beside a delivered in-app: exit 0, partial, each channel with its outcome and the skip’s reason', async () => {
    const PREFS = 'Step filtered by subscriber preferences: the subscriber turned the email channel off for this workflow';
    const skipped = {
      ...job('email', 'skipped', ''),
      executionDetails: [
        { _id: 'd1', status: 'Pending', detail: 'Step queued', isRetry: false, isTest: false, source: 'Internal' },
        { _id: 'd2', status: 'Warning', detail: PREFS, isRetry: false, isTest: false, source: 'Internal' },
        // A later line of the timeline is not the reason.
        { _id: 'd3', status: 'Pending', detail: 'Step running', isRetry: false, isTest: false, source: 'Internal' },
      ],
    };
    stub.on('GET', '/v1/notifications', page([notification('u1', [job('in_app', 'completed', 'Message sent'), skipped])]));
    const json = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env });
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.outcome).toBe('partial');
    expect(out.recipients[0].reason).toBe(`email skipped: ${PREFS}`);
    expect(out.recipients[0].steps.map((x: { outcome: string; reason: string | null }) => [x.outcome, x.reason])).toEqual([
      ['delivered', null],
      ['skipped', PREFS],
    ]);
    const tty = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env, tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/± u1\s+partial/);
    expect(tty.stdout).toMatch(/email\s+skipped\s+(via sendgrid\s+)?Step filtered by subscriber preferences/);
    expect(tty.stdout).not.toContain('Step running');
  });

  test('a payload validation failure: exit 9 naming the failure, not a later line', async () => {
    const failed = {
      ...job('email', 'failed', ''),
      executionDetails: [
        {
          _id: 'd1',
          status: 'Failed',
          detail: 'Payload validation failed: payload.orderId must be a string',
          isRetry: false,
          isTest: false,
          source: 'Payload',
        },
        { _id: 'd2', status: 'Warning', detail: "Step canceled: step 'email' failed", isRetry: false, isTest: false, source: 'Internal' },
      ],
    };
    stub.on('GET', '/v1/notifications', page([notification('u1', [failed])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('email: Payload validation failed: payload.orderId must be a string');
  });
});

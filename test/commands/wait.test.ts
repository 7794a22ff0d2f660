// svc trigger --wait: follows the activity of a stub whose jobs change between polls, and reports each recipient.
import { beforeEach, describe, expect, test } from 'vitest';
import { job, notification, page } from '../helpers/activity.js';
import { stubbedService } from '../helpers/command-test.js';
import { runSvc } from '../helpers/run.js';

const svc = stubbedService();
beforeEach(() => {
  svc.stub.on('POST', '/v1/events/trigger', { status: 201, body: { data: { acknowledged: true, status: 'processed', transactionId: 'txn-w' } } });
});

describe('trigger --wait', () => {
  test("follows the activity until every job finished: exit 0 and each recipient's steps", async () => {
    svc.stub.on('GET', '/v1/notifications', (req, n) => {
      expect(req.query.get('transactionId')).toBe('txn-w');
      if (n === 1) return page([notification('u1', [job('in_app', 'pending', 'Step queued')])]);
      return page([
        notification('u1', [job('in_app', 'completed', 'Message sent'), job('email', 'completed', 'Message sent')]),
        notification('u2', [job('in_app', 'completed', 'Message sent')]),
      ]);
    });
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--to', 'u2', '--wait'], { env: svc.env });
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
    svc.stub.on(
      'GET',
      '/v1/notifications',
      page([notification('u1', [job('in_app', 'completed', 'Message sent'), job('email', 'failed', 'No active integration found for channel email')])]),
    );
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env: svc.env });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('email: No active integration found for channel email');
    expect(JSON.parse(r.stdout).outcome).toBe('failed');
  });

  test('-o json without a terminal: stderr holds the error object alone (no progress line before it)', async () => {
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [job('email', 'failed', 'No active integration found for channel email')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait', '-o', 'json'], { env: svc.env });
    expect(r.code).toBe(9);
    expect(JSON.parse(r.stderr).error.code).toBe('delivery_failed');
  });

  test('steps merged into a digest already under way: outcome merged (not delivered), exit 0, and why', async () => {
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [job('digest', 'merged', 'Digest merged'), job('in_app', 'merged', 'Step merged')])]));
    const r = await runSvc(['trigger', 'comment-digest', '--to', 'u1', '--wait'], { env: svc.env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.outcome).toBe('merged');
    expect(out.recipients[0].outcome).toBe('merged');
    expect(r.stderr).toContain('1 recipient(s) merged into a digest already under way');
  });

  test('still pending at the timeout: exit 8', async () => {
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [job('delay', 'delayed', 'Step delayed')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait', '--wait-timeout', '600ms'], { env: svc.env });
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stdout).outcome).toBe('pending');
    expect(r.stderr).toContain('still pending after');
  });

  test('on a terminal the outcome is a readable block', async () => {
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [job('in_app', 'completed', 'Message sent')])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env: svc.env, tty: true });
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
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [job('in_app', 'completed', 'Message sent'), skipped])]));
    const json = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env: svc.env });
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.outcome).toBe('partial');
    expect(out.recipients[0].reason).toBe(`email skipped: ${PREFS}`);
    expect(out.recipients[0].steps.map((x: { outcome: string; reason: string | null }) => [x.outcome, x.reason])).toEqual([
      ['delivered', null],
      ['skipped', PREFS],
    ]);
    const tty = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env: svc.env, tty: true });
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
    svc.stub.on('GET', '/v1/notifications', page([notification('u1', [failed])]));
    const r = await runSvc(['trigger', 'welcome', '--to', 'u1', '--wait'], { env: svc.env });
    expect(r.code).toBe(9);
    expect(r.stderr).toContain('email: Payload validation failed: payload.orderId must be a string');
  });
});

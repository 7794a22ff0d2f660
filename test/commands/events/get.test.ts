// svc events get: the event timeline, the record untouched as JSON, and a 404.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startStub, type Stub } from '../../helpers/stub.js';
import { runSvc } from '../../helpers/run.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
beforeEach(async () => {
  stub = await startStub();
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
});
afterEach(async () => stub.close());

describe('events get', () => {
  const event = {
    _id: '6761f0c2a3b4c5d6e7f80912',
    transactionId: 'txn-1',
    _environmentId: 'e',
    _organizationId: 'o',
    _subscriberId: 's',
    createdAt: '2026-11-22T10:00:00.000Z',
    channels: ['in_app', 'email'],
    subscriber: { _id: 's', subscriberId: 'user-1' },
    template: { name: 'Welcome', triggers: [{ type: 'event', identifier: 'welcome', variables: [] }] },
    jobs: [
      {
        _id: 'j1',
        type: 'in_app',
        providerId: 'svc',
        status: 'completed',
        step: { _id: 'st1', active: true, filters: [], _templateId: 't', name: 'In-app' },
        executionDetails: [
          { _id: 'd1', createdAt: '2026-11-22T10:00:00.100Z', status: 'Pending', detail: 'Step queued', isRetry: false, isTest: false, source: 'Internal' },
          { _id: 'd2', createdAt: '2026-11-22T10:00:00.200Z', status: 'Success', detail: 'Message sent', isRetry: false, isTest: false, source: 'Internal' },
        ],
      },
      {
        _id: 'j2',
        type: 'email',
        providerId: 'sendgrid',
        status: 'failed',
        step: { _id: 'st2', active: true, filters: [], _templateId: 't' },
        executionDetails: [
          {
            _id: 'd3',
            createdAt: '2026-11-22T10:00:00.300Z',
            status: 'Failed',
            detail: 'No active integration found for channel email',
            isRetry: false,
            isTest: false,
            source: 'Internal',
          },
        ],
      },
    ],
  };
  test('shows each job with its execution details as a timeline', async () => {
    stub.on('GET', `/v1/notifications/${event._id}`, { body: { data: event } });
    const r = await runSvc(['events', 'get', event._id], { env, tty: true });
    expect(r.code).toBe(0);
    const out = r.stdout;
    expect(out).toContain('workflow welcome');
    expect(out).toContain('subscriber user-1');
    expect(out).toMatch(/1\. in_app \(In-app\)\s+via svc\s+completed/);
    expect(out).toMatch(/Pending\s+Step queued/);
    expect(out).toMatch(/Success\s+Message sent/);
    expect(out).toMatch(/2\. email\s+via sendgrid\s+failed/);
    expect(out).toContain('No active integration found for channel email');
    expect(out.indexOf('Step queued')).toBeLessThan(out.indexOf('Message sent'));
    expect(out.indexOf('Message sent')).toBeLessThan(out.indexOf('2. email'));
  });
  test("--json prints the record untouched, with svc's derived status beside it", async () => {
    stub.on('GET', `/v1/notifications/${event._id}`, { body: { data: event } });
    const r = await runSvc(['events', 'get', event._id, '--json'], { env, tty: true });
    const { derived, ...service } = JSON.parse(r.stdout);
    expect(service).toEqual(event);
    expect(derived).toEqual({
      status: 'failed',
      reason: 'email: No active integration found for channel email',
      channels: [
        { stepId: null, channel: 'in_app', outcome: 'delivered', reason: null },
        { stepId: null, channel: 'email', outcome: 'failed', reason: 'No active integration found for channel email' },
      ],
    });
  });
  test('404 gives exit 5 with the service message', async () => {
    stub.on('GET', `/v1/notifications/${event._id}`, {
      status: 404,
      body: { statusCode: 404, message: 'Notification not found', error: 'Not Found', path: '/', timestamp: 'x' },
    });
    // A 24-hex string may still be a transaction id: looked up, nothing found, the service's 404 stands.
    stub.on('GET', '/v1/notifications', { body: { data: [], hasMore: false, pageSize: 50, page: 0 } });
    const r = await runSvc(['events', 'get', event._id], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(`error: GET /v1/notifications/${event._id} failed: 404 Notification not found\n`);
  });
});

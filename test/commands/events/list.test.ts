// svc events list: the request it sends and the input it refuses before sending anything.
import { expect, test } from 'vitest';
import { activityPage, ID, ID2, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();

sendsRequest(svc, [
  [
    'events list with every filter',
    {
      argv: [
        'events',
        'list',
        '--channel',
        'email',
        '--channel',
        'sms,push',
        '--workflow',
        ID2,
        '--email',
        'a@x.io',
        '--subscriber',
        'u1',
        '--subscriber',
        'u2',
        '--severity',
        'high',
        '--transaction-id',
        't1',
        '--topic-key',
        'ops',
        '--subscription-id',
        's1',
        '--context',
        'tenant:acme',
        '--since',
        '2026-11-01T00:00:00Z',
        '--until',
        '2026-11-02T00:00:00Z',
        '--page',
        '2',
        '--limit',
        '50',
      ],
      method: 'GET',
      path: '/v1/notifications',
      query: {
        channels: ['email', 'sms', 'push'],
        templates: [ID2],
        emails: ['a@x.io'],
        subscriberIds: ['u1', 'u2'],
        severity: ['high'],
        transactionId: ['t1'],
        topicKey: ['ops'],
        subscriptionId: ['s1'],
        contextKeys: ['tenant:acme'],
        after: ['2026-11-01T00:00:00.000Z'],
        before: ['2026-11-02T00:00:00.000Z'],
        page: ['2'],
        limit: ['50'],
      },
      answer: activityPage,
    },
  ],
]);

refusesInput(svc, [
  [['events', 'list', '--limit', '51'], "--limit <n>' argument '51' is invalid"],
  [['events', 'list', '--page', '-1'], "--page <n>' argument '-1' is invalid"],
  [['events', 'list', '--channel', 'fax'], "--channel <channel>' argument 'fax' is invalid"],
  [['events', 'list', '--severity', 'urgent'], 'Expected one of: high, medium, low, none'],
  [['events', 'list', '--since', 'yesterday'], '--since: expected an ISO 8601 time'],
  [['events', 'list', '--context', 'tenant'], '--context: expected TYPE:ID (e.g. tenant:acme)'],
]);

test('--workflow takes an identifier and looks up its id', async () => {
  svc.stub.on('GET', '/v2/workflows/welcome', { body: { data: { _id: ID, workflowId: 'welcome' } } });
  svc.stub.on('GET', '/v1/notifications', { body: activityPage });
  const r = await runSvc(['events', 'list', '--workflow', 'welcome', '--workflow', ID2], { env: svc.env });
  expect(r.code).toBe(0);
  expect(svc.stub.requests[1]!.query.getAll('templates')).toEqual([ID, ID2]);
});

test('no events for a --subscriber that names no subscriber: a line on stderr says so (exit 0); one that exists gets none', async () => {
  svc.stub.on('GET', '/v1/notifications', { body: activityPage });
  svc.stub.on('GET', '/v2/subscribers/nobody-here', { status: 404, body: { statusCode: 404, message: "Subscriber 'nobody-here' was not found" } });
  svc.stub.on('GET', '/v2/subscribers/ada', { body: { data: { _id: ID, subscriberId: 'ada' } } });
  const typo = await runSvc(['events', 'list', '--subscriber', 'nobody-here', '-o', 'json'], { env: svc.env });
  expect(typo.code, typo.stderr).toBe(0);
  expect(JSON.parse(typo.stdout)).toEqual([]);
  expect(typo.stderr).toContain("no subscriber has the id 'nobody-here'");
  const real = await runSvc(['events', 'list', '--subscriber', 'ada', '-o', 'json'], { env: svc.env });
  expect(real.code, real.stderr).toBe(0);
  expect(real.stderr).not.toContain('no subscriber has the id');
  // Events found: nothing more is asked.
  const before = svc.stub.requests.length;
  svc.stub.on('GET', '/v1/notifications', { body: { ...activityPage, data: [{ _id: ID2, subscriber: { subscriberId: 'nobody-here' }, jobs: [] }] } });
  await runSvc(['events', 'list', '--subscriber', 'nobody-here', '-o', 'json'], { env: svc.env });
  expect(svc.stub.requests.slice(before).map((r) => r.path)).toEqual(['/v1/notifications']);
});

test('the look-up behind that line waits for nothing: one attempt each, none under -q', async () => {
  svc.stub.on('GET', '/v1/notifications', { body: activityPage });
  svc.stub.on('GET', '/v2/subscribers/slow', { status: 503, body: { statusCode: 503, message: 'busy' } });
  const r = await runSvc(['events', 'list', '--subscriber', 'slow', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).not.toContain('no subscriber has the id');
  expect(svc.stub.requests.filter((q) => q.path === '/v2/subscribers/slow')).toHaveLength(1);
  const before = svc.stub.requests.length;
  const quiet = await runSvc(['events', 'list', '--subscriber', 'slow', '-o', 'json', '-q'], { env: svc.env });
  expect(quiet.code).toBe(0);
  expect(svc.stub.requests.slice(before).map((q) => q.path)).toEqual(['/v1/notifications']);
});

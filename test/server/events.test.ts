// The activity feed: page envelope, filters, event detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

let start: string;
beforeAll(async () => {
  start = new Date(svc.clock.now()).toISOString();
  for (const [name, to] of [
    ['welcome', 'ada'],
    ['otp', 'grace'],
    ['incident', 'ada'],
    ['welcome', 'alan'],
  ] as const) {
    await svc.request('POST', '/v1/events/trigger', { body: { name, to, transactionId: `${name}-${to}` } });
    svc.clock.advance(60_000);
  }
  await svc.runner.idle();
});

const list = async (q = '') => {
  const r = await svc.request('GET', `/v1/notifications${q}`);
  expect(r.status).toBe(200);
  return operations.listEvents.response.parse(r.body);
};
const txs = (p: { data: { transactionId: string }[] }) => p.data.map((n) => n.transactionId);

describe('list events', () => {
  it('newest first, page envelope with hasMore', async () => {
    const p0 = await list('?limit=3');
    expect(p0).toMatchObject({ page: 0, pageSize: 3, hasMore: true });
    expect(txs(p0)).toEqual(['welcome-alan', 'incident-ada', 'otp-grace']);
    const p1 = await list('?limit=3&page=1');
    expect(p1).toMatchObject({ page: 1, hasMore: false });
    expect(txs(p1)).toEqual(['welcome-ada']);
  });

  it('subscriptionId filters (it was ignored, listing every event): only events reached through that subscription', async () => {
    expect(txs(await list('?subscriptionId=64f0c0ffee0000000000beef'))).toEqual([]);
    // An event recorded as delivered through a subscription is found by its id, and only it.
    svc.store.db.prepare("UPDATE notifications SET doc = json_set(doc, '$.subscriptionId', 'sub-1') WHERE transaction_id = 'otp-grace'").run();
    expect(txs(await list('?subscriptionId=sub-1'))).toEqual(['otp-grace']);
    expect(txs(await list('?subscriptionId=sub-1&subscriberIds=ada'))).toEqual([]);
  });

  it('filters by channel, workflow, subscriber, email, severity and dates (arrays repeated)', async () => {
    expect(txs(await list('?channels=sms&channels=chat'))).toEqual(['incident-ada', 'otp-grace']);
    const welcome = svc.store.workflows.findByTrigger(svc.environment.id, 'welcome')!;
    expect(txs(await list(`?templates=${welcome._id}`))).toEqual(['welcome-alan', 'welcome-ada']);
    expect(txs(await list('?subscriberIds=ada'))).toEqual(['incident-ada', 'welcome-ada']);
    expect(txs(await list('?emails=grace@example.com'))).toEqual(['otp-grace']);
    expect(txs(await list('?severity=high'))).toEqual(['incident-ada', 'otp-grace']);
    const t1 = new Date(Date.parse(start) + 90_000).toISOString();
    expect(txs(await list(`?after=${t1}`))).toEqual(['welcome-alan', 'incident-ada']);
    expect(txs(await list(`?before=${t1}`))).toEqual(['otp-grace', 'welcome-ada']);
    expect((await svc.request('GET', '/v1/notifications?after=yesterday')).status).toBe(422);
  });
});

describe('event detail', () => {
  it('returns the notification with its jobs and execution details, in {data}', async () => {
    const [n] = (await list('?transactionId=incident-ada')).data;
    const r = await svc.request('GET', `/v1/notifications/${n!._id}`);
    expect(r.status).toBe(200);
    const detail = operations.getEvent.response.parse(r.body.data);
    expect(detail.template?.triggers[0]?.identifier).toBe('incident');
    expect(detail.jobs?.map((j) => [j.type, j.status, j.providerId])).toEqual([
      ['chat', 'completed', 'slack'],
      ['push', 'completed', 'fcm'],
    ]);
  });

  it('unknown id → 404 "Notification not found"; another environment sees nothing', async () => {
    const r = await svc.request('GET', '/v1/notifications/aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Notification not found');
  });
});

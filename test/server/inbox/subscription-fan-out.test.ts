// A trigger to a topic weighs each subscriber's topic subscriptions as the hosted worker does: a
// subscriber whose every subscription there turned the workflow off (set from an <Inbox/> with the real
// `@novu/js` client), or holds a condition the payload fails, gets nothing; one subscription that lets
// it through is enough; a subscription without a preference, or the operator API's, lets it through;
// a subscriber named in `to` themselves is not part of the fan-out and gets it whatever their
// subscriptions say. Before, every member of the topic got every trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listening } from './helpers.js';

let s: Listening;
beforeAll(async () => {
  s = await listening({ empty: true });
  for (const workflowId of ['deploys', 'billing']) {
    const r = await s.svc.request('POST', '/v2/workflows', {
      body: { workflowId, name: workflowId, active: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: `${workflowId} {{payload.n}}` } }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
});
afterAll(() => s.close());

const ok = <T>(r: { data?: T; error?: unknown }): T => {
  expect(r.error, String((r.error as { cause?: { message?: string } } | undefined)?.cause?.message ?? r.error)).toBeUndefined();
  return r.data as T;
};

/** Triggers the workflow and answers who got an event of it, sorted. */
async function reached(name: string, to: unknown[], payload: Record<string, unknown>): Promise<string[]> {
  const t = await s.svc.request('POST', '/v1/events/trigger', { body: { name, to, payload } });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  expect(t.body.data.status).toBe('processed');
  await s.svc.runner.idle();
  const feed = await s.svc.request('GET', `/v1/notifications?transactionId=${encodeURIComponent(t.body.data.transactionId)}`);
  return (feed.body.data as { subscriber?: { subscriberId?: string } }[]).map((e) => e.subscriber?.subscriberId ?? '?').sort();
}

const topic = (topicKey: string) => ({ type: 'Topic', topicKey });

describe('a trigger to a topic honours its subscribers’ subscription preferences', () => {
  it('leaves out a subscriber who turned the workflow off from the Inbox, and only for that workflow', async () => {
    const ada = s.client('ada');
    const sub = ok(await ada.subscriptions.create({ topicKey: 'ops', identifier: 'ada-ops', preferences: ['deploys', 'billing'] }));
    const deploys = sub.preferences!.find((p) => p.workflow?.identifier === 'deploys')!;
    expect(ok(await deploys.update({ value: false }))).toMatchObject({ enabled: false, subscriptionId: 'ada-ops' });
    // Bea subscribed with no preference; Cal was put on the topic by the operator API.
    ok(await s.client('bea').subscriptions.create({ topicKey: 'ops', identifier: 'bea-ops' }));
    await s.svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'cal' } });
    expect((await s.svc.request('POST', '/v2/topics/ops/subscriptions', { body: { subscriberIds: ['cal'] } })).status).toBeLessThan(300);

    expect(await reached('deploys', [topic('ops')], { n: 1 })).toEqual(['bea', 'cal']);
    expect(await reached('billing', [topic('ops')], { n: 2 })).toEqual(['ada', 'bea', 'cal']);
    // What her Inbox shows: the billing notification, not the deploy.
    const list = ok(await ada.notifications.list({ limit: 10, useCache: false } as never));
    expect(list.notifications.map((n) => n.body)).toEqual(['billing 2']);
    // Named in `to` herself, she is no part of the fan-out: she gets it.
    expect(await reached('deploys', [topic('ops'), 'ada'], { n: 3 })).toEqual(['ada', 'bea', 'cal']);
  });

  it('weighs a condition against the payload (JSON logic; anything but true leaves them out)', async () => {
    const dan = s.client('dan');
    ok(
      await dan.subscriptions.create({
        topicKey: 'invoices',
        identifier: 'dan-pro',
        preferences: [{ workflowId: 'billing', condition: { '==': [{ var: 'payload.plan' }, 'pro'] } }],
      }),
    );
    expect(await reached('billing', [topic('invoices')], { plan: 'pro' })).toEqual(['dan']);
    expect(await reached('billing', [topic('invoices')], { plan: 'free' })).toEqual([]);
    // A rule that answers no boolean fails too.
    ok(
      await dan.subscriptions.update({
        topicKey: 'invoices',
        identifier: 'dan-pro',
        preferences: [{ workflowId: 'billing', condition: { var: 'payload.plan' } }],
      }),
    );
    expect(await reached('billing', [topic('invoices')], { plan: 'pro' })).toEqual([]);
  });

  it('lets one subscription that wants it through: of several in a topic, or in another topic triggered with it', async () => {
    const eve = s.client('eve');
    ok(await eve.subscriptions.create({ topicKey: 'alerts', identifier: 'eve-quiet', preferences: [{ workflowId: 'deploys', enabled: false }] }));
    expect(await reached('deploys', [topic('alerts')], { n: 4 })).toEqual([]);
    ok(await eve.subscriptions.create({ topicKey: 'alerts', identifier: 'eve-loud', preferences: [{ workflowId: 'deploys', enabled: true }] }));
    expect(await reached('deploys', [topic('alerts')], { n: 5 })).toEqual(['eve']);
    ok(await eve.subscriptions.delete({ topicKey: 'alerts', identifier: 'eve-loud' }));
    ok(await eve.subscriptions.create({ topicKey: 'all-hands', identifier: 'eve-all' }));
    expect(await reached('deploys', [topic('alerts'), topic('all-hands')], { n: 6 })).toEqual(['eve']);
    // The event names the topic that reached her, not the one whose subscription turned it off.
    const feed = await s.svc.request('GET', '/v1/notifications?subscriberIds=eve&limit=1');
    expect(feed.body.data[0].topics).toEqual([expect.objectContaining({ topicKey: 'all-hands' })]);
  });
});

// The Inbox's topic subscriptions through the real `@novu/js` 3.19 client (`novu.subscriptions`):
// created, listed, read by the identifier the client builds, renamed, their preferences set one at a
// time and in bulk, deleted; a subscription made there receives triggers to its topic; a subscriber
// never sees nor changes another's. And `POST /v1/inbox/events`, refused as outside a keyless
// environment. Each route answered 404 before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxSubscription } from '../../../src/api/schemas/inbox.js';
import { type Listening, listening } from './helpers.js';

let s: Listening;
beforeAll(async () => {
  s = await listening({ empty: true });
  for (const [workflowId, tags, critical] of [
    ['deploys', ['ops'], false],
    ['incidents', ['ops', 'pager'], false],
    ['billing', ['money'], false],
    ['security', ['ops'], true],
  ] as const) {
    const r = await s.svc.request('POST', '/v2/workflows', {
      body: {
        workflowId,
        name: workflowId,
        active: true,
        tags,
        critical,
        steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: `${workflowId} {{payload.n}}` } }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
});
afterAll(() => s.close());

const ok = <T>(r: { data?: T; error?: unknown }): T => {
  expect(r.error, String((r.error as { cause?: { message?: string } } | undefined)?.cause?.message ?? r.error)).toBeUndefined();
  return r.data as T;
};

describe('topic subscriptions from the Inbox', () => {
  it('are created, listed, read, renamed, and their preferences set, with @novu/js', async () => {
    const novu = s.client('ada');
    const created = ok(
      await novu.subscriptions.create({
        topicKey: 'project-42',
        topicName: 'Project 42',
        name: 'Everything about project 42',
        preferences: [
          'deploys',
          { filter: { tags: ['pager'] }, enabled: false },
          { workflowId: 'billing', condition: { '==': [{ var: 'payload.plan' }, 'pro'] } },
        ],
      }),
    );
    expect(created.identifier).toBe('tk_project-42:si_ada');
    expect(created.preferences?.map((p) => [p.workflow?.identifier, p.enabled, p.condition])).toEqual([
      ['deploys', true, undefined],
      ['incidents', false, undefined],
      ['billing', true, { '==': [{ var: 'payload.plan' }, 'pro'] }],
    ]);
    const topic = await s.svc.request('GET', '/v2/topics/project-42');
    expect(topic.body.data).toMatchObject({ key: 'project-42', name: 'Project 42' });

    // Read back by the identifier the client builds itself (no identifier given).
    const got = ok(await novu.subscriptions.get({ topicKey: 'project-42' }));
    expect(got?.id).toBe(created.id);
    const listed = ok(await novu.subscriptions.list({ topicKey: 'project-42' }));
    expect(listed.map((x) => x.identifier)).toEqual(['tk_project-42:si_ada']);
    const raw = await s.inbox('GET', '/topics/project-42/subscriptions', await s.session('ada'));
    expect(raw.status).toBe(200);
    for (const x of raw.body.data) InboxSubscription.parse(x);
    expect(raw.body.data[0].name).toBe('Everything about project 42');

    // One preference, then several, through the subscription's own methods.
    const incidents = got!.preferences!.find((p) => p.workflow?.identifier === 'incidents')!;
    const on = ok(await incidents.update({ value: true }));
    expect(on).toMatchObject({ enabled: true, subscriptionId: 'tk_project-42:si_ada' });
    const bulk = ok(
      await got!.bulkUpdatePreferences([
        { workflowId: 'deploys', value: false },
        { workflowId: 'billing', value: { '>': [{ var: 'payload.seats' }, 5] } },
      ]),
    );
    expect(bulk.map((p) => [p.workflow?.identifier, p.enabled, p.condition])).toEqual([
      ['deploys', false, undefined],
      // A condition leaves the switch as it was.
      ['billing', true, { '>': [{ var: 'payload.seats' }, 5] }],
    ]);
    const renamed = ok(await novu.subscriptions.update({ topicKey: 'project-42', identifier: created.identifier, name: 'P42' }));
    expect(renamed.identifier).toBe(created.identifier);
    const after = ok(await novu.subscriptions.get({ topicKey: 'project-42', identifier: created.identifier }, { refetch: true } as never));
    expect(after?.preferences?.map((p) => [p.workflow?.identifier, p.enabled])).toEqual([
      ['deploys', false],
      ['incidents', true],
      ['billing', true],
    ]);
    // A critical workflow's preference cannot be switched.
    const critical = await s.inbox('PATCH', `/subscriptions/${created.identifier}/preferences/security`, await s.session('ada'), { enabled: false });
    expect(critical.status).toBe(400);
  });

  it('subscribe the subscriber: a trigger to the topic reaches them, until deleted', async () => {
    const novu = s.client('bea');
    const made = ok(await novu.subscriptions.create({ topicKey: 'ops-room', identifier: 'bea-ops' }));
    expect(made.identifier).toBe('bea-ops');
    const t = await s.svc.request('POST', '/v1/events/trigger', {
      body: { name: 'deploys', to: [{ type: 'Topic', topicKey: 'ops-room' }], payload: { n: 1 } },
    });
    expect(t.status).toBe(201);
    await s.svc.runner.idle();
    const list = ok(await novu.notifications.list({ limit: 10, useCache: false } as never));
    expect(list.notifications.map((n) => n.body)).toEqual(['deploys 1']);
    ok(await novu.subscriptions.delete({ topicKey: 'ops-room', identifier: 'bea-ops' }));
    const members = await s.svc.request('GET', '/v2/topics/ops-room/subscriptions');
    expect(members.body.data).toEqual([]);
    expect(ok(await novu.subscriptions.list({ topicKey: 'ops-room' }, { refetch: true } as never))).toEqual([]);
  });

  it("shows a subscription the operator API made under the service's default identifier", async () => {
    await s.svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'cal' } });
    const add = await s.svc.request('POST', '/v2/topics/night-shift/subscriptions', { body: { subscriberIds: ['cal'] } });
    expect(add.status, JSON.stringify(add.body)).toBeLessThan(300);
    const novu = s.client('cal');
    const got = ok(await novu.subscriptions.get({ topicKey: 'night-shift' }));
    expect(got?.identifier).toBe('tk_night-shift:si_cal');
    const pref = ok(await novu.subscriptions.update({ topicKey: 'night-shift', identifier: 'tk_night-shift:si_cal', preferences: ['deploys'] }));
    expect(pref.preferences?.map((p) => p.workflow?.identifier)).toEqual(['deploys']);
    expect(ok(await novu.subscriptions.list({ topicKey: 'night-shift' }, { refetch: true } as never))).toHaveLength(1);
  });

  it("keep one subscriber out of another's", async () => {
    const owner = await s.session('ada');
    const other = await s.session('mallory');
    const path = '/topics/project-42/subscriptions/tk_project-42:si_ada';
    const peek = await s.inbox('GET', path, other);
    expect(peek.status).toBe(204);
    expect((await s.inbox('PATCH', path, other, { name: 'pwned' })).status).toBe(404);
    expect((await s.inbox('DELETE', path, other)).status).toBe(404);
    expect((await s.inbox('PATCH', '/subscriptions/tk_project-42:si_ada/preferences/deploys', other, { enabled: true })).status).toBe(404);
    expect((await s.inbox('GET', '/topics/project-42/subscriptions', other)).body.data).toEqual([]);
    const mine = await s.inbox('GET', path, owner);
    expect(mine.body.data).toMatchObject({ name: 'P42' });
    expect(mine.body.data.preferences.find((p: { workflow: { identifier: string } }) => p.workflow.identifier === 'deploys').enabled).toBe(false);
  });

  it('answer bad input as the service does', async () => {
    const token = await s.session('ada');
    const long = await s.inbox('POST', '/topics/project-42/subscriptions', token, { identifier: 'x'.repeat(513) });
    expect(long.status).toBe(422);
    const unknown = await s.inbox('POST', '/topics/project-42/subscriptions', token, { identifier: 'x', preferences: ['no-such-workflow'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('Workflows not found: no-such-workflow');
    const badKey = await s.inbox('POST', '/topics/bad key!/subscriptions', token, {});
    expect(badKey.status).toBe(400);
    for (let i = 0; i < 9; i++) expect((await s.inbox('POST', '/topics/project-42/subscriptions', token, { identifier: `extra-${i}` })).status).toBe(201);
    const eleventh = await s.inbox('POST', '/topics/project-42/subscriptions', token, { identifier: 'one-too-many' });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.message).toContain('maximum allowed of 10 subscriptions');
    expect((await s.inbox('PATCH', '/topics/nope/subscriptions/x', token, { name: 'y' })).status).toBe(404);
    expect((await s.inbox('GET', '/topics/project-42/subscriptions', undefined)).status).toBe(401);
  });

  it("refuse the keyless demo's trigger outside a keyless environment", async () => {
    const novu = s.client('ada');
    // The client asks for it with the session it opened for the page.
    ok(await novu.notifications.list({ limit: 1 } as never));
    const r = await novu.notifications.triggerHelloWorldEvent().then(
      () => undefined,
      (e: { status?: number; body?: { message?: string } }) => e,
    );
    expect(r?.status).toBe(403);
    const token = await s.session('ada');
    const self = await s.inbox('POST', '/events', token, { name: 'hello-world', to: { subscriberId: 'ada' }, payload: {} });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('Inbox events can only be triggered from a keyless environment.');
    expect((await s.inbox('POST', '/events', token, { name: 'deploys', to: 'ada' })).body.message).toContain('may only trigger the "hello-world" workflow');
    expect((await s.inbox('POST', '/events', undefined, { name: 'hello-world', to: 'ada' })).status).toBe(401);
  });
});

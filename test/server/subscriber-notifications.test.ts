// A subscriber's notifications through the operator API, called with the official SDK (@novu/api,
// pinned): the v2 list, count and state changes, one by one and in bulk, and the v1 feed, unseen
// count, mark-all and message action. They read and change what the Inbox (@novu/js, pinned) shows,
// and a connected Inbox hears each change on its socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems } from '../helpers/openapi.js';
import { TEST_KEY } from '../helpers/service.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';
import { type Listening, listening, nextEvent } from './inbox/helpers.js';

let s: Listening;
let api: ReturnType<typeof novuClient>;
beforeAll(async () => {
  s = await listening();
  api = novuClient(s.base, TEST_KEY);
  const wf = await s.svc.request('POST', '/v2/workflows', {
    body: {
      name: 'Alert',
      workflowId: 'alert',
      active: true,
      severity: 'high',
      tags: ['ops'],
      steps: [{ stepId: 'in-app', name: 'Alert', type: 'in_app', controlValues: { body: 'Alert {{ payload.n }}', data: { kind: 'alert' } } }],
    },
  });
  expect(wf.status, JSON.stringify(wf.body)).toBe(201);
});
afterAll(() => s.close());

/** Triggers `name` for `to`, waits for its jobs, and answers the new in-app message ids, newest first. */
async function deliver(to: string, names: string[]): Promise<string[]> {
  for (const [i, name] of names.entries()) {
    const r = await s.svc.request('POST', '/v1/events/trigger', { body: { name, to, payload: { n: i } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await s.svc.runner.idle();
    // Distinct creation times: the list's order is the delivery order.
    s.svc.clock.advance(1000);
  }
  const msgs = await s.svc.request('GET', `/v1/messages?subscriberId=${to}&channel=in_app&limit=100`);
  return msgs.body.data.map((m: { _id: string }) => m._id);
}

const inboxList = async (novu: ReturnType<Listening['client']>, filter: Record<string, unknown> = {}) => {
  const r = await novu.notifications.list({ limit: 50, useCache: false, ...filter } as never);
  expect(r.error).toBeUndefined();
  return r.data!.notifications;
};

/** The Inbox client's socket, connected (a change made before it joins its room would not be heard). */
async function connected(novu: ReturnType<Listening['client']>): Promise<void> {
  const done = new Promise<any>((resolve) => novu.on('socket.connect.resolved' as never, resolve as never));
  // Something must listen for the client to open its socket.
  novu.on('notifications.unread_count_changed', () => undefined);
  expect((await done)?.error).toBeUndefined();
}

describe('GET /v2/subscribers/{id}/notifications and /count', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = await deliver('lister', ['welcome', 'alert', 'welcome', 'alert']);
  });

  it('lists the Inbox notifications with the Inbox filters and a cursor', async () => {
    const all = await api.subscribers.notifications.list({ subscriberId: 'lister' });
    expect(all.result.data.map((n) => n.id)).toEqual(ids);
    expect(all.result.hasMore).toBe(false);
    expect(all.result.data[0]).toMatchObject({ isRead: false, isSeen: false, isArchived: false, isSnoozed: false, channelType: 'in_app', severity: 'high' });
    expect(all.result.data[0]!.to.subscriberId).toBe('lister');

    const page1 = await api.subscribers.notifications.list({ subscriberId: 'lister', limit: 3 });
    expect(page1.result.data.map((n) => n.id)).toEqual(ids.slice(0, 3));
    expect(page1.result.hasMore).toBe(true);
    const page2 = await api.subscribers.notifications.list({ subscriberId: 'lister', limit: 3, after: ids[2] });
    expect(page2.result.data.map((n) => n.id)).toEqual(ids.slice(3));
    expect(page2.result.hasMore).toBe(false);

    const high = await api.subscribers.notifications.list({ subscriberId: 'lister', severity: ['high'] as never });
    expect(high.result.data.map((n) => n.id)).toEqual([ids[0], ids[2]]);
    const echoed = await s.svc.request('GET', '/v2/subscribers/lister/notifications?severity=high&read=false');
    expect(echoed.body.filter).toEqual({ severity: ['high'], read: false });
    const data = await api.subscribers.notifications.list({ subscriberId: 'lister', data: JSON.stringify({ kind: 'welcome' }) });
    expect(data.result.data.map((n) => n.id)).toEqual([ids[1], ids[3]]);
    const tags = await s.svc.request('GET', '/v2/subscribers/lister/notifications?tags=ops');
    expect(tags.body.data.map((n: { id: string }) => n.id)).toEqual([ids[0], ids[2]]);
  });

  it('counts with an array of filters', async () => {
    await api.subscribers.notifications.markAsRead({ subscriberId: 'lister', notificationId: ids[0]! });
    const filters = [{ read: false }, { read: true }, { tags: ['ops'] }, { severity: 'high', read: false }, {}];
    const r = await api.subscribers.notifications.count('lister', JSON.stringify(filters));
    expect(r.result.map((c) => c.count)).toEqual([3, 1, 2, 1, 4]);
    expect(r.result.map((c) => c.filter)).toEqual(filters);
  });

  it('filters by the context keys the event was triggered with', async () => {
    const t = await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'contexted', context: { tenant: 'acme' } } });
    expect(t.status).toBe(201);
    await s.svc.runner.idle();
    await deliver('contexted', ['alert']);
    const all = await api.subscribers.notifications.list({ subscriberId: 'contexted' });
    expect(all.result.data).toHaveLength(2);
    const acme = await api.subscribers.notifications.list({ subscriberId: 'contexted', contextKeys: ['tenant:acme'] });
    expect(acme.result.data.map((n) => n.severity)).toEqual(['none']);
    await api.subscribers.notifications.markAllAsRead({ contextKeys: ['tenant:acme'] }, 'contexted');
    const unread = await api.subscribers.notifications.list({ subscriberId: 'contexted', read: false });
    expect(unread.result.data.map((n) => n.severity)).toEqual(['high']);
    // One notification, named with context keys it was not triggered with: not found.
    const other = unread.result.data[0]!.id;
    const outside = api.subscribers.notifications.archive({ subscriberId: 'contexted', notificationId: other, contextKeys: ['tenant:acme'] });
    expect((await sdkFailure(outside)).status).toBe(404);
    expect(
      (await sdkFailure(api.subscribers.notifications.delete({ subscriberId: 'contexted', notificationId: other, contextKeys: ['tenant:acme'] }))).status,
    ).toBe(404);
    const inside = await api.subscribers.notifications.archive({
      subscriberId: 'contexted',
      notificationId: acme.result.data[0]!.id,
      contextKeys: ['tenant:acme'],
    });
    expect(inside.result.isArchived).toBe(true);
  });

  it("answers the service's errors", async () => {
    expect(await sdkFailure(api.subscribers.notifications.list({ subscriberId: 'nobody' }))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber not found for id nobody' },
    });
    expect((await sdkFailure(api.subscribers.notifications.list({ subscriberId: 'lister', read: false, archived: true }))).status).toBe(400);
    expect((await sdkFailure(api.subscribers.notifications.count('lister', 'not json'))).status).toBe(400);
    const badData = await s.svc.request('GET', `/v2/subscribers/lister/notifications?data=${encodeURIComponent('{nope')}`);
    expect(badData).toMatchObject({ status: 400, body: { message: 'Invalid JSON format for data parameter' } });
    expect((await s.svc.request('GET', '/v2/subscribers/lister/notifications/count')).status).toBe(400);
    expect((await s.svc.request('GET', '/v2/subscribers/lister/notifications?limit=101')).status).toBe(422);
    expect(await sdkFailure(api.subscribers.notifications.markAsRead({ subscriberId: 'lister', notificationId: 'ffffffffffffffffffffffff' }))).toMatchObject({
      status: 404,
      body: { message: 'Notification with id: ffffffffffffffffffffffff is not found.' },
    });
  });
});

describe('state changes reach the Inbox', () => {
  it('a read through the v2 API: the Inbox lists it read and its socket hears the unread count', async () => {
    const [first] = await deliver('reader', ['welcome', 'welcome']);
    const novu = s.client('reader');
    await connected(novu);
    const unread = nextEvent(novu, 'notifications.unread_count_changed');
    const r = await api.subscribers.notifications.markAsRead({ subscriberId: 'reader', notificationId: first! });
    expect(r.result).toMatchObject({ id: first, isRead: true, isSeen: true });
    expect(r.result.readAt).toBeTruthy();
    expect((await unread).total).toBe(1);
    const listed = await inboxList(novu);
    expect(listed.find((n) => n.id === first)?.isRead).toBe(true);
    // The step's state and the timeline follow, as the Inbox's own read does.
    const msg = (await s.svc.request('GET', `/v1/svc-dev/messages/${first}`)).body.data;
    const event = (await s.svc.request('GET', `/v1/notifications/${msg._notificationId}`)).body.data;
    const details = event.jobs.flatMap((j: { executionDetails: { detail: string }[] }) => j.executionDetails.map((d) => d.detail));
    expect(details).toContain('Message read');

    const back = nextEvent(novu, 'notifications.unread_count_changed');
    expect((await api.subscribers.notifications.markAsUnread({ subscriberId: 'reader', notificationId: first! })).result.isRead).toBe(false);
    expect((await back).total).toBe(2);
  });

  it('archive, unarchive, read-archive, delete and delete-all change what the Inbox lists', async () => {
    const ids = await deliver('archivist', ['welcome', 'alert', 'welcome', 'alert']);
    const novu = s.client('archivist');
    await connected(novu);
    const inbox = async () => (await inboxList(novu, { archived: false })).map((n) => n.id);
    expect(await inbox()).toEqual(ids);

    const archived = await api.subscribers.notifications.archive({ subscriberId: 'archivist', notificationId: ids[0]! });
    expect(archived.result).toMatchObject({ isArchived: true, isRead: true });
    expect(await inbox()).toEqual(ids.slice(1));
    expect((await inboxList(novu, { archived: true })).map((n) => n.id)).toEqual([ids[0]]);
    await api.subscribers.notifications.unarchive({ subscriberId: 'archivist', notificationId: ids[0]! });
    expect(await inbox()).toEqual(ids);

    // read-archive: only the read ones go (an archived message was read, and stays read when unarchived).
    await api.subscribers.notifications.markAsRead({ subscriberId: 'archivist', notificationId: ids[1]! });
    const heard = nextEvent(novu, 'notifications.unread_count_changed');
    await api.subscribers.notifications.archiveAllRead({}, 'archivist');
    expect(await inbox()).toEqual([ids[2], ids[3]]);
    expect((await heard).total).toBe(2);

    await api.subscribers.notifications.delete({ subscriberId: 'archivist', notificationId: ids[3]! });
    expect(await inbox()).toEqual([ids[2]]);
    expect((await sdkFailure(api.subscribers.notifications.delete({ subscriberId: 'archivist', notificationId: ids[3]! }))).status).toBe(404);
    await api.subscribers.notifications.unarchive({ subscriberId: 'archivist', notificationId: ids[1]! });
    expect(await inbox()).toEqual([ids[1], ids[2]]);

    // Bulk marks take the Inbox's tags filter (the SDK's type of `tags` is an empty object: sent raw).
    const byTag = await s.svc.request('POST', '/v2/subscribers/archivist/notifications/archive', { body: { tags: { or: ['ops'] } } });
    expect(byTag.status).toBe(204);
    expect(await inbox()).toEqual([ids[1]]);
    await api.subscribers.notifications.deleteAll({}, 'archivist');
    expect(await inboxList(novu)).toEqual([]);
  });

  it('mark all read and mark seen, by ids or all', async () => {
    const ids = await deliver('bulk', ['welcome', 'alert', 'welcome']);
    await api.subscribers.notifications.markAsSeen({ notificationIds: [ids[0]!] }, 'bulk');
    const seen = await api.subscribers.notifications.list({ subscriberId: 'bulk', seen: true });
    expect(seen.result.data.map((n) => n.id)).toEqual([ids[0]]);
    const byTag = await s.svc.request('POST', '/v2/subscribers/bulk/notifications/read', { body: { tags: ['onboarding'] } });
    expect(byTag.status).toBe(204);
    const unread = await api.subscribers.notifications.list({ subscriberId: 'bulk', read: false });
    expect(unread.result.data.map((n) => n.id)).toEqual([ids[1]]);
    await api.subscribers.notifications.markAllAsRead({}, 'bulk');
    expect((await api.subscribers.notifications.list({ subscriberId: 'bulk', read: false })).result.data).toEqual([]);
  });

  it('snooze hides a notification until service time passes; it then comes back as the service brings it back', async () => {
    const [newer, older] = await deliver('sleeper', ['welcome', 'welcome']);
    const novu = s.client('sleeper');
    await connected(novu);
    await api.subscribers.notifications.markAsRead({ subscriberId: 'sleeper', notificationId: older! });
    const until = new Date(s.svc.clock.now() + 3_600_000);
    const r = await api.subscribers.notifications.snooze({
      subscriberId: 'sleeper',
      notificationId: older!,
      snoozeSubscriberNotificationDto: { snoozeUntil: until },
    });
    expect(r.result).toMatchObject({ isSnoozed: true, snoozedUntil: until.toISOString() });
    expect((await inboxList(novu, { snoozed: false })).map((n) => n.id)).toEqual([newer]);
    expect((await inboxList(novu, { snoozed: true })).map((n) => n.id)).toEqual([older]);
    expect((await api.subscribers.notifications.count('sleeper', JSON.stringify([{ snoozed: false }]))).result[0]!.count).toBe(1);

    // In the past: refused.
    const past = new Date(s.svc.clock.now() - 1000);
    const refused = api.subscribers.notifications.snooze({
      subscriberId: 'sleeper',
      notificationId: newer!,
      snoozeSubscriberNotificationDto: { snoozeUntil: past },
    });
    expect((await sdkFailure(refused)).status).toBe(400);

    // At its end (service time), it is delivered again: at the top, unread, announced on the socket.
    const back = nextEvent(novu, 'notifications.notification_received');
    s.svc.clock.advance(3_600_000);
    const announced = await back;
    expect(announced).toMatchObject({ id: older, isRead: false, isSnoozed: false, createdAt: until.toISOString() });
    const listed = await api.subscribers.notifications.list({ subscriberId: 'sleeper' });
    expect(listed.result.data.map((n) => [n.id, n.isRead, n.isSnoozed])).toEqual([
      [older, false, false],
      [newer, false, false],
    ]);
    expect(listed.result.data[0]!.deliveredAt?.at(-1)).toBe(until.toISOString());
    const msg = (await s.svc.request('GET', `/v1/svc-dev/messages/${older}`)).body.data;
    const event = (await s.svc.request('GET', `/v1/notifications/${msg._notificationId}`)).body.data;
    const details = event.jobs.flatMap((j: { executionDetails: { detail: string }[] }) => j.executionDetails.map((d) => d.detail));
    expect(details).toEqual(expect.arrayContaining(['Message snoozed', 'Message unsnoozed']));

    // Unsnooze ends a snooze at once; one that is not snoozed is not found, as the service answers.
    await api.subscribers.notifications.snooze({
      subscriberId: 'sleeper',
      notificationId: newer!,
      snoozeSubscriberNotificationDto: { snoozeUntil: new Date(s.svc.clock.now() + 60_000) },
    });
    const awake = await api.subscribers.notifications.unsnooze({ subscriberId: 'sleeper', notificationId: newer! });
    expect(awake.result.isSnoozed).toBe(false);
    expect((await inboxList(novu, { snoozed: false })).map((n) => n.id)).toEqual([older, newer]);
    expect((await sdkFailure(api.subscribers.notifications.unsnooze({ subscriberId: 'sleeper', notificationId: newer! }))).status).toBe(404);
  });

  it('a snooze that ended while nothing ran (no timer) is woken by the next read, through the Inbox or the API', async () => {
    const [id] = await deliver('restarted', ['welcome']);
    const until = s.svc.clock.now() + 60_000;
    // Straight into the store: as a snooze kept across a restart of svc dev, whose timers are in memory.
    const subscriber = s.svc.store.subscribers.find(s.svc.store.environments.findByKey(TEST_KEY)!.id, 'restarted')!;
    s.svc.store.tx(() => s.svc.store.inbox.change(subscriber._id!, id!, { kind: 'snooze', until }));
    s.svc.clock.advance(120_000);
    // The Inbox reads it woken too, first (no API call before it).
    const inbox = await inboxList(s.client('restarted'));
    expect(inbox.map((n) => [n.id, n.isRead, n.isSnoozed, n.createdAt])).toEqual([[id, false, false, new Date(until).toISOString()]]);
    const listed = await api.subscribers.notifications.list({ subscriberId: 'restarted' });
    expect(listed.result.data[0]).toMatchObject({ id, isSnoozed: false, createdAt: new Date(until).toISOString() });
    expect((await api.subscribers.notifications.feed({ subscriberId: 'restarted' })).result.data[0]?.createdAt?.toISOString()).toBe(
      new Date(until).toISOString(),
    );
  });

  it('completes and reverts an action', async () => {
    const [id] = await deliver('actor', ['welcome']);
    const done = await api.subscribers.notifications.completeAction({ subscriberId: 'actor', notificationId: id!, actionType: 'primary' });
    expect(done.result.primaryAction).toMatchObject({ label: 'Get started', isCompleted: true });
    expect(done.result.secondaryAction?.isCompleted).toBe(false);
    const novu = s.client('actor');
    expect((await inboxList(novu))[0]?.primaryAction?.isCompleted).toBe(true);
    const reverted = await api.subscribers.notifications.revertAction({ subscriberId: 'actor', notificationId: id!, actionType: 'primary' });
    expect(reverted.result.primaryAction?.isCompleted).toBe(false);
    const bad = await s.svc.request('PATCH', `/v2/subscribers/actor/notifications/${id}/actions/tertiary/complete`);
    expect(bad.status).toBe(422);
  });
});

describe('v1: feed, unseen count, mark-all, message action', () => {
  it('pages the feed and counts the unseen', async () => {
    const ids = await deliver('feeder', ['welcome', 'alert', 'welcome']);
    const feed = await api.subscribers.notifications.feed({ subscriberId: 'feeder', limit: 2 });
    // As the service counts: this page's length, capped at the page size.
    expect(feed.result).toMatchObject({ totalCount: 2, hasMore: true, pageSize: 2, page: 0 });
    expect(feed.result.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(feed.result.data[0]).toMatchObject({ channel: 'in_app', read: false, seen: false, archived: false });
    const next = await api.subscribers.notifications.feed({ subscriberId: 'feeder', limit: 2, page: 1 });
    expect(next.result.data.map((m) => m.id)).toEqual(ids.slice(2));
    expect(next.result).toMatchObject({ totalCount: 1, hasMore: false, page: 1 });
    const byPayload = await api.subscribers.notifications.feed({ subscriberId: 'feeder', payload: Buffer.from(JSON.stringify({ n: 1 })).toString('base64') });
    expect(byPayload.result.data.map((m) => m.id)).toEqual([ids[1]]);

    expect((await api.subscribers.notifications.unseenCount({ subscriberId: 'feeder' })).result.count).toBe(3);
    const novu = s.client('feeder');
    await connected(novu);
    const unseen = nextEvent(novu, 'notifications.unseen_count_changed');
    const marked = await api.subscribers.messages.markAll({ markAs: 'seen' }, 'feeder');
    expect(marked.result).toBe(3);
    expect(await unseen).toBe(0);
    expect((await api.subscribers.notifications.unseenCount({ subscriberId: 'feeder' })).result.count).toBe(0);
    expect((await api.subscribers.notifications.feed({ subscriberId: 'feeder', seen: false })).result.data).toEqual([]);

    expect((await api.subscribers.messages.markAll({ markAs: 'read' }, 'feeder')).result).toBe(3);
    expect((await inboxList(novu)).every((n) => n.isRead)).toBe(true);
    expect((await api.subscribers.messages.markAll({ markAs: 'read' }, 'feeder')).result).toBe(0);
  });

  it("answers an unknown subscriber in each v1 use case's words", async () => {
    const feed = await s.svc.request('GET', '/v1/subscribers/nobody/notifications/feed');
    expect(feed.status).toBe(400);
    expect(feed.body.message).toBe('Subscriber not found for this environment with the id: nobody. Make sure to create a subscriber before fetching the feed.');
    const unseen = await s.svc.request('GET', '/v1/subscribers/nobody/notifications/unseen');
    expect(unseen.status).toBe(400);
    expect(unseen.body.message).toMatch(/^Subscriber nobody is not exist in environment [0-9a-f]{24}, please provide a valid subscriber identifier$/);
    const markAll = await s.svc.request('POST', '/v1/subscribers/nobody/messages/mark-all', { body: { markAs: 'read' } });
    expect(markAll.status).toBe(404);
    expect(markAll.body.message).toMatch(/^Subscriber nobody does not exist in environment /);
  });

  it('marks a message action done with its payload, as the Inbox then shows', async () => {
    const [id] = await deliver('clicker', ['welcome']);
    const r = await api.subscribers.messages.updateAsSeen({
      subscriberId: 'clicker',
      messageId: id!,
      type: 'secondary',
      markMessageActionAsSeenDto: { status: 'done' },
    });
    expect(r.result.cta.action?.status).toBe('done');
    expect(r.result.cta.action?.result?.type).toBe('secondary');
    const novu = s.client('clicker');
    expect((await inboxList(novu))[0]?.secondaryAction?.isCompleted).toBe(true);
    // The SDK's type of `payload` is an empty object (it sends `{}`): what a caller sends is kept.
    const raw = await s.svc.request('POST', `/v1/subscribers/clicker/messages/${id}/actions/primary`, {
      body: { status: 'done', payload: { choice: 'later' } },
    });
    expect(raw.status).toBe(201);
    expect(raw.body.data.cta.action.result).toEqual({ type: 'primary', payload: { choice: 'later' } });
    expect((await inboxList(novu))[0]?.primaryAction?.isCompleted).toBe(true);
    const pending = await api.subscribers.messages.updateAsSeen({
      subscriberId: 'clicker',
      messageId: id!,
      type: 'primary',
      markMessageActionAsSeenDto: { status: 'pending' },
    });
    expect(pending.result.cta.action?.status).toBe('pending');
    expect((await inboxList(novu))[0]?.primaryAction?.isCompleted).toBe(false);
  });
});

describe("answers fit the service's OpenAPI document", () => {
  it('every operation of the family', async () => {
    const [a, b] = await deliver('shapes', ['welcome', 'alert']);
    const N = '/v2/subscribers/{subscriberId}/notifications';
    const one = `${N}/{notificationId}`;
    const until = () => new Date(s.svc.clock.now() + 60_000).toISOString();
    const calls: [string, string, string, unknown?][] = [
      ['GET', N, '/v2/subscribers/shapes/notifications?limit=5'],
      ['GET', `${N}/count`, `/v2/subscribers/shapes/notifications/count?filters=${encodeURIComponent('[{"read":false},{"tags":["ops"]}]')}`],
      ['PATCH', `${one}/read`, `/v2/subscribers/shapes/notifications/${a}/read`],
      ['PATCH', `${one}/unread`, `/v2/subscribers/shapes/notifications/${a}/unread`],
      ['PATCH', `${one}/archive`, `/v2/subscribers/shapes/notifications/${a}/archive`],
      ['PATCH', `${one}/unarchive`, `/v2/subscribers/shapes/notifications/${a}/unarchive`],
      ['PATCH', `${one}/snooze`, `/v2/subscribers/shapes/notifications/${a}/snooze`, { snoozeUntil: until() }],
      ['PATCH', `${one}/unsnooze`, `/v2/subscribers/shapes/notifications/${a}/unsnooze`],
      ['PATCH', `${one}/actions/{actionType}/complete`, `/v2/subscribers/shapes/notifications/${b}/actions/primary/complete`],
      ['PATCH', `${one}/actions/{actionType}/revert`, `/v2/subscribers/shapes/notifications/${b}/actions/primary/revert`],
      ['GET', '/v1/subscribers/{subscriberId}/notifications/feed', '/v1/subscribers/shapes/notifications/feed'],
      ['GET', '/v1/subscribers/{subscriberId}/notifications/unseen', '/v1/subscribers/shapes/notifications/unseen'],
      [
        'POST',
        '/v1/subscribers/{subscriberId}/messages/{messageId}/actions/{type}',
        `/v1/subscribers/shapes/messages/${a}/actions/primary`,
        { status: 'done' },
      ],
      ['POST', '/v1/subscribers/{subscriberId}/messages/mark-all', '/v1/subscribers/shapes/messages/mark-all', { markAs: 'read' }],
      ['POST', `${N}/seen`, '/v2/subscribers/shapes/notifications/seen', {}],
      ['POST', `${N}/read`, '/v2/subscribers/shapes/notifications/read', {}],
      ['POST', `${N}/read-archive`, '/v2/subscribers/shapes/notifications/read-archive', {}],
      ['POST', `${N}/archive`, '/v2/subscribers/shapes/notifications/archive', {}],
      ['DELETE', one, `/v2/subscribers/shapes/notifications/${a}`],
      ['POST', `${N}/delete`, '/v2/subscribers/shapes/notifications/delete', {}],
    ];
    for (const [method, template, url, body] of calls) {
      const r = await s.svc.request(method, url, body !== undefined ? { body } : {});
      expect(r.status, `${method} ${url}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
      const unwrapped = r.body && typeof r.body === 'object' && Object.keys(r.body).length === 1 && 'data' in r.body ? r.body.data : r.body;
      // A 204 has no body to check (the SDK calls above read those answers as the service's).
      if (r.status !== 204) expect(openApiProblems(method, template, r.status, unwrapped), `${method} ${template}`).toEqual([]);
    }
  });
});

// The real `@novu/js` Inbox client (pinned in package.json) against the local service on 127.0.0.1:
// session, list, counts with filters, every state change, bulk marks, a trigger arriving through the
// socket while listening, and preferences read, changed and honoured by the next trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxCounts, InboxNotification, InboxNotificationsPage, InboxSession } from '../../../src/api/schemas/inbox.js';
import { type Listening, listening, nextEvent } from './helpers.js';

let s: Listening;
beforeAll(async () => {
  s = await listening();
});
afterAll(() => s.close());

async function trigger(to: string, payload: Record<string, unknown> = {}, name = 'welcome'): Promise<void> {
  const r = await s.svc.request('POST', '/v1/events/trigger', { body: { name, to, payload } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  await s.svc.runner.idle();
}

const list = async (novu: ReturnType<Listening['client']>, filter: Record<string, unknown> = {}) => {
  const r = await novu.notifications.list({ limit: 50, useCache: false, ...filter } as never);
  expect(r.error).toBeUndefined();
  return r.data!.notifications;
};

describe('the Inbox client against svc dev', () => {
  it('opens a session, creating the subscriber, in the service shape', async () => {
    const r = await s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'newcomer' });
    expect(r.status).toBe(201);
    const data = InboxSession.parse(r.body.data);
    expect(data).toMatchObject({ totalUnreadCount: 0, unreadCount: { total: 0 }, applicationIdentifier: s.appId, isDevelopmentMode: true });
    expect(data.token.split('.')).toHaveLength(3);
    const sub = await s.svc.request('GET', '/v2/subscribers/newcomer');
    expect(sub.status).toBe(200);
    const bad = await s.inbox('POST', '/session', undefined, { applicationIdentifier: 'nope', subscriberId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Please provide a valid application identifier');
  });

  it('receives a notification triggered while listening, through the socket, with the unread count', async () => {
    const novu = s.client('ada');
    expect(await list(novu)).toEqual([]);
    // The socket connects once something listens; the trigger waits for its handshake (the service
    // joins the subscriber's room as it accepts the connection).
    const connected = new Promise<any>((resolve) => novu.on('socket.connect.resolved' as never, resolve as never));
    const received = nextEvent(novu, 'notifications.notification_received');
    const unread = nextEvent(novu, 'notifications.unread_count_changed');
    expect((await connected)?.error).toBeUndefined();
    await trigger('ada', { name: 'Ada' });
    const n = await received;
    expect(n.subject).toBe('Welcome to Acme');
    expect(n.body).toBe('Welcome Ada! Your workspace is ready.');
    expect(n.isRead).toBe(false);
    expect(n.workflow?.identifier).toBe('welcome');
    expect((await unread).total).toBe(1);
  });

  it('lists, counts with filters, and every state change holds', async () => {
    const novu = s.client('bob');
    await trigger('bob', { name: 'Bob' });
    await trigger('bob', { name: 'Bob 2' });
    await trigger('bob', { name: 'Bob 3' }, 'comment-digest');
    await s.svc.clock.advance(11 * 60_000);
    await s.svc.runner.idle();
    const all = await list(novu);
    expect(all.map((n) => n.body)).toEqual(['Someone: \n', 'Welcome there! Your workspace is ready.', 'Welcome there! Your workspace is ready.']);
    expect(all).toHaveLength(3);
    for (const n of all) InboxNotification.parse(JSON.parse(JSON.stringify(n)));

    const [first, second] = all as [(typeof all)[0], (typeof all)[0]];
    expect((await first.read()).data?.isRead).toBe(true);
    expect((await first.unread()).data?.isRead).toBe(false);
    expect((await first.read()).error).toBeUndefined();
    expect((await second.seen()).error).toBeUndefined();
    const archived = await second.archive();
    expect(archived.data?.isArchived).toBe(true);
    expect(archived.data?.archivedAt).toBeTruthy();

    const counts = await novu.notifications.count({
      filters: [{ read: false }, { read: true }, { archived: true }, { tags: ['onboarding'] }, { tags: ['collaboration'], read: false }, { seen: true }],
    } as never);
    expect(counts.error).toBeUndefined();
    expect((counts.data as unknown as { counts: { count: number }[] }).counts.map((c) => c.count)).toEqual([1, 2, 1, 2, 0, 2]);

    expect((await list(novu, { archived: true })).map((n) => n.id)).toEqual([second.id]);
    expect((await list(novu, { read: false })).map((n) => n.isRead)).toEqual([false]);
    expect((await second.unarchive()).data?.isArchived).toBe(false);

    const until = new Date(s.svc.clock.now() + 3_600_000).toISOString();
    const snoozed = await first.snooze(until);
    expect(snoozed.error).toBeUndefined();
    expect(snoozed.data?.isSnoozed).toBe(true);
    expect((await list(novu, { snoozed: true })).map((n) => n.id)).toEqual([first.id]);
    expect((await list(novu, { snoozed: false })).map((n) => n.id)).not.toContain(first.id);
    expect((await first.unsnooze()).data?.isSnoozed).toBe(false);

    // The raw list answer and its count: the service's envelope, and `filter` repeated.
    const token = await s.session('bob');
    const page = await s.inbox('GET', '/notifications?limit=2&read=false&tags[]=onboarding', token);
    expect(page.status).toBe(200);
    const parsed = InboxNotificationsPage.parse(page.body);
    expect(parsed.filter).toEqual({ tags: ['onboarding'], read: false });
    const next = await s.inbox('GET', `/notifications?limit=1&after=${all[0]!.id}`, token);
    expect(next.body.data[0].id).toBe(all[1]!.id);
    expect(next.body.hasMore).toBe(true);
    InboxCounts.parse((await s.inbox('GET', `/notifications/count?filters=${encodeURIComponent('[{"read":false}]')}`, token)).body);
  });

  it('completes and reverts an action, and deletes', async () => {
    await s.svc.request('POST', '/v2/workflows', {
      body: {
        workflowId: 'invite',
        name: 'Invite',
        active: true,
        steps: [
          {
            name: 'Inbox',
            type: 'in_app',
            controlValues: {
              body: 'Join us',
              primaryAction: { label: 'Accept', redirect: { url: '/accept', target: '_self' } },
              secondaryAction: { label: 'Decline' },
              redirect: { url: 'https://app.example.com/invites', target: '_blank' },
            },
          },
        ],
      },
    });
    const novu = s.client('cy');
    await trigger('cy', {}, 'invite');
    const [n] = await list(novu);
    expect(n!.primaryAction).toMatchObject({ label: 'Accept', isCompleted: false });
    // Where a click leads: the client navigates to an action's redirect (a button without one has none).
    expect(n!.primaryAction?.redirect).toEqual({ url: '/accept', target: '_self' });
    expect(n!.secondaryAction).toMatchObject({ label: 'Decline', isCompleted: false });
    expect(n!.secondaryAction?.redirect).toBeUndefined();
    expect(n!.redirect).toEqual({ url: 'https://app.example.com/invites', target: '_blank' });
    const done = await n!.completePrimary();
    expect(done.error).toBeUndefined();
    expect(done.data?.primaryAction?.isCompleted).toBe(true);
    const reverted = await n!.revertPrimary();
    expect(reverted.data?.primaryAction?.isCompleted).toBe(false);
    expect((await n!.delete()).error).toBeUndefined();
    expect(await list(novu)).toEqual([]);
  });

  it('bulk marks: read all, seen, archive all read, archive all, delete all', async () => {
    const novu = s.client('dee');
    for (let i = 0; i < 3; i++) await trigger('dee', { name: `D${i}` });
    expect((await novu.notifications.seenAll()).error).toBeUndefined();
    expect((await list(novu, { seen: false })).length).toBe(0);
    const [one] = await list(novu);
    await one!.read();
    expect((await novu.notifications.archiveAllRead()).error).toBeUndefined();
    expect((await list(novu, { archived: true })).map((n) => n.id)).toEqual([one!.id]);
    expect((await novu.notifications.readAll()).error).toBeUndefined();
    expect((await list(novu, { read: false })).length).toBe(0);
    expect((await novu.notifications.archiveAll()).error).toBeUndefined();
    expect((await list(novu, { archived: false })).length).toBe(0);
    expect((await novu.notifications.deleteAll()).error).toBeUndefined();
    expect(await list(novu)).toEqual([]);
  });

  it('preferences: read, changed through the client, and honoured by the next trigger', async () => {
    const novu = s.client('eve');
    const prefs = await novu.preferences.list();
    expect(prefs.error).toBeUndefined();
    const welcome = prefs.data!.find((p) => p.workflow?.identifier === 'welcome')!;
    expect(welcome.channels).toEqual({ in_app: true, email: true });
    // The critical workflow is not listed (the service's default), the global one is.
    expect(prefs.data!.some((p) => p.workflow?.identifier === 'otp')).toBe(false);
    expect(prefs.data!.some((p) => p.level === 'global')).toBe(true);
    const updated = await welcome.update({ channels: { in_app: false } });
    expect(updated.error).toBeUndefined();
    expect(updated.data?.channels.in_app).toBe(false);

    await trigger('eve', { name: 'Eve' });
    expect(await list(novu)).toEqual([]);
    const events = await s.svc.request('GET', '/v1/notifications?subscriberIds=eve');
    const event = await s.svc.request('GET', `/v1/notifications/${events.body.data[0]._id}`);
    const details = event.body.data.jobs.flatMap((j: { executionDetails: { detail: string }[] }) => j.executionDetails.map((d) => d.detail));
    expect(details).toContain('Step filtered by subscriber preferences: the subscriber turned the in_app channel off for this workflow');

    // The operator sees and changes the same preferences.
    const op = await s.svc.request('GET', '/v2/subscribers/eve/preferences');
    expect(op.body.data.workflows.find((w: { workflow: { identifier: string } }) => w.workflow.identifier === 'welcome').channels.in_app).toBe(false);
    await s.svc.request('PATCH', '/v2/subscribers/eve/preferences', { body: { workflowId: 'welcome', channels: { in_app: true } } });
    await trigger('eve', { name: 'Eve' });
    expect((await list(novu)).length).toBe(1);

    // A global switch off applies to every workflow the subscriber did not decide for.
    const global = await s.inbox('PATCH', '/preferences', await s.session('eve'), { in_app: false });
    expect(global.body.data).toMatchObject({ level: 'global', channels: { in_app: false } });
    await trigger('eve', {}, 'invite');
    expect((await list(novu)).length).toBe(1);
    await trigger('eve', { name: 'Eve' });
    expect((await list(novu)).length).toBe(2);
  });

  it('bulk preference changes, from the Inbox and from the operator API', async () => {
    const token = await s.session('gus');
    const bulk = await s.inbox('PATCH', '/preferences/bulk', token, {
      preferences: [
        { workflowId: 'welcome', email: false },
        { workflowId: 'invite', in_app: false },
      ],
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.map((p: { workflow: { identifier: string }; channels: unknown }) => [p.workflow.identifier, p.channels])).toEqual([
      ['welcome', { in_app: true, email: false }],
      ['invite', { in_app: false }],
    ]);
    const unknown = await s.inbox('PATCH', '/preferences/bulk', token, { preferences: [{ workflowId: 'nope', email: false }] });
    expect(unknown.status).toBe(404);
    const op = await s.svc.request('PATCH', '/v2/subscribers/gus/preferences/bulk', {
      body: { preferences: [{ workflowId: 'invite', channels: { in_app: true } }] },
    });
    expect(op.status).toBe(200);
    expect(op.body.data[0]).toMatchObject({ enabled: true, channels: { in_app: true }, workflow: { identifier: 'invite' } });
    const global = await s.inbox('GET', '/preferences/global', token);
    expect(global.body.data).toEqual({ level: 'global', enabled: true, channels: { in_app: true, email: true, sms: true, push: true, chat: true } });
  });

  it('a critical workflow delivers whatever the subscriber prefers', async () => {
    const token = await s.session('fay');
    await s.inbox('PATCH', '/preferences', token, { in_app: false, sms: false });
    await s.svc.request('POST', '/v2/workflows', {
      body: { workflowId: 'alarm', name: 'Alarm', active: true, critical: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Fire' } }] },
    });
    const refused = await s.inbox('PATCH', '/preferences/alarm', token, { in_app: false });
    expect(refused.status).toBe(400);
    await trigger('fay', {}, 'alarm');
    const page = await s.inbox('GET', '/notifications', token);
    expect(page.body.data.map((n: { body: string }) => n.body)).toEqual(['Fire']);
  });
});

// Subscriber search with cursors, online status, messages and mark-as.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';

const svc = testService({ empty: true });
afterAll(() => svc.close());

const names = [
  ['s01', 'Ada', 'Lovelace', 'ada@example.com', '+15550000001'],
  ['s02', 'Grace', 'Hopper', 'grace@Example.com', '+15550000002'],
  ['s03', 'Alan', 'Turing', 'alan@example.org', '+44000000003'],
  ['s04', 'Ada', 'Byron', 'byron@example.com', '+15550000004'],
  ['s05', 'Edsger', 'Dijkstra', 'ed@example.nl', '+31000000005'],
];
beforeAll(async () => {
  await svc.request('POST', '/v2/workflows', {
    body: { name: 'Inbox', workflowId: 'inbox', active: true, steps: [{ name: 'I', type: 'in_app', controlValues: { body: 'hello' } }] },
  });
  for (const [subscriberId, firstName, lastName, email, phone] of names) {
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'inbox', to: { subscriberId, firstName, lastName, email, phone } } });
    svc.clock.advance(1000);
  }
  await svc.runner.idle();
});

const search = async (q: string) => {
  const r = await svc.request('GET', `/v2/subscribers${q}`);
  expect(r.status).toBe(200);
  return operations.searchSubscribers.response.parse(r.body);
};
const ids = (env: { data: { subscriberId: string }[] }) => env.data.map((s) => s.subscriberId);

describe('search', () => {
  it('email and name are partial and ignore case; phone and subscriberId are whole values', async () => {
    expect(ids(await search('?email=example.com'))).toEqual(['s04', 's02', 's01']);
    expect(ids(await search('?email=EXAMPLE.COM'))).toEqual(['s04', 's02', 's01']);
    // The text is escaped, not a pattern: a dot is a dot.
    expect(ids(await search('?email=example.c.m'))).toEqual([]);
    // ground-truth.md: a part of a number finds nothing, the whole stored number finds it.
    expect(ids(await search('?phone=%2B1555'))).toEqual([]);
    expect(ids(await search('?phone=0000003'))).toEqual([]);
    const s01Phone = names.find((n) => n[0] === 's01')![4]!;
    expect(ids(await search(`?phone=${encodeURIComponent(s01Phone)}`))).toEqual(['s01']);
    expect(ids(await search('?name=Ada%20B'))).toEqual(['s04']);
    expect(ids(await search('?name=ada'))).toEqual(['s04', 's01']);
    expect(ids(await search('?name=ada%20lovelace'))).toEqual(['s01']);
    expect(ids(await search('?name=LOVE'))).toEqual(['s01']);
    expect(ids(await search('?subscriberId=s0'))).toEqual([]);
    expect(ids(await search('?subscriberId=S03'))).toEqual([]);
    expect(ids(await search('?subscriberId=s03'))).toEqual(['s03']);
  });

  it('case folding is Unicode, not ASCII only', async () => {
    await svc.request('POST', '/v2/subscribers', { body: { subscriberId: 'u1', firstName: 'Élodie', lastName: 'Straße', email: 'ÉLODIE@example.fr' } });
    try {
      expect(ids(await search('?name=élodie'))).toEqual(['u1']);
      expect(ids(await search('?email=élodie@'))).toEqual(['u1']);
    } finally {
      await svc.request('DELETE', '/v2/subscribers/u1');
    }
  });

  it('pages forward and back with id cursors; totalCount counts the whole filter', async () => {
    const p1 = await search('?limit=2');
    expect(ids(p1)).toEqual(['s05', 's04']);
    expect(p1).toMatchObject({ previous: null, totalCount: 5, totalCountCapped: false });
    expect(p1.next).toBe(p1.data[1]!._id);
    const p2 = await search(`?limit=2&after=${p1.next}`);
    expect(ids(p2)).toEqual(['s03', 's02']);
    expect(p2.previous).toBe(p2.data[0]!._id);
    const p3 = await search(`?limit=2&after=${p2.next}`);
    expect(ids(p3)).toEqual(['s01']);
    expect(p3.next).toBeNull();
    const back = await search(`?limit=2&before=${p3.previous}`);
    expect(ids(back)).toEqual(['s03', 's02']);
    const withCursor = await search(`?limit=2&after=${p1.next}&includeCursor=true`);
    expect(ids(withCursor)).toEqual(['s04', 's03']);
  });

  it('ASC order and orderBy updatedAt', async () => {
    expect(ids(await search('?orderDirection=ASC&limit=3'))).toEqual(['s01', 's02', 's03']);
    await svc.request('PATCH', '/v1/subscribers/s01/online-status', { body: { isOnline: true } });
    expect(ids(await search('?orderBy=updatedAt&limit=1'))).toEqual(['s01']);
  });

  it('an unknown cursor → empty page; after and before together → 400', async () => {
    expect(await search('?after=ffffffffffffffffffffffff')).toMatchObject({ data: [], next: null, previous: null });
    const both = await svc.request('GET', '/v2/subscribers?after=a&before=b');
    expect(both.status).toBe(400);
  });
});

describe('online status', () => {
  it('isOnline false also sets lastOnlineAt; unknown subscriber → 404', async () => {
    const on = await svc.request('PATCH', '/v1/subscribers/s02/online-status', { body: { isOnline: true } });
    expect(operations.updateOnlineStatus.response.parse(on.body.data)).toMatchObject({ isOnline: true, lastOnlineAt: null });
    svc.clock.advance(5000);
    const off = await svc.request('PATCH', '/v1/subscribers/s02/online-status', { body: { isOnline: false } });
    expect(off.body.data).toMatchObject({ isOnline: false, lastOnlineAt: new Date(svc.clock.now()).toISOString() });
    expect((await svc.request('PATCH', '/v1/subscribers/ghost/online-status', { body: { isOnline: true } })).status).toBe(404);
    expect((await svc.request('PATCH', '/v1/subscribers/s02/online-status', { body: { isOnline: 'yes' } })).status).toBe(422);
  });
});

describe('messages and mark-as', () => {
  const messagesOf = async (sub: string) => {
    const r = await svc.request('GET', `/v1/messages?subscriberId=${sub}&channel=in_app`);
    return operations.listMessages.response.parse(r.body);
  };

  it('lists messages with page envelope and filters', async () => {
    const all = operations.listMessages.response.parse((await svc.request('GET', '/v1/messages?limit=2')).body);
    expect(all).toMatchObject({ totalCount: 5, hasMore: true, pageSize: 2, page: 0 });
    expect((await messagesOf('s01')).data).toHaveLength(1);
    expect((await messagesOf('ghost')).data).toHaveLength(0);
    expect((await svc.request('GET', '/v1/messages?channel=email')).body.data).toHaveLength(0);
  });

  it('read sets read and seen with dates; unread keeps seen; only own messages change', async () => {
    const [mine] = (await messagesOf('s01')).data;
    const [theirs] = (await messagesOf('s03')).data;
    const r = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: [mine!._id, theirs!._id], markAs: 'read' } });
    expect(r.status).toBe(201);
    const changed = operations.markMessagesAs.response.parse(r.body.data);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ _id: mine!._id, read: true, seen: true, lastReadDate: expect.any(String), lastSeenDate: expect.any(String) });
    expect((await messagesOf('s03')).data[0]).toMatchObject({ read: false, seen: false });
    const unread = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: mine!._id, markAs: 'unread' } });
    expect(unread.body.data[0]).toMatchObject({ read: false, seen: true });
    const unseen = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: mine!._id, markAs: 'unseen' } });
    expect(unseen.body.data[0]).toMatchObject({ read: false, seen: false });
    const seen = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: mine!._id, markAs: 'seen' } });
    expect(seen.body.data[0]).toMatchObject({ read: false, seen: true });
  });

  it('no messageId, or an empty list of them → 400 "messageId is required", in the service\'s words', async () => {
    for (const body of [{ markAs: 'read' }, { messageId: [], markAs: 'read' }]) {
      const r = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body });
      expect(r).toMatchObject({ status: 400, body: { message: 'messageId is required' } });
    }
  });

  it('a read shows in the event timeline as a ReadConfirmation', async () => {
    const [m] = (await messagesOf('s04')).data;
    await svc.request('POST', '/v1/subscribers/s04/messages/mark-as', { body: { messageId: m!._id, markAs: 'read' } });
    const ev = await svc.request('GET', `/v1/notifications/${m!._notificationId}`);
    const detail = operations.getEvent.response.parse(ev.body.data);
    expect(detail.jobs![0]!.executionDetails.at(-1)).toMatchObject({ status: 'ReadConfirmation', detail: 'Message read' });
  });

  it('bad ids → 422, an empty list → 400, unknown subscriber → 404', async () => {
    const bad = await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: 'nope', markAs: 'read' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)[0]).toMatch(/^messageId/);
    expect((await svc.request('POST', '/v1/subscribers/s01/messages/mark-as', { body: { messageId: [], markAs: 'read' } })).status).toBe(400);
    const ghost = await svc.request('POST', '/v1/subscribers/ghost/messages/mark-as', { body: { messageId: 'aaaaaaaaaaaaaaaaaaaaaaaa', markAs: 'read' } });
    expect(ghost.status).toBe(404);
  });
});

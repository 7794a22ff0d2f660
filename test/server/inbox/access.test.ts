// Who may do what in the Inbox API: one subscriber's token never reads or changes another's
// messages (every route tried), the socket refuses a bad token and tells only the subscriber's own
// room, HMAC is enforced once switched on, a wrong or expired token is a 401 in the service's shape,
// a malformed filter a 400 naming it, and CORS answers on /v1/inbox/* only.
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberHash } from '../../../src/server/inbox/jwt.js';
import { TEST_KEY } from '../../helpers/service.js';
import { OFFSET_EVENT } from '../../../src/server/inbox/realtime.js';
import { type Listening, listening } from './helpers.js';

let s: Listening;
let ada: string;
let zed: string;
let adaIds: string[];

beforeAll(async () => {
  s = await listening();
  ada = await s.session('ada');
  zed = await s.session('zed');
  for (let i = 0; i < 3; i++) await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
  await s.svc.runner.idle();
  adaIds = (await s.inbox('GET', '/notifications', ada)).body.data.map((n: { id: string }) => n.id);
  expect(adaIds).toHaveLength(3);
});
afterAll(() => s.close());

describe("one subscriber's token and another's messages", () => {
  const id = () => adaIds[0]!;
  const routes: [string, () => string, unknown?][] = [
    ['PATCH', () => `/notifications/${id()}/read`],
    ['PATCH', () => `/notifications/${id()}/unread`],
    ['PATCH', () => `/notifications/${id()}/archive`],
    ['PATCH', () => `/notifications/${id()}/unarchive`],
    ['PATCH', () => `/notifications/${id()}/snooze`, { snoozeUntil: new Date(Date.parse('2026-01-01T05:00:00Z')).toISOString() }],
    ['PATCH', () => `/notifications/${id()}/unsnooze`],
    ['PATCH', () => `/notifications/${id()}/complete`, { actionType: 'primary' }],
    ['PATCH', () => `/notifications/${id()}/revert`, { actionType: 'primary' }],
    ['DELETE', () => `/notifications/${id()}/delete`],
  ];

  it.each(
    routes.map(
      (r) =>
        [
          `${r[0]} ${r[1]
            .toString()
            .replace(/.*`\/notifications\/\$\{id\(\)\}/s, '/notifications/:id')
            .replace(/`.*$/s, '')}`,
          r,
        ] as const,
    ),
  )('%s: 404, nothing changed', async (_, [method, path, body]) => {
    const before = JSON.stringify((await s.inbox('GET', '/notifications', ada)).body.data);
    const r = await s.inbox(method, path(), zed, body);
    expect(r.status).toBe(404);
    expect(r.body.message).toBe(`Notification with id: ${id()} is not found.`);
    expect(JSON.stringify((await s.inbox('GET', '/notifications', ada)).body.data)).toBe(before);
  });

  it('list, counts, bulk marks and seen by id only ever touch the caller', async () => {
    const before = JSON.stringify((await s.inbox('GET', '/notifications', ada)).body.data);
    expect((await s.inbox('GET', '/notifications', zed)).body.data).toEqual([]);
    expect((await s.inbox('GET', `/notifications?after=${id()}`, zed)).body.data).toEqual([]);
    const counts = await s.inbox('GET', `/notifications/count?filters=${encodeURIComponent('[{}]')}`, zed);
    expect(counts.body.data[0].count).toBe(0);
    for (const path of ['/notifications/read', '/notifications/archive', '/notifications/read-archive', '/notifications/delete']) {
      expect((await s.inbox('POST', path, zed, {})).status).toBe(204);
    }
    expect((await s.inbox('POST', '/notifications/seen', zed, { notificationIds: adaIds })).status).toBe(204);
    expect(JSON.stringify((await s.inbox('GET', '/notifications', ada)).body.data)).toBe(before);
    // Preferences are the caller's own too.
    await s.inbox('PATCH', '/preferences/welcome', zed, { in_app: false });
    expect(
      (await s.inbox('GET', '/preferences', ada)).body.data.find((p: { workflow?: { identifier: string } }) => p.workflow?.identifier === 'welcome').channels
        .in_app,
    ).toBe(true);
    await s.inbox('PATCH', '/preferences/welcome', zed, { in_app: true });
  });

  it("the socket tells a subscriber's own room only, and refuses a bad token", async () => {
    const zedSocket = io(s.base, { transports: ['websocket'], query: { token: zed }, reconnection: false });
    const adaSocket = io(s.base, { transports: ['websocket'], query: { token: ada }, reconnection: false });
    const zedGot: unknown[] = [];
    zedSocket.onAny((...args) => zedGot.push(args));
    await Promise.all([zedSocket, adaSocket].map((c) => new Promise((r) => c.on('connect', () => r(undefined)))));
    const received = new Promise<any>((r) => adaSocket.on('notification_received', r));
    const unread = new Promise<any>((r) => adaSocket.on('unread_count_changed', r));
    const unseen = new Promise<any>((r) => adaSocket.on('unseen_count_changed', r));
    await s.svc.request('POST', '/v2/workflows', {
      body: { workflowId: 'plain', name: 'Plain', active: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Plain' } }] },
    });
    await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'plain', to: 'ada' } });
    const { message } = await received;
    // The client maps `cta` without checking it: an object with data and action even when empty.
    expect(message.cta).toEqual({ data: {}, action: {} });
    expect(message.subscriber.subscriberId).toBe('ada');
    expect(await unread).toEqual({ unreadCount: 4, counts: { total: 4, severity: { high: 0, medium: 0, low: 0, none: 4 } } });
    expect(await unseen).toEqual({ unseenCount: 4 });
    // Then a message of zed's own, told last by its unseen count: anything of ada's that reached zed's
    // socket came before it.
    const zedUnseen = new Promise<any>((r) => zedSocket.on('unseen_count_changed', r));
    await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'plain', to: 'zed' } });
    await zedUnseen;
    // Nothing about ada's messages: where zed's own socket starts (svc dev's offset event), then zed's.
    expect(zedGot.map((e) => (e as unknown[])[0])).toEqual([OFFSET_EVENT, 'notification_received', 'unread_count_changed', 'unseen_count_changed']);
    expect(zedGot[0]).toEqual([OFFSET_EVENT, expect.stringMatching(/^\d+\.[0-9a-f]{24}$/)]);
    expect((zedGot[1] as any[])[1].message.subscriber.subscriberId).toBe('zed');
    expect(JSON.stringify(zedGot)).not.toContain(message._id);
    zedSocket.close();
    adaSocket.close();

    const bad = io(s.base, { transports: ['websocket'], query: { token: `${zed.slice(0, -2)}xx` }, reconnection: false });
    const error = await new Promise<Error>((r) => bad.on('connect_error', r));
    expect(error.message).toBe('Unauthorized');
    bad.close();
  });

  it('a snoozed notification is announced again when its snooze ends', async () => {
    const sock = io(s.base, { transports: ['websocket'], query: { token: ada }, reconnection: false });
    await new Promise((r) => sock.on('connect', () => r(undefined)));
    const got: string[] = [];
    sock.on('notification_received', ({ message }) => got.push(message._id));
    const until = new Date(s.svc.clock.now() + 3_600_000).toISOString();
    const r = await s.inbox('PATCH', `/notifications/${adaIds[2]}/snooze`, ada, { snoozeUntil: until });
    expect(r.body.data.isSnoozed).toBe(true);
    // A change the socket must tell after anything the snooze itself set off: one message read and
    // unread again (its counts as they were), told by the second count.
    const counts: number[] = [];
    const toldTwice = new Promise((r) => sock.on('unread_count_changed', ({ unreadCount }) => counts.push(unreadCount) === 2 && r(undefined)));
    expect((await s.inbox('PATCH', `/notifications/${adaIds[0]}/read`, ada)).status).toBe(200);
    expect((await s.inbox('PATCH', `/notifications/${adaIds[0]}/unread`, ada)).status).toBe(200);
    await toldTwice;
    expect(got).toEqual([]);
    s.svc.clock.advance(3_600_000);
    await expect.poll(() => got).toEqual([adaIds[2]]);
    const after = await s.inbox('GET', '/notifications?snoozed=false', ada);
    expect(after.body.data.map((n: { id: string }) => n.id)).toContain(adaIds[2]);
    sock.close();
  });

  it('the operator mark-as tells the socket too', async () => {
    const sock = io(s.base, { transports: ['websocket'], query: { token: ada }, reconnection: false });
    await new Promise((r) => sock.on('connect', () => r(undefined)));
    const unread = new Promise<any>((r) => sock.on('unread_count_changed', r));
    const r = await s.svc.request('POST', '/v1/subscribers/ada/messages/mark-as', { body: { messageId: adaIds[1], markAs: 'read' } });
    expect(r.status).toBe(201);
    expect((await unread).unreadCount).toBe(3);
    sock.close();
  });
});

describe('tokens, HMAC, filters and CORS', () => {
  it('a wrong, foreign or expired token is a 401 in the service shape', async () => {
    for (const token of [undefined, 'x.y.z', `${ada.slice(0, -3)}abc`, TEST_KEY]) {
      const r = await s.inbox('GET', '/notifications', token);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ statusCode: 401, message: 'Unauthorized', path: '/v1/inbox/notifications' });
      expect(typeof r.body.timestamp).toBe('string');
    }
    const fresh = await s.session('ada');
    s.svc.clock.advance(16 * 24 * 3600_000);
    expect((await s.inbox('GET', '/notifications', fresh)).status).toBe(401);
    expect((await s.inbox('GET', '/notifications', await s.session('ada'))).status).toBe(200);
  });

  it('a malformed filter is a 400 that names it', async () => {
    const token = await s.session('ada');
    const cases: [string, string][] = [
      ['/notifications/count?filters=nope', 'Invalid filters, the JSON object should be provided.'],
      [`/notifications/count?filters=${encodeURIComponent('[{"read":"yes"}]')}`, 'Invalid filters[0].read: must be a boolean'],
      [`/notifications/count?filters=${encodeURIComponent(JSON.stringify(Array(31).fill({})))}`, 'Invalid filters: must contain at most 30 filters'],
      ['/notifications/count', 'filters is required'],
      ['/notifications?limit=500', 'limit must not be greater than 100'],
      ['/notifications?read=maybe', 'read must be one of: true, false'],
      ['/notifications?severity[]=urgent', 'severity must be one of: high, medium, low, none'],
      ['/notifications?data=%7Bx', 'Invalid data, the JSON object should be provided.'],
      ['/notifications?color=red', 'Unknown query parameter: color'],
    ];
    for (const [path, message] of cases) {
      const r = await s.inbox('GET', path, token);
      expect(r.status, path).toBe(400);
      expect(r.body.message, path).toBe(message);
    }
  });

  it('HMAC, once on, refuses a session without the right hash', async () => {
    const integrations = await s.svc.request('GET', '/v1/integrations/active');
    const inApp = integrations.body.data.find((i: { channel: string }) => i.channel === 'in_app');
    const put = await s.svc.request('PUT', `/v1/integrations/${inApp._id}`, { body: { credentials: { hmac: true } } });
    expect(put.status).toBe(200);
    expect(put.body.data.credentials).toBeUndefined();
    const open = (extra: Record<string, unknown>) => s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'ada', ...extra });
    for (const hash of [undefined, 'deadbeef', subscriberHash(TEST_KEY, 'zed')]) {
      const r = await open(hash === undefined ? {} : { subscriberHash: hash });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Please provide a valid HMAC hash');
    }
    expect((await open({ subscriberHash: subscriberHash(TEST_KEY, 'ada') })).status).toBe(201);
    // With a valid hash the profile sent is saved; without one it is not.
    await s.svc.request('PUT', `/v1/integrations/${inApp._id}`, { body: { credentials: { hmac: false } } });
    await open({ subscriber: { subscriberId: 'ada', firstName: 'Mallory' } });
    expect((await s.svc.request('GET', '/v2/subscribers/ada')).body.data.firstName).toBe('Ada');
    await open({ subscriber: { subscriberId: 'ada', firstName: 'Adelaide' }, subscriberHash: subscriberHash(TEST_KEY, 'ada') });
    expect((await s.svc.request('GET', '/v2/subscribers/ada')).body.data.firstName).toBe('Adelaide');
  });

  it('answers a preflight from another origin on /v1/inbox/* only', async () => {
    const pre = await fetch(`${s.base}/v1/inbox/notifications`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization,content-type,novu-api-version,novu-client-version',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    // The headers the Inbox clients send, named by the service, not echoed from the request.
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'novu-api-version', 'novu-client-version']),
    );
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toContain('PATCH');
    // An error answer is readable cross-origin too.
    const denied = await s.inbox('GET', '/notifications', undefined, undefined, { origin: 'http://localhost:3000' });
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    // The operator API keeps no CORS.
    const operator = await fetch(`${s.base}/v2/subscribers`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(operator.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${s.base}/v1/environments/me`, { headers: { origin: 'http://localhost:3000', authorization: `ApiKey ${TEST_KEY}` } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

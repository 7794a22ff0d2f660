// A message deleted through the API (not the Inbox) leaves the subscriber's Inbox, and a connected
// Inbox is sent its new counts.
import { io } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Listening, listening } from './helpers.js';

let s: Listening;
let ada: string;

beforeAll(async () => {
  s = await listening();
  ada = await s.session('ada');
  for (let i = 0; i < 2; i++) await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
  await s.svc.runner.idle();
});
afterAll(() => s.close());

it('the Inbox lists it no more, and the socket gets the new unread and unseen counts', async () => {
  const ids = (await s.inbox('GET', '/notifications', ada)).body.data.map((n: { id: string }) => n.id) as string[];
  expect(ids).toHaveLength(2);
  const socket = io(s.base, { transports: ['websocket'], query: { token: ada }, reconnection: false });
  try {
    await new Promise((r) => socket.on('connect', () => r(undefined)));
    const unread = new Promise<any>((r) => socket.on('unread_count_changed', r));
    const unseen = new Promise<any>((r) => socket.on('unseen_count_changed', r));
    const r = await s.svc.request('DELETE', `/v1/messages/${ids[0]}`);
    expect(r.status).toBe(200);
    expect((await unread).unreadCount).toBe(1);
    expect((await unseen).unseenCount).toBe(1);
    expect((await s.inbox('GET', '/notifications', ada)).body.data.map((n: { id: string }) => n.id)).toEqual([ids[1]]);
  } finally {
    socket.disconnect();
  }
});

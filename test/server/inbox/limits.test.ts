// The Inbox's routes get what every other route of svc dev has: rate limits (when svc dev limits, the
// environment's `global` category, with the RateLimit headers, readable by the page) and idempotency
// keys on POST and PATCH (the first answer replayed, another body refused), kept per subscriber so
// one subscriber's key never replays another's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listening } from './helpers.js';

describe('rate limits on the Inbox routes', () => {
  let s: Listening;
  beforeAll(async () => {
    // One request a second: a window of 5 and a burst of 6 (the clock does not move in this test).
    s = await listening({ rateLimits: { trigger: 60, configuration: 20, global: 1 } });
  });
  afterAll(() => s.close());

  it("take from the environment's global bucket, and answer 429 with Retry-After when it is empty", async () => {
    const token = await s.session('ada');
    const statuses: number[] = [];
    let last: Awaited<ReturnType<Listening['inbox']>> | undefined;
    for (let i = 0; i < 6; i++) {
      last = await s.inbox('GET', '/notifications', token, undefined, { origin: 'http://localhost:5173' });
      statuses.push(last.status);
    }
    // Of the 6 tokens, the operator API's read of the environment (at start) and the session took 2.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('ratelimit-policy')).toContain('category="global"');
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    // The page can read them.
    expect(last!.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    expect(last!.body.message).toBe('API rate limit exceeded');
    // A new session of the same environment is limited too.
    expect((await s.inbox('POST', '/session', undefined, { applicationIdentifier: s.appId, subscriberId: 'bob' })).status).toBe(429);
    await s.svc.clock.advance(10_000);
    expect((await s.inbox('GET', '/notifications/count?filters=[{"read":false}]', token)).status).toBe(200);
  });
});

describe('idempotency keys on the Inbox routes', () => {
  let s: Listening;
  let ada: string;
  let id: string;
  beforeAll(async () => {
    s = await listening();
    expect((await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } })).status).toBe(201);
    await s.svc.runner.idle();
    ada = await s.session('ada');
    id = (await s.inbox('GET', '/notifications', ada)).body.data[0].id;
  });
  afterAll(() => s.close());

  it('replay the first answer for the same key and body, and refuse another body', async () => {
    const key = { 'idempotency-key': 'read-once' };
    const first = await s.inbox('PATCH', `/notifications/${id}/read`, ada, undefined, key);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotency-replay')).toBeNull();
    expect((await s.inbox('PATCH', `/notifications/${id}/unread`, ada)).body.data.isRead).toBe(false);
    const again = await s.inbox('PATCH', `/notifications/${id}/read`, ada, undefined, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    // Replayed, not run again: the notification stays unread.
    expect((await s.inbox('GET', '/notifications', ada)).body.data[0].isRead).toBe(false);
    const other = await s.inbox('POST', '/notifications/seen', ada, { notificationIds: [id] }, key);
    expect(other.status).toBe(422);
  });

  it("keep a subscriber's keys to themselves", async () => {
    const key = { 'idempotency-key': 'shared-key' };
    const mine = await s.inbox('PATCH', `/notifications/${id}/archive`, ada, undefined, key);
    expect(mine.status).toBe(200);
    const bob = await s.session('bob');
    const theirs = await s.inbox('PATCH', `/notifications/${id}/archive`, bob, undefined, key);
    expect(theirs.status).toBe(404);
    expect(theirs.headers.get('idempotency-replay')).toBeNull();
    expect(JSON.stringify(theirs.body)).not.toContain('Welcome');
  });

  it('keep an error answer for its key, as the operator API does', async () => {
    const key = { 'idempotency-key': 'bad-snooze' };
    const bad = await s.inbox('PATCH', `/notifications/${id}/snooze`, ada, { snoozeUntil: '2000-01-01T00:00:00Z' }, key);
    expect(bad.status).toBe(400);
    const again = await s.inbox('PATCH', `/notifications/${id}/snooze`, ada, { snoozeUntil: '2000-01-01T00:00:00Z' }, key);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotency-replay')).toBe('true');
  });

  it('replay a session for the same key and body', async () => {
    const body = { applicationIdentifier: s.appId, subscriberId: 'cy' };
    const key = { 'idempotency-key': 'session-1' };
    const first = await s.inbox('POST', '/session', undefined, body, key);
    expect(first.status).toBe(201);
    const again = await s.inbox('POST', '/session', undefined, body, key);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.body.data.token).toBe(first.body.data.token);
  });
});

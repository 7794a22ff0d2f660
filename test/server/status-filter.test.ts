// svc dev's own extension of the feed: GET /v1/svc-dev says it is svc dev and names its extensions, and
// GET /v1/notifications?svcStatus= filters by the derived status (core/status.ts) in the store, over
// every event however old, judged over `channels`' steps when given; the pages are pages of matches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStatus } from '../../src/core/status.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

/** 1,100 delivered in-app events, newer than every failure and every partial event. */
const NEWER = 1100;

beforeAll(async () => {
  // Oldest: three failures (an SMS to a subscriber without a phone) and two partial events (email
  // off in alan's preferences: in-app delivered, email skipped).
  expect((await svc.request('PATCH', '/v2/subscribers/alan/preferences', { body: { workflowId: 'welcome', channels: { email: false } } })).status).toBe(200);
  for (let i = 0; i < 3; i++)
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'alan', payload: { code: '1' }, transactionId: `failed-${i}` } });
  for (let i = 0; i < 2; i++) await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'alan', transactionId: `partial-${i}` } });
  await svc.request('POST', '/v2/workflows', {
    body: { name: 'Note', workflowId: 'note', active: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' } }] },
  });
  for (let i = 0; i < NEWER; i += 100) {
    const events = Array.from({ length: 100 }, (_, k) => ({ name: 'note', to: `user-${i + k}` }));
    expect((await svc.request('POST', '/v1/events/trigger/bulk', { body: { events } })).status).toBe(201);
    svc.clock.advance(1000);
  }
  await svc.runner.idle();
}, 120_000);

const tx = (body: { data: { transactionId: string }[] }) => body.data.map((n) => n.transactionId).sort();

describe('svc dev: GET /v1/svc-dev and the feed filtered by derived status', () => {
  it('GET /v1/svc-dev says this is svc dev and names the extension', async () => {
    const r = await svc.request('GET', '/v1/svc-dev');
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ service: 'svc dev', extensions: expect.arrayContaining(['listEvents.svcStatus']) });
    expect((await svc.request('GET', '/v1/svc-dev', { key: null })).status).toBe(401);
  });

  it('svcStatus=failed finds every failure, all older than the newest 1,000 events, in one page', async () => {
    const newest = await svc.request('GET', '/v1/notifications?limit=50&page=19');
    expect(newest.body.data.every((n: { transactionId: string }) => !n.transactionId.startsWith('failed-'))).toBe(true);
    const r = await svc.request('GET', '/v1/notifications?svcStatus=failed&limit=10');
    expect(r.status).toBe(200);
    expect(tx(r.body)).toEqual(['failed-0', 'failed-1', 'failed-2']);
    expect(r.body.hasMore).toBe(false);
    for (const n of r.body.data) expect(eventStatus(n.jobs)).toBe('failed');
  });

  it('pages are pages of matches; several statuses; completed stands for every finished one', async () => {
    const p0 = await svc.request('GET', '/v1/notifications?svcStatus=failed&svcStatus=partial&limit=2&page=0');
    const p1 = await svc.request('GET', '/v1/notifications?svcStatus=failed&svcStatus=partial&limit=2&page=1');
    const p2 = await svc.request('GET', '/v1/notifications?svcStatus=failed&svcStatus=partial&limit=2&page=2');
    expect([p0.body.hasMore, p1.body.hasMore, p2.body.hasMore]).toEqual([true, true, false]);
    expect([...tx(p0.body), ...tx(p1.body), ...tx(p2.body)].sort()).toEqual(['failed-0', 'failed-1', 'failed-2', 'partial-0', 'partial-1']);
    const partial = await svc.request('GET', '/v1/notifications?svcStatus=partial&limit=10');
    expect(tx(partial.body)).toEqual(['partial-0', 'partial-1']);
    expect(partial.body.data[0].jobs.map((j: { type: string; status: string }) => `${j.type} ${j.status}`)).toEqual(['in_app completed', 'email skipped']);
    const completed = await svc.request('GET', '/v1/notifications?svcStatus=completed&limit=50');
    expect(completed.body.data).toHaveLength(50);
    expect(completed.body.data.some((n: { transactionId: string }) => n.transactionId.startsWith('failed-'))).toBe(false);
  });

  it('with channels, each event is judged by those channels’ own steps', async () => {
    // The partial events' email step was skipped: with channels=email they are skipped, not partial.
    const skipped = await svc.request('GET', '/v1/notifications?svcStatus=skipped&channels=email&limit=10');
    expect(tx(skipped.body)).toEqual(['partial-0', 'partial-1']);
    const partial = await svc.request('GET', '/v1/notifications?svcStatus=partial&channels=email&limit=10');
    expect(partial.body.data).toEqual([]);
    const inApp = await svc.request('GET', '/v1/notifications?svcStatus=delivered&channels=in_app&transactionId=partial-0');
    expect(tx(inApp.body)).toEqual(['partial-0']);
  });

  it('an unknown status is refused (422), naming the parameter', async () => {
    const r = await svc.request('GET', '/v1/notifications?svcStatus=bogus');
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('svcStatus');
  });
});

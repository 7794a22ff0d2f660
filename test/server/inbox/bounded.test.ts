// The Inbox's filters are bounded by what the service accepts, and what a caller sends never grows
// the service's memory: the prepared statements behind the list and its counts stay as many whatever
// number of tags, severities or data values arrive. The filters still select as before, through the
// real `@novu/js` client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listening, listening } from './helpers.js';

let s: Listening;
let token: string;

/** The prepared statements the Inbox repository keeps. */
const statements = () => (s.svc.store.inbox as unknown as { statements: Map<string, unknown> }).statements.size;

beforeAll(async () => {
  s = await listening({ empty: true });
  const workflows = [
    { id: 'pro-bill', tags: ['billing', 'pro'], severity: 'high', data: { plan: 'pro', seats: 3, paid: true, owners: ['ann', 'bo'], org: { tier: 'gold' } } },
    { id: 'free-bill', tags: ['billing'], severity: 'low', data: { plan: 'free', seats: 1, paid: false, owners: ['cy'], org: { tier: 'tin' } } },
    { id: 'news', tags: ['news'], severity: 'none', data: { plan: 'pro' } },
  ];
  for (const w of workflows) {
    const r = await s.svc.request('POST', '/v2/workflows', {
      body: {
        workflowId: w.id,
        name: w.id,
        active: true,
        tags: w.tags,
        severity: w.severity,
        steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: w.id, data: w.data } }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect((await s.svc.request('POST', '/v1/events/trigger', { body: { name: w.id, to: 'ada' } })).status).toBe(201);
  }
  await s.svc.runner.idle();
  token = await s.session('ada');
});
afterAll(() => s.close());

const bodies = async (query: string) => {
  const r = await s.inbox('GET', `/notifications?${query}`, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data as { body: string }[]).map((n) => n.body).sort();
};
const counts = async (filters: unknown[]) => {
  const r = await s.inbox('GET', `/notifications/count?filters=${encodeURIComponent(JSON.stringify(filters))}`, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data as { count: number }[]).map((c) => c.count);
};
const data = (d: unknown) => `data=${encodeURIComponent(JSON.stringify(d))}`;

describe('the Inbox filters, bounded', () => {
  it('select by tags (OR, AND of ORs), severity and data values as before', async () => {
    const novu = s.client('ada');
    const list = async (filter: Record<string, unknown>) => {
      const r = await novu.notifications.list({ limit: 50, useCache: false, ...filter } as never);
      expect(r.error).toBeUndefined();
      return r.data!.notifications.map((n) => n.body).sort();
    };
    expect(await list({ tags: ['pro', 'news'] })).toEqual(['news', 'pro-bill']);
    expect(await list({ tags: { and: [{ or: ['billing'] }, { or: ['pro', 'x'] }] } })).toEqual(['pro-bill']);
    expect(await list({ severity: ['high', 'low'] })).toEqual(['free-bill', 'pro-bill']);
    expect(await list({ data: { plan: 'pro' } })).toEqual(['news', 'pro-bill']);
    expect(await list({ data: { seats: 3, paid: true } })).toEqual(['pro-bill']);
    expect(await list({ data: { paid: false } })).toEqual(['free-bill']);
    expect(await list({ data: { owners: 'cy' } })).toEqual(['free-bill']);
    expect(await list({ data: { owners: ['bo', 'zed'] } })).toEqual(['pro-bill']);
    expect(await list({ data: { org: { tier: ['gold', 'tin'] } } })).toEqual(['free-bill', 'pro-bill']);
    expect(await list({ data: { plan: { or: ['free', 'x'] } } })).toEqual(['free-bill']);
    expect(await list({ data: { seats: '3' } })).toEqual([]);
    expect(await bodies(`tags[0][]=billing&tags[1][]=news`)).toEqual([]);
    expect(await bodies(`${data({ 'we"ird': 'x' })}`)).toEqual([]);
    expect(await counts([{ tags: ['billing'] }, { severity: 'none' }, { data: { plan: 'pro' }, tags: { or: ['news'] } }])).toEqual([2, 1, 1]);
  });

  it('keeps as many prepared statements after 50 differently sized filters as after the first', async () => {
    const filters = (n: number) => ({
      tags: Array.from({ length: n }, (_, i) => `t${i}`),
      severity: ['high', 'medium', 'low', 'none'].slice(0, 1 + (n % 4)),
      data: { plan: Array.from({ length: n }, (_, i) => `p${i}`) },
    });
    await bodies(`tags[]=a&severity[]=high&${data({ plan: ['a'] })}`);
    await counts([filters(1)]);
    await bodies(`tags[0][]=a&tags[1][]=b&${data({ plan: ['a'], seats: [1] })}`);
    const before = statements();
    for (let n = 2; n <= 51; n++) {
      const tags = Array.from({ length: n }, (_, i) => `tags[]=t${i}`).join('&');
      const groups = Array.from({ length: 1 + (n % 30) }, (_, i) => `tags[${i}][]=g${i}`).join('&');
      const keys = Object.fromEntries(Array.from({ length: 1 + (n % 4) }, (_, i) => [`k${i}`, Array.from({ length: Math.min(n, 50) }, (_, j) => j)]));
      await bodies(`${tags}&severity[]=high&severity[]=low&${data({ plan: Array.from({ length: n }, (_, i) => `p${i}`) })}`);
      await bodies(`${groups}&${data(keys)}`);
      await counts([filters(n)]);
    }
    expect(statements()).toBe(before);
  });

  it('refuses tag and data filters larger than the service accepts, naming the limit', async () => {
    const many = (n: number, p = 't') => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const tooWide = await s.inbox(
      'GET',
      `/notifications?${many(101)
        .map((t) => `tags[]=${t}`)
        .join('&')}`,
      token,
    );
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.message).toMatch(/at most 100 tags/);
    const groups = many(31)
      .map((t, i) => `tags[${i}][]=${t}`)
      .join('&');
    const tooManyGroups = await s.inbox('GET', `/notifications?${groups}`, token);
    expect(tooManyGroups.status).toBe(400);
    expect(tooManyGroups.body.message).toMatch(/at most 30 tag groups/);
    const total = await counts([{ tags: { and: [{ or: many(100, 'a') }, { or: many(100, 'b') }] } }]);
    expect(total).toEqual([0]);
    const tooMany = await s.inbox(
      'GET',
      `/notifications/count?filters=${encodeURIComponent(JSON.stringify([{ tags: { and: [{ or: many(100, 'a') }, { or: many(100, 'b') }, { or: ['c'] }] } }]))}`,
      token,
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/at most 200 tag values/);
    const wideData = await s.inbox('GET', `/notifications?${data({ plan: many(101) })}`, token);
    expect(wideData.status).toBe(400);
    expect(wideData.body.message).toMatch(/data\.plan: .*at most 100/);
  });
});

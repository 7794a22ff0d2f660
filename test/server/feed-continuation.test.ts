// Paging the activity feed to its end (an export, the terminal browser scrolling down) must cost the same
// per page at page 1,000 as at page 1: page N + 1 of a listing seeks to where page N ended instead of
// skipping N pages of rows, and answers exactly what the offset would, which it falls back to as soon
// as any row changed in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

async function trigger(to: string[]): Promise<void> {
  expect((await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to } })).status).toBe(201);
  await svc.runner.idle();
}

beforeAll(async () => {
  // Batches at distinct times, and many events of one batch in the same millisecond: ties on
  // created_at are ordered by id, which the continuation must respect.
  for (let batch = 0; batch < 6; batch++) {
    await trigger(Array.from({ length: 23 }, (_, i) => `sub-${i}`));
    svc.clock.advance(1_000);
  }
});

/** Every id of the filter, newest first, as the offset order defines it. */
function expected(where = '1'): string[] {
  return (
    svc.store.db.prepare(`SELECT lower(hex(id)) AS id FROM notifications WHERE ${where} ORDER BY created_at DESC, id DESC`).all() as { id: string }[]
  ).map((r) => r.id);
}

async function page(query: string, n: number): Promise<{ ids: string[]; hasMore: boolean }> {
  const r = await svc.request('GET', `/v1/notifications?${query}&page=${n}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { ids: (r.body.data as { _id: string }[]).map((e) => e._id), hasMore: r.body.hasMore };
}

async function all(query: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  for (let n = 0; ; n++) {
    const p = await page(query, n);
    ids.push(...p.ids);
    if (!p.hasMore) return { ids, pages: n + 1 };
  }
}

describe('the feed paged to its end', () => {
  it('seeks from the previous page and returns exactly the offset order', async () => {
    const before = svc.store.activity.pages.seeks;
    const { ids, pages } = await all('limit=10');
    expect(ids).toEqual(expected());
    expect(ids).toHaveLength(138);
    expect(pages).toBe(14);
    // Every page after the first came from where the one before ended.
    expect(svc.store.activity.pages.seeks - before).toBe(pages - 1);
  });

  it('does so under a filter, separately for two listings paged in turn', async () => {
    const before = svc.store.activity.pages.seeks;
    const a: string[] = [];
    const b: string[] = [];
    for (let n = 0; n < 4; n++) {
      a.push(...(await page('limit=2&subscriberIds=sub-3', n)).ids);
      b.push(...(await page('limit=7&channels=email', n)).ids);
    }
    expect(a).toEqual(expected("subscriber_id IN (SELECT unhex(id) FROM subscribers WHERE subscriber_id = 'sub-3')"));
    expect(a).toHaveLength(6);
    expect(b).toEqual(expected(`channels LIKE '%"email"%'`).slice(0, 28));
    expect(b).toHaveLength(28);
    // Pages 1 and 2 of the subscriber's (page 3 is past the end), pages 1 to 3 of the channel's.
    expect(svc.store.activity.pages.seeks - before).toBe(5);
  });

  it('falls back to the offset when a row changed between pages, as the service would answer', async () => {
    const first = await page('limit=10', 0);
    await trigger(['late-1']);
    const before = svc.store.activity.pages.seeks;
    const second = await page('limit=10', 1);
    expect(svc.store.activity.pages.seeks).toBe(before);
    // The offset shifted by the new event: page 1 now starts with the last event of the old page 0.
    expect(second.ids[0]).toBe(first.ids[9]);
    expect(second.ids).toEqual(expected().slice(10, 20));
  });

  it('a page asked out of order is read by offset', async () => {
    const before = svc.store.activity.pages.seeks;
    expect((await page('limit=10', 3)).ids).toEqual(expected().slice(30, 40));
    expect((await page('limit=10', 5)).ids).toEqual(expected().slice(50, 60));
    expect(svc.store.activity.pages.seeks).toBe(before);
  });
});

describe('the message list paged to its end', () => {
  it('seeks from the previous page and returns exactly the offset order', async () => {
    const expectedIds = (svc.store.db.prepare('SELECT lower(hex(id)) AS id FROM messages ORDER BY created_at DESC, id DESC').all() as { id: string }[]).map(
      (r) => r.id,
    );
    const before = svc.store.messages.pages.seeks;
    const ids: string[] = [];
    let pages = 0;
    for (let n = 0; ; n++) {
      const r = await svc.request('GET', `/v1/messages?limit=25&page=${n}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(...(r.body.data as { _id: string }[]).map((m) => m._id));
      pages++;
      if (!r.body.hasMore) break;
    }
    expect(ids).toEqual(expectedIds);
    expect(ids.length).toBeGreaterThan(100);
    expect(svc.store.messages.pages.seeks - before).toBe(pages - 1);
  });
});

import { describe, expect, it } from 'vitest';
import { classify, resolveEvents, type EventLookup } from '../../src/core/event-ref.js';

type N = { _id: string; transactionId: string; jobs?: unknown[] };
const feed: N[] = [
  { _id: '6b057651a5d94bd2f7aa2955', transactionId: '21f40285-db44-4941-8e46-3def11c2ef4b' },
  { _id: '6b057642a5d94bd2f7aa294c', transactionId: 'c021b25d-b653-4369-8a49-f15953fae39c' },
  { _id: '6b057642a5d94bd2f7aa2999', transactionId: 'c021b25d-b653-4369-8a49-f15953fae39c' },
  { _id: '6b0575e8a5d94bd2f7aa2921', transactionId: 'order-42' },
];
function fake(): EventLookup<N> & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async get(id) {
      calls.push(`get ${id}`);
      const n = feed.find((x) => x._id === id);
      return n ? { ...n, jobs: [] } : undefined;
    },
    async list(q) {
      calls.push(`list ${q.transactionId ?? ''} ${q.page}`);
      const data = feed.filter((x) => !q.transactionId || x.transactionId === q.transactionId);
      return { data: data.slice(q.page * q.limit, (q.page + 1) * q.limit), hasMore: false };
    },
  };
}

describe('events get REF', () => {
  it('tells ids, short ids and transaction ids apart', () => {
    expect(classify('6b057651a5d94bd2f7aa2955').kind).toBe('id');
    expect(classify('6b05765').kind).toBe('short');
    expect(classify('21f40285-db44-4941-8e46-3def11c2ef4b').kind).toBe('transaction');
    expect(() => classify(' ')).toThrow(/ID: expected/);
  });
  it('a notification id is one GET', async () => {
    const api = fake();
    const r = await resolveEvents(api, '6b057651a5d94bd2f7aa2955');
    expect(r.events.map((e) => e._id)).toEqual(['6b057651a5d94bd2f7aa2955']);
    expect(api.calls).toEqual(['get 6b057651a5d94bd2f7aa2955']);
  });
  it('a transaction id gives every recipient, with jobs', async () => {
    const r = await resolveEvents(fake(), 'c021b25d-b653-4369-8a49-f15953fae39c');
    expect(r.kind).toBe('transaction');
    expect(r.events.map((e) => e._id)).toEqual(['6b057642a5d94bd2f7aa294c', '6b057642a5d94bd2f7aa2999']);
    expect(r.events.every((e) => Array.isArray(e.jobs))).toBe(true);
    expect((await resolveEvents(fake(), 'order-42')).events).toHaveLength(1);
  });
  it('a short id from a table finds its event, or says it is ambiguous', async () => {
    expect((await resolveEvents(fake(), '6b057651a')).events[0]!._id).toBe('6b057651a5d94bd2f7aa2955');
    await expect(resolveEvents(fake(), '6b057642a5d9')).rejects.toThrow(/part of 2 events/);
    // The end of an id, as a narrow table shows ids made in the same second.
    expect((await resolveEvents(fake(), 'f7aa2955')).events[0]!._id).toBe('6b057651a5d94bd2f7aa2955');
  });
  it('not found says what the command takes, exit 5', async () => {
    await expect(resolveEvents(fake(), 'no-such-transaction')).rejects.toMatchObject({
      exitCode: 5,
      hint: expect.stringMatching(/notification id .* transaction id/),
    });
    await expect(resolveEvents(fake(), 'ffffffffffffffffffffffff')).rejects.toMatchObject({ exitCode: 5 });
  });
});

// `svc events browse` in process (Ink on a stand-in terminal): reads of the first page that answer out
// of order must not put an older view of the feed over a newer one, and a refresh due on the timer
// does not start while one is still on its way.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type BrowsePage, type BrowseSource, runBrowse } from '../../src/tui/app.js';
import type { BrowseEvent } from '../../src/tui/model.js';

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  const drawn = { text: '' };
  const stdout = Object.assign(
    new Writable({
      write(chunk, _enc, done) {
        drawn.text += String(chunk);
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 20 },
  );
  return { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream, keys: (s: string) => stdin.write(s), drawn };
}

const event = (id: string, subscriber: string): BrowseEvent => ({
  _id: id,
  transactionId: `tx-${id}`,
  createdAt: new Date(Date.UTC(2026, 10, 26, 12, 0, Number.parseInt(id.slice(-2), 16) % 60)).toISOString(),
  subscriber: { subscriberId: subscriber },
  template: { name: 'welcome', triggers: [{ identifier: 'welcome' }] },
  channels: ['email'],
  jobs: [],
});

const until = async (what: () => boolean, label: string) => {
  for (let i = 0; !what(); i++) {
    if (i === 500) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A feed the test answers: every read waits in `reads` until the test answers or fails it. */
function heldFeed() {
  const reads: Array<{ filter: { subscriber?: string; workflow?: string }; page: number; answer: (p: BrowsePage) => void; fail: (e: Error) => void }> = [];
  const shown: string[][] = [];
  const source: BrowseSource = {
    page: (filter, page) => new Promise<BrowsePage>((answer, fail) => reads.push({ filter, page, answer, fail })),
    get: async (id) => ({ _id: id }),
    retrigger: async () => 'tx',
    shown: (ids) => void shown.push([...ids]),
  };
  return { source, reads, shown };
}

describe('events browse: first-page reads', () => {
  it('keeps the newest view when an older read of the first page answers last', async () => {
    const older = event('6a0000000000000000000001', 'ada');
    const newer = event('6a0000000000000000000002', 'grace');
    const { source, reads, shown } = heldFeed();
    const t = terminal();
    const done = runBrowse(source, { refreshMs: 60_000, stdin: t.stdin, stdout: t.stdout });
    await until(() => reads.length === 1, 'the first read');
    reads[0]!.answer({ data: [older], hasMore: false });
    await until(() => shown.at(-1)?.join() === older._id, 'the first row');

    // Two refreshes asked for (R, R): the first one's answer is slow and was taken before `newer` existed.
    t.keys('R');
    await until(() => reads.length === 2, 'the second read');
    t.keys('R');
    await until(() => reads.length === 3, 'the third read');
    reads[2]!.answer({ data: [newer, older], hasMore: false });
    await until(() => shown.at(-1)?.join() === [newer._id, older._id].join(), 'the newer view');
    reads[1]!.answer({ data: [older], hasMore: false });
    // Another read, answered with a third event: once that is drawn, whatever the late answer changed
    // has been drawn before it.
    const newest = event('6a0000000000000000000003', 'lin');
    t.keys('R');
    await until(() => reads.length === 4, 'the fourth read');
    reads[3]!.answer({ data: [newest, newer, older], hasMore: false });
    await until(() => shown.at(-1)?.[0] === newest._id, 'the newest event drawn');
    expect(shown.at(-1)).toEqual([newest._id, newer._id, older._id]);
    expect(shown.some((ids) => ids.join() === [older._id, newer._id].join())).toBe(false);
    t.keys('q');
    await done;
  });

  it('skips timed refreshes while a read of the first page is on its way, then refreshes again', async () => {
    const { source, reads } = heldFeed();
    // The browser's clock, stopped: how long a read has been out is measured by it.
    let clock = Date.UTC(2026, 10, 26, 12, 0, 0);
    // Each timed refresh reads the clock to decide: counting the reads counts the decisions taken.
    let looked = 0;
    const now = () => {
      looked++;
      return clock;
    };
    const ticks = async (n: number) => {
      const from = looked;
      await until(() => looked >= from + n, `${n} timer ticks`);
    };
    const t = terminal();
    const done = runBrowse(source, { refreshMs: 20, now, stdin: t.stdin, stdout: t.stdout });
    await until(() => reads.length === 1, 'the first read');
    // Many timer ticks later: no second read while the first is out.
    await ticks(10);
    expect(reads.length).toBe(1);
    // Answered: the timer refreshes again.
    reads[0]!.answer({ data: [], hasMore: false });
    await until(() => reads.length === 2, 'a timed refresh after the answer');
    // A read out for three intervals (an answer that is stuck) no longer holds the next one back.
    await ticks(10);
    expect(reads.length).toBe(2);
    clock += 60;
    await until(() => reads.length === 3, 'a timed refresh past a stuck read');
    t.keys('q');
    await done;
  });

  it('draws nothing of an older page that failed after the filter changed', async () => {
    const { source, reads, shown } = heldFeed();
    const t = terminal();
    const done = runBrowse(source, { refreshMs: 60_000, stdin: t.stdin, stdout: t.stdout });
    await until(() => reads.length === 1, 'the first read');
    // More exist: the next page is asked for at once (the list does not fill the screen).
    reads[0]!.answer({ data: [event('6a0000000000000000000011', 'ada')], hasMore: true });
    await until(() => reads.length === 2 && reads[1]!.page === 1, 'the second page');
    t.keys('/subscriber:grace\r');
    await until(() => reads.some((r) => r.filter.subscriber === 'grace'), "grace's first page");
    const fromHere = t.drawn.text.length;
    reads[1]!.fail(new Error('boom'));
    const grace = event('6a0000000000000000000012', 'grace');
    reads.find((r) => r.filter.subscriber === 'grace')!.answer({ data: [grace], hasMore: false });
    await until(() => shown.at(-1)?.join() === grace._id, "grace's event drawn");
    t.keys('q');
    await done;
    // The screens drawn since (under CI, Ink draws only the last one, as it quits): a message stays on
    // screen until the next one, so the late failure would be on it.
    expect(t.drawn.text.slice(fromHere)).toContain('1 event');
    expect(t.drawn.text.slice(fromHere)).not.toContain('loading more failed');
  });
});

// `svc events browse` in process (Ink on a stand-in terminal): reads of the first page that answer out
// of order must not put an older view of the feed over a newer one, and a refresh due on the timer
// does not start while one is still on its way.
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type BrowsePage, type BrowseSource, runBrowse } from '../../src/tui/app.js';
import type { BrowseEvent } from '../../src/tui/model.js';

function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  const stdout = Object.assign(
    new Writable({
      write(_chunk, _enc, done) {
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 20 },
  );
  return { stdin: stdin as unknown as NodeJS.ReadStream, stdout: stdout as unknown as NodeJS.WriteStream, keys: (s: string) => stdin.write(s) };
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

describe('events browse: first-page reads', () => {
  it('keeps the newest view when an older read of the first page answers last', async () => {
    const older = event('6a0000000000000000000001', 'ada');
    const newer = event('6a0000000000000000000002', 'grace');
    const reads: Array<{ answer: (p: BrowsePage) => void }> = [];
    const shown: string[][] = [];
    const source: BrowseSource = {
      page: () => new Promise<BrowsePage>((answer) => reads.push({ answer })),
      get: async (id) => ({ _id: id }),
      retrigger: async () => 'tx',
      shown: (ids) => void shown.push([...ids]),
    };
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
    // Another read, answered, so that anything the late answer changed has been drawn.
    t.keys('R');
    await until(() => reads.length === 4, 'the fourth read');
    reads[3]!.answer({ data: [newer, older], hasMore: false });
    await new Promise((r) => setTimeout(r, 100));
    expect(shown.at(-1)).toEqual([newer._id, older._id]);
    expect(shown.some((ids) => ids.join() === [older._id, newer._id].join())).toBe(false);
    t.keys('q');
    await done;
  });

  it('does not start a timed refresh while the previous read of the first page is on its way', async () => {
    let asked = 0;
    const source: BrowseSource = {
      page: () => {
        asked++;
        return new Promise<BrowsePage>(() => undefined);
      },
      get: async (id) => ({ _id: id }),
      retrigger: async () => 'tx',
    };
    const t = terminal();
    const done = runBrowse(source, { refreshMs: 20, stdin: t.stdin, stdout: t.stdout });
    await new Promise((r) => setTimeout(r, 300));
    expect(asked).toBe(1);
    t.keys('q');
    await done;
  });
});

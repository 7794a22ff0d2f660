import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CACHE_TTL_MS,
  complete,
  idsIn,
  lookup,
  PRINTED_IDS,
  PRINTED_LISTS,
  printedMatches,
  remember,
  rememberPrinted,
  rememberRecords,
} from '../../src/core/completion-cache.js';

const dir = () => mkdtempSync(join(tmpdir(), 'svc-cc-'));

describe('completion cache', () => {
  it('remembers ids per profile, newest first, in a 0600 file, and forgets them when stale', () => {
    const d = dir();
    remember('workflows', ['welcome', 'otp'], { dir: d, profile: 'local', now: 1000 });
    remember('workflows', ['incident', 'otp'], { dir: d, profile: 'local', now: 2000 });
    expect(lookup('workflows', { dir: d, profile: 'local', now: 3000 })).toEqual(['incident', 'otp', 'welcome']);
    expect(lookup('workflows', { dir: d, profile: 'prod', now: 3000 })).toBeUndefined();
    expect(lookup('workflows', { dir: d, profile: 'local', now: 2000 + CACHE_TTL_MS })).toBeUndefined();
    expect(statSync(join(d, 'completion-cache.json')).mode & 0o777).toBe(0o600);
  });
  it('a command that saw nothing new writes nothing; both kinds go in one write; the same ids refresh after half the TTL', () => {
    const d = dir();
    const file = join(d, 'completion-cache.json');
    rememberRecords([{ template: { triggers: [{ identifier: 'welcome' }] }, subscriber: { subscriberId: 'ada' } }], { dir: d, profile: 'p', now: 1000 });
    expect(JSON.parse(readFileSync(file, 'utf8')).p).toEqual({ workflows: { ids: ['welcome'], at: 1000 }, subscribers: { ids: ['ada'], at: 1000 } });
    const written = statSync(file).mtimeMs;
    const inode = statSync(file).ino;
    rememberRecords([{ template: { triggers: [{ identifier: 'welcome' }] }, subscriber: { subscriberId: 'ada' } }], { dir: d, profile: 'p', now: 2000 });
    // Not rewritten (a rewrite is a rename: a new inode).
    expect(statSync(file).ino).toBe(inode);
    expect(statSync(file).mtimeMs).toBe(written);
    remember('workflows', ['welcome'], { dir: d, profile: 'p', now: 1000 + CACHE_TTL_MS / 2 });
    expect(JSON.parse(readFileSync(file, 'utf8')).p.workflows.at).toBe(1000 + CACHE_TTL_MS / 2);
    remember('subscribers', ['grace'], { dir: d, profile: 'p', now: 3000 });
    expect(lookup('subscribers', { dir: d, profile: 'p', now: 4000 })).toEqual(['grace', 'ada']);
  });
  it('takes workflow and subscriber ids from events, workflows and subscribers', () => {
    const ids = idsIn([
      { template: { triggers: [{ identifier: 'welcome' }] }, subscriber: { subscriberId: 'ada' } },
      { workflowId: 'otp', name: 'OTP' },
      { subscriberId: 'grace', email: 'g@example.com' },
      { identifier: 'ep', type: 'webhook', subscriberId: 'not-a-subscriber-record' },
    ]);
    expect(ids).toEqual({ workflows: ['welcome', 'otp'], subscribers: ['ada', 'grace'] });
    const d = dir();
    rememberRecords([{ workflowId: 'otp' }], { dir: d, profile: '' });
    expect(readFileSync(join(d, 'completion-cache.json'), 'utf8')).toContain('otp');
  });
  it('a fresh cache answers without asking the service', async () => {
    const d = dir();
    remember('subscribers', ['ada', 'alan', 'grace'], { dir: d, profile: 'p' });
    let asked = 0;
    const got = await complete('subscribers', 'a', { dir: d, profile: 'p', canFetch: true, fetch: async () => (asked++, []) });
    expect(got).toEqual(['ada', 'alan']);
    expect(asked).toBe(0);
  });
  it('an empty cache asks only with a profile, within 300 ms, and caches the answer', async () => {
    const d = dir();
    expect(await complete('workflows', '', { dir: d, profile: '', canFetch: false, fetch: async () => ['x'] })).toEqual([]);
    expect(await complete('workflows', 'w', { dir: d, profile: 'p', canFetch: true, fetch: async () => ['welcome', 'otp'] })).toEqual(['welcome']);
    expect(lookup('workflows', { dir: d, profile: 'p' })).toEqual(['welcome', 'otp']);
    const slow = dir();
    let aborted = false;
    const t = Date.now();
    const got = await complete('workflows', '', {
      dir: slow,
      profile: 'p',
      canFetch: true,
      fetch: (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          setTimeout(() => resolve(['late']), 10_000).unref();
        }),
    });
    expect(got).toEqual([]);
    expect(aborted).toBe(true);
    // Far below the fetch's 10 s (room for a loaded machine; the limit itself is 300 ms).
    expect(Date.now() - t).toBeLessThan(5000);
  });
});

describe('event ids a list printed', () => {
  const hex = (n: number) => n.toString(16).padStart(24, '0');
  it('bounded: the last 5 lists, the first 200 ids of each; a short id matches the start or end of an id', () => {
    const opts = { dir: dir(), profile: 'p', now: 1_000 };
    // An export of 100,000 ids keeps 200 of them.
    rememberPrinted(
      Array.from({ length: 100_000 }, (_, i) => hex(i)),
      opts,
    );
    expect(printedMatches(hex(199), opts)).toEqual([hex(199)]);
    expect(printedMatches(hex(200), opts)).toEqual([]);
    expect(statSync(join(opts.dir, 'completion-cache.json')).size).toBeLessThan(PRINTED_IDS * 30);
    for (let l = 1; l <= PRINTED_LISTS; l++) rememberPrinted([hex(1_000_000 + l)], { ...opts, now: 1_000 + l });
    // Five newer lists: the first one is gone.
    expect(printedMatches(hex(0), opts)).toEqual([]);
    expect(printedMatches(hex(1_000_001).slice(-8), opts)).toEqual([hex(1_000_001)]);
    // A start (typed by hand: the creation second) that ids of several lists share matches them all.
    expect(printedMatches(hex(1_000_005).slice(0, 20), opts).length).toBeGreaterThan(1);
    // An end (the printed form) that ids of several lists share names the newest list's id; two ids of
    // that one list that share it stay ambiguous.
    const end = (n: number) => `aaaaaaaaaaaaaaaa${n.toString(16).padStart(8, '0')}`;
    rememberPrinted([`bbbbbbbbbbbbbbbb${'0'.repeat(7)}7`], { ...opts, now: 1_008 });
    rememberPrinted([end(7)], { ...opts, now: 1_009 });
    expect(printedMatches('00000007', opts)).toEqual([end(7)]);
    rememberPrinted([`cccccccccccccccc${'0'.repeat(7)}7`, `dddddddddddddddd${'0'.repeat(7)}7`], { ...opts, now: 1_010 });
    expect(printedMatches('00000007', opts)).toHaveLength(2);
  });
  it('a keyed list (events browse, growing as pages load) replaces its own earlier form, not other lists', () => {
    const opts = { dir: dir(), profile: 'p', now: 1_000 };
    rememberPrinted([hex(1)], opts);
    for (let n = 2; n <= 9; n++)
      rememberPrinted(
        Array.from({ length: n }, (_, i) => hex(100 + i)),
        { ...opts, now: 1_000 + n },
        'browse:1',
      );
    // Eight loads of the browser took one place: the list before it is still there.
    expect(printedMatches(hex(1), opts)).toEqual([hex(1)]);
    expect(printedMatches(hex(108), opts)).toEqual([hex(108)]);
  });
});

// The Activity page past its first page, in a real browser (headless Chromium) against the built
// `svc dev`: a subscriber with more events than one page sees the first 50, is told more exist, and
// loads the rest; a status filter whose matches are all older than the newest page finds them all
// (svc dev's store judges every event), an email skipped beside a delivered in-app is `partial` with
// why, never a bare "delivered", and its badge stays one word on one line; a subscriber id that names
// no one gets the CLI's hint; and text from the service is shown neutralised (a bidi
// override or ESC as the CLI shows it, `\u202e`, `\e`), so a name cannot read as another word.
// Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, heldLive, holdNext, screenshots } from './browser.js';

const HOSTILE_FIRST = '\u202eevil\u202c مرحبا';
const HOSTILE_LAST = 'Bell\u001b[2J\u0007 👩\u200d💻';

chromiumTool.describe('svc dev console Activity: paging, status search and hostile text (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  const { shot } = screenshots('activity', () => page);
  const bulk = async (events: unknown[]) => {
    const r = await api(dev, 'POST', '/v1/events/trigger/bulk', { events });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };
  const rows = () => page.locator('table.feed tbody tr');
  /** The subscriber of every row shown (the filter from the address applies after a short pause). */
  const subscribersShown = () => rows().evaluateAll((trs) => [...new Set(trs.map((tr) => tr.querySelector('td:nth-child(3) .cut')?.textContent))]);

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--quiet', '--show-secrets'], 15_000));
    const sub = await api(dev, 'POST', '/v2/subscribers', {
      subscriberId: 'rtl-user',
      firstName: HOSTILE_FIRST,
      lastName: HOSTILE_LAST,
      email: 'rtl@example.com',
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    // Oldest: 60 events of another subscriber, then 20 comments on one post, digested into its first
    // event (the others are merged into it).
    await bulk(Array.from({ length: 60 }, (_, i) => ({ name: 'otp', to: 'filler', payload: { code: String(200000 + i) } })));
    await bulk(
      Array.from({ length: 20 }, (_, i) => ({ name: 'comment-digest', to: 'digester', payload: { postId: 'p1', author: `a${i}`, comment: `c${i}` } })),
    );
    for (let i = 0; ; i++) {
      const r = await api(dev, 'GET', '/v1/notifications?limit=50&subscriberIds=digester');
      const merged = (r.body.data as Array<{ jobs: Array<{ status: string }> }>).filter((n) => n.jobs.some((j) => j.status === 'merged'));
      if (merged.length === 19) break;
      if (i === 100) throw new Error(`the digest did not merge 19 events within 10 s (${merged.length})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // Then one subscriber with 65 events, more than one page: the newest 50 of the feed are hers.
    await bulk(Array.from({ length: 65 }, (_, i) => ({ name: 'otp', to: 'pager', payload: { code: String(100000 + i) } })));
    await bulk([{ name: 'welcome', to: 'rtl-user' }]);
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 90_000);
  afterAll(async () => {
    await con?.close();
  });

  it('shows the first page of a subscriber, says more exist, and loads the rest', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?subscriber=pager`);
    const count = page.locator('.feed-count');
    await expect.poll(subscribersShown).toEqual(['pager']);
    await count.getByText('50 events shown · more older').waitFor();
    expect(await rows().count()).toBe(50);
    await page.getByRole('button', { name: 'Load older events' }).scrollIntoViewIfNeeded();
    await shot('activity-pager-first-page');
    await page.getByRole('button', { name: 'Load older events' }).click();
    await expect.poll(() => count.innerText(), { timeout: 10_000 }).toBe('65 events, all shown');
    expect(await rows().count()).toBe(65);
    // Every event once.
    const ids = await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event')));
    expect(new Set(ids).size).toBe(65);
    expect(await page.getByRole('button', { name: 'Load older events' }).count()).toBe(0);
    await page.getByText('No older events: the whole feed is loaded.').scrollIntoViewIfNeeded();
    await shot('activity-pager-all');
    // A live change reloads the pages loaded, not only the first: the 65 rows stay.
    await bulk([{ name: 'otp', to: 'pager', payload: { code: '999999' } }]);
    await expect.poll(() => count.innerText(), { timeout: 10_000 }).toBe('66 events, all shown');
    expect(await rows().count()).toBe(66);
  });

  it('a status filter whose matches are all older than the newest page finds every one of them at once', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?status=merged`);
    const count = page.locator('.feed-count');
    // The newest 67 events are otp and welcome (pager's 66, rtl-user's): the 19 merged are older than
    // the newest page, and the store finds them all in one read of the feed.
    await expect.poll(() => count.innerText()).toBe('19 merged events, all shown');
    expect(await rows().count()).toBe(19);
    expect(await page.getByText('No events match').count()).toBe(0);
    for (const badge of await page.locator('table.feed tbody .badge').allInnerTexts()) expect(badge).toBe('merged');
    const asked = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .filter((u) => u.includes('svcStatus=merged')),
    );
    expect(asked.length).toBeGreaterThan(0);
    await shot('activity-merged-older');
  });

  it('an email skipped by the subscriber’s preferences beside a delivered in-app is partial with why, the badge on one line', async () => {
    const off = await api(dev, 'PATCH', '/v2/subscribers/rtl-user/preferences', { workflowId: 'welcome', channels: { email: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    await bulk([{ name: 'welcome', to: 'rtl-user', transactionId: 'partial-tx-1' }]);
    await page.goto(`${dev.baseUrl}/console/#/activity?status=partial`);
    const row = page.locator('tr[data-transaction="partial-tx-1"]');
    await row.waitFor();
    expect(await rows().count()).toBe(1);
    const badge = row.locator('.badge');
    expect(await badge.innerText()).toBe('partial');
    expect(await row.locator('.reason-cell').innerText()).toMatch(/^email skipped: Step filtered by subscriber preferences/);
    // One line: as tall as a one-word badge, however narrow the column.
    await page.setViewportSize({ width: 700, height: 800 });
    const box = await badge.boundingBox();
    const lineHeight = await badge.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 16);
    expect(box!.height).toBeLessThan(lineHeight * 1.9);
    await shot('activity-partial-narrow');
    await page.setViewportSize({ width: 1440, height: 900 });
    // The email channel's own outcome: skipped.
    await page.goto(`${dev.baseUrl}/console/#/activity?status=skipped&channel=email`);
    await row.waitFor();
    expect(await row.locator('.badge').innerText()).toBe('skipped');
    await row.click();
    const detail = page.locator('[data-event-detail]');
    await detail.locator('.outcomes').waitFor();
    expect(await detail.locator('.outcomes').innerText()).toMatch(/In-app\s*delivered\s*Email\s*skipped/);
    await shot('activity-partial-detail');
  });

  it('a subscriber id that names no subscriber gets the CLI’s hint, not "No events match"', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?subscriber=Pager`);
    await page.getByText("no subscriber has the id 'Pager'; did you mean 'pager'?").waitFor();
    expect(await page.getByText('No events match').count()).toBe(0);
    await shot('activity-subscriber-hint');
  });

  it('shows bidi overrides and control characters from the service as escapes, not as themselves', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?subscriber=rtl-user`);
    await expect.poll(subscribersShown).toEqual(['rtl-user']);
    const row = rows().first();
    const name = row.locator('.sub-name');
    expect(await name.innerText()).toBe('\\u202eevil\\u202c مرحبا Bell\\e[2J\\a 👩\u200d💻');
    // The tooltip too; the emoji's joiner (U+200D) is kept, or the sequence would fall apart.
    expect(await name.getAttribute('title')).toBe('\\u202eevil\\u202c مرحبا Bell\\e[2J\\a 👩\u200d💻');
    await row.click();
    const full = page.locator('[data-event-detail] .sub-full-name');
    await full.waitFor();
    expect(await full.innerText()).toContain('\\u202eevil\\u202c');
    const text = await page.locator('body').innerText();
    for (const ch of ['\u202e', '\u202c', '\u001b', '\u0007']) expect(text).not.toContain(ch);
    // What is sent back is the value itself: the filter keeps the id, the link the event's id.
    expect(await page.getByLabel('Subscriber', { exact: true }).inputValue()).toBe('rtl-user');
    await shot('activity-hostile-name');
  });

  it('a live change that comes while "Load older" waits behind a refresh is read, not dropped', async () => {
    // The live stream is the test's: each connection is held until the test sends one change on it.
    const live = await heldLive(page);
    // The next read of the feed's first page is answered as the feed was when it was asked, but late.
    let armed = false;
    const firstPage = await holdNext(page, /\/v1\/notifications\?/, {
      snapshot: true,
      when: (r) => armed && new URL(r.url()).searchParams.get('page') === '0',
    });
    try {
      await page.goto(`${dev.baseUrl}/console/#/activity`);
      await page.reload();
      await page.getByRole('button', { name: 'Load older events' }).waitFor();
      armed = true;
      await live.send(); // a change: the page reads its pages again, from the top (held)
      await firstPage.asked;
      await page.getByRole('button', { name: 'Load older events' }).click(); // waits behind that read
      await bulk([{ name: 'otp', to: 'late-comer', payload: { code: '555555' } }]);
      await live.send(); // the change of that event (once the stream has reconnected), while the first read is held
      await page.evaluate(() => new Promise((ok) => setTimeout(ok, 300))); // past the page's 60 ms debounce
      firstPage.release();
      await rows().filter({ hasText: 'late-comer' }).first().waitFor();
    } finally {
      await firstPage.end();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
  });
});

// The console at scale, in a real browser (headless Chromium) against the built `svc dev`: a 300-character
// subscriber name leaves every row's status and channels in view (cut, the whole name on hover and in
// the timeline); the activity feed shows why an event failed as a column and filters by e-mail; a
// transaction has a link of its own that opens on its timeline; the Inbox finds any subscriber through
// the subscribers search, not only the first 100; and an e-mail shown in the console fetches no remote
// image. Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, screenshots } from './browser.js';

// One word (nowhere to wrap) and then words: both kinds of long.
const LONG_NAME = `Maximiliane-${'Wolkenstein'.repeat(20)} ${'Rodenegg '.repeat(10)}`.slice(0, 300);
const TERMINAL = new Set(['completed', 'failed', 'canceled', 'merged', 'skipped']);

chromiumTool.describe('svc dev web console at scale (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  // Counts every request for a remote image an e-mail names.
  let pixel: Server;
  let pixelHits = 0;
  const tx = { long: '', noMail: '', ada: '', pixel: '' };
  let adaEmail = '';
  const { shot } = screenshots('scale', () => page);

  beforeAll(async () => {
    pixel = createServer((_req, res) => {
      pixelHits++;
      res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
    });
    await new Promise<void>((ok) => pixel.listen(0, '127.0.0.1', ok));
    ({ dev, page } = con = await startConsoleDev(['--quiet', '--show-secrets']));

    const post = async (path: string, body: unknown) => {
      const r = await api(dev, 'POST', path, body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data;
    };
    // More subscribers than one page of the search: the picker must search, not list.
    for (let i = 0; i < 130; i++) await post('/v2/subscribers', { subscriberId: `bulk-${String(i).padStart(3, '0')}`, firstName: `Bulk ${i}` });
    await post('/v2/subscribers', { subscriberId: 'longname', firstName: LONG_NAME, email: 'long@example.com' });
    await post('/v2/subscribers', { subscriberId: 'no-mail', firstName: 'Nomail' });
    adaEmail = (await api(dev, 'GET', '/v2/subscribers?subscriberId=ada')).body.data[0].email;
    tx.long = (await post('/v1/events/trigger', { name: 'welcome', to: 'longname' })).transactionId;
    tx.noMail = (await post('/v1/events/trigger', { name: 'welcome', to: 'no-mail' })).transactionId;
    tx.ada = (await post('/v1/events/trigger', { name: 'otp', to: 'ada', payload: { code: '123456' } })).transactionId;
    const img = `<img src="http://127.0.0.1:${(pixel.address() as AddressInfo).port}/pixel.gif" alt="pixel">`;
    tx.pixel = (await post('/v1/events/trigger', { name: 'welcome', to: 'ada', payload: { appName: `Pixel ${img}` } })).transactionId;
    // Every job finished (the runner is asynchronous).
    for (let i = 0; ; i++) {
      const all = (await api(dev, 'GET', '/v1/notifications?limit=50')).body.data as Array<{ jobs: Array<{ status: string }> }>;
      if (all.length >= 4 && all.every((n) => n.jobs.every((j) => TERMINAL.has(j.status)))) break;
      if (i === 100) throw new Error('the triggers did not finish within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 60_000);
  afterAll(async () => {
    await con?.close();
    await new Promise((ok) => pixel?.close(ok));
  });

  it('a 300-character name is cut in its row: the status, channels and reason stay in view; the whole name is on hover and in the timeline', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const row = page.locator(`tr[data-transaction="${tx.long}"]`);
    await row.waitFor();
    const pane = (await page.locator('.list-pane').boundingBox())!;
    for (const cell of ['td.status .badge', 'td.chans .chip', 'td.reason-cell']) {
      const box = (await row.locator(cell).first().boundingBox())!;
      expect(box.x + box.width, `${cell} ends inside the list`).toBeLessThanOrEqual(pane.x + pane.width);
      expect(box.width, `${cell} has room`).toBeGreaterThan(20);
    }
    // One line, not a 300-character block.
    expect((await row.boundingBox())!.height).toBeLessThan(80);
    const name = row.locator('.sub-name');
    expect(await name.getAttribute('title')).toBe(LONG_NAME);
    expect(await name.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await shot('activity-long-name');
    await row.click();
    await expect.poll(() => page.locator('.sub-full-name').innerText()).toBe(LONG_NAME.trim());
    await shot('activity-long-name-detail');
    // The messages of that subscriber: the list and the e-mail's header stay within their panes.
    await page.goto(`${dev.baseUrl}/console/#/messages?transaction=${encodeURIComponent(tx.long)}&channel=email`);
    await page.locator('li[data-channel=email]').click();
    await page.locator('.email-head').waitFor();
    for (const pane of ['.list-pane', '.detail-pane']) {
      expect(await page.locator(pane).evaluate((el) => el.scrollWidth <= el.clientWidth), `${pane} does not scroll sideways`).toBe(true);
    }
    await shot('messages-long-name');
  });

  it('the reason a delivery failed is a column of the feed, the same line as the timeline says', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const row = page.locator(`tr[data-transaction="${tx.noMail}"]`);
    await row.waitFor();
    const reason = await row.locator('td.reason-cell .clamp').getAttribute('title');
    expect(reason).toBeTruthy();
    expect(await row.locator('td.reason-cell').innerText()).not.toBe('');
    await row.click();
    await expect.poll(() => page.locator('dd.reason').innerText()).toBe(reason);
    // An event that went out has no reason.
    expect(await page.locator(`tr[data-transaction="${tx.ada}"] td.reason-cell`).innerText()).toBe('');
  });

  it('on a 1024-pixel screen the reason column has room beside the timeline, and the timeline stays in its pane', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    try {
      await page.goto(`${dev.baseUrl}/console/#/activity`);
      const row = page.locator(`tr[data-transaction="${tx.noMail}"]`);
      await row.waitFor();
      await row.click();
      await page.locator('[data-event-detail]').waitFor();
      const pane = (await page.locator('.list-pane').boundingBox())!;
      const reason = (await row.locator('td.reason-cell').boundingBox())!;
      expect(reason.width, 'the reason column is wide enough to read').toBeGreaterThan(100);
      expect(reason.x + reason.width).toBeLessThanOrEqual(pane.x + pane.width);
      expect(await page.locator('.detail-pane').evaluate((el) => el.scrollWidth <= el.clientWidth), 'the timeline does not scroll sideways').toBe(true);
      await shot('activity-1024');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  });

  it('filters the feed by e-mail', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    await page.locator(`tr[data-transaction="${tx.noMail}"]`).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(adaEmail);
    await page.locator(`tr[data-transaction="${tx.noMail}"]`).waitFor({ state: 'detached' });
    const shown = await page.locator('table.feed tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-transaction')));
    expect(shown.sort()).toEqual([tx.ada, tx.pixel].sort());
    expect(page.url()).toContain(`email=${encodeURIComponent(adaEmail)}`);
  });

  it('a transaction has a link that opens on its timeline: #/activity?transaction=<id>', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?transaction=${encodeURIComponent(tx.noMail)}`);
    const detail = page.locator('[data-event-detail]');
    await detail.waitFor();
    // The page before may have left another event's detail open: the hash change re-renders it.
    await expect.poll(() => detail.locator('code').first().innerText()).toBe(tx.noMail);
    await expect.poll(() => page.locator('table.feed tbody tr').count()).toBe(1);
    await shot('activity-transaction-link');
    // From a terminal the link opens a new tab, which has no key yet: after signing in, the same
    // transaction is shown (the route is kept through the sign-in).
    const tab = await con.context.newPage();
    try {
      await tab.goto(`${dev.baseUrl}/console/#/activity?transaction=${encodeURIComponent(tx.noMail)}`);
      await tab.getByLabel('API key').fill(dev.apiKey);
      await tab.getByRole('button', { name: 'Open the console' }).click();
      await tab.locator('[data-event-detail]').waitFor();
      expect(await tab.locator('[data-event-detail] code').first().innerText()).toBe(tx.noMail);
    } finally {
      await tab.close();
    }
  });

  it('the Inbox finds any subscriber by ID, name or e-mail through the search, beyond the first 100', async () => {
    await page.goto(`${dev.baseUrl}/console/#/inbox`);
    const find = page.getByLabel('Find a subscriber');
    for (const [typed, id] of [
      ['bulk-129', 'bulk-129'],
      ['bulk-000', 'bulk-000'],
      ['Bulk 77', 'bulk-077'],
      [adaEmail.split('@')[0]!, 'ada'],
    ] as const) {
      await find.fill(typed);
      await page.locator(`.picker-results button[data-subscriber="${id}"]`).waitFor();
    }
    await shot('inbox-search');
    await page.locator('.picker-results button[data-subscriber="ada"]').click();
    await expect.poll(() => page.url()).toContain('#/inbox?subscriber=ada');
    await page.locator('ul.inbox li').first().waitFor();
  });

  it('an e-mail shown in the console fetches no remote image (the frame inherits img-src without remote origins)', async () => {
    await page.goto(`${dev.baseUrl}/console/#/messages?transaction=${encodeURIComponent(tx.pixel)}&channel=email`);
    await page.locator('li[data-channel=email]').click();
    const body = page.frameLocator('.email-frame iframe').locator('body');
    await expect.poll(() => body.innerText()).toContain('Pixel');
    await expect.poll(() => body.locator('img[alt=pixel]').count()).toBe(1);
    // The browser is done with the image (refused, or loaded: then the server has seen the request).
    await expect.poll(() => body.locator('img[alt=pixel]').evaluate((img) => (img as unknown as { complete: boolean }).complete)).toBe(true);
    expect(pixelHits).toBe(0);
  });
});

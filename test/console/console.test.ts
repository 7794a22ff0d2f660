// The web console in a real browser (headless Chromium) against the built `svc dev`: it loads fast and
// asks for the key, shows a triggered event live, triggers from its form and follows the delivery,
// renders the e-mail in a sandboxed frame, and marks an in-app message read through the Inbox API.
// One browser for the file; every wait is bounded.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, screenshots } from './browser.js';

chromiumTool.describe('svc dev web console (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  const { dir: shots, shot } = screenshots('shots', () => page);
  let transactionId = '';

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--show-secrets']));
  });
  // A failed test leaves a picture of what the page showed, and says where.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    const file = join(shots, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    console.error(`screenshot of the failure: ${file}`);
  });
  afterAll(async () => {
    await con?.close();
  });

  it('loads in under 300 ms on loopback and asks for the key, which never enters a URL', async () => {
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${dev.baseUrl}/console/`);
      await page.getByLabel('API key').waitFor();
      // From navigation start to the sign-in form rendered by the bundle (marked by the page itself).
      loads.push(await page.evaluate(() => performance.getEntriesByName('svc:ready')[0]!.startTime));
    }
    const timing = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).toJSON());
    // Same-run baseline: one bare static file from the same server, shown as a page.
    const baseline: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${dev.baseUrl}/console/app.css`);
      baseline.push(await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd));
    }
    console.log(
      `console load on loopback: ready ${loads.map((t) => t.toFixed(0)).join('/')} ms (best ${Math.min(...loads).toFixed(0)} ms), domContentLoaded ${timing.domContentLoadedEventEnd.toFixed(0)} ms, load ${timing.loadEventEnd.toFixed(0)} ms; ` +
        `baseline, a bare static file: ${baseline.map((t) => t.toFixed(0)).join('/')} ms`,
    );
    await page.goto(`${dev.baseUrl}/console/`);
    await page.getByLabel('API key').waitFor();
    expect(Math.min(...loads)).toBeLessThan(300);
    await shot('sign-in');

    await page.getByLabel('API key').fill('sk_not_this_one');
    await page.getByRole('button', { name: 'Open the console' }).click();
    await page.getByText('API key: the service does not know this key').waitFor();

    await page.getByLabel('API key').fill(dev.apiKey);
    await page.getByRole('button', { name: 'Open the console' }).click();
    await page.locator('.live.live').waitFor();
    expect(page.url()).not.toContain(dev.apiKey);
    expect(await page.evaluate(() => location.href + document.referrer)).not.toContain(dev.apiKey);
  });

  it('signs in once with the link svc dev printed, and takes the code out of the address bar', async () => {
    const link = String(dev.started.consoleLink);
    expect(link).toMatch(/\/console\/#code=/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await page.goto('about:blank');
    await page.goto(link);
    await page.locator('.live.live').waitFor();
    expect(page.url()).toBe(`${dev.baseUrl}/console/#/activity`);

    // Used: the same link now says so and asks for the key.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByText('This console link was already used or has expired').waitFor();
    await page.getByLabel('API key').fill(dev.apiKey);
    await page.getByRole('button', { name: 'Open the console' }).click();
    await page.locator('.live.live').waitFor();
  });

  it('shows an event the moment it is triggered, and its timeline', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    await page.locator('.live.live').waitFor();
    // Triggered outside the page, as the CLI would: the page learns of it from the live stream.
    // The page has no timer that reads the feed again: only the live stream can bring the row. Its delay
    // is printed, not bounded (a loaded CI machine is not a slow console).
    const sent = Date.now();
    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'otp', to: 'grace', payload: { code: '246810' } });
    expect(t.status).toBe(201);
    const row = page.locator(`tr[data-transaction="${t.body.data.transactionId}"]`);
    await row.waitFor();
    console.log(`console: a triggered event appeared in the live Activity list ${Date.now() - sent} ms after the trigger was sent`);
    await row.click();
    const detail = page.locator('[data-event-detail]');
    await detail.getByText('Message sent').waitFor();
    expect(await detail.locator('.detail .d').allInnerTexts()).toEqual(['Step queued', 'Message created', 'Message sent']);
    await shot('activity');

    // Filters go to the feed's query (subscriber, channel) or its jobs (status).
    await page.getByLabel('Subscriber', { exact: true }).fill('ada');
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Subscriber', { exact: true }).fill('grace');
    await page.getByLabel('Channel').selectOption('sms');
    await row.waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No events match.').waitFor();
    await page.goto(`${dev.baseUrl}/console/#/activity`);
  });

  it('triggers a workflow from the form and follows it live', async () => {
    await page.goto(`${dev.baseUrl}/console/#/trigger`);
    await page.getByLabel('Workflow', { exact: true }).fill('welcome');
    await page.getByLabel('Subscriber').fill('ada');
    // Markup in the payload must reach the recipient as text, never as the console's own HTML.
    await page.getByLabel('Payload (JSON)').fill(JSON.stringify({ appName: 'Console <img src=x onerror="top.document.title=1">Test' }));
    await page.getByRole('button', { name: 'Trigger', exact: true }).click();
    const follow = page.locator('.follow');
    await follow.waitFor();
    transactionId = (await follow.getAttribute('data-transaction'))!;
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
    await follow.locator('.job').nth(1).getByText('Message sent').waitFor();
    expect(await follow.locator('.job .badge').allInnerTexts()).toEqual(['completed', 'completed']);
    await shot('trigger');
  });

  it('renders the e-mail as the recipient sees it, in a sandboxed frame', async () => {
    await page.goto(`${dev.baseUrl}/console/#/messages?transaction=${transactionId}&channel=email`);
    await page.locator('li[data-channel=email]').click();
    const detail = page.locator('[data-message-detail]');
    await expect.poll(() => detail.locator('.subject').innerText()).toBe('Welcome aboard, Ada');
    await detail.getByText('ada@example.com').first().waitFor();
    const frame = detail.locator('.email-frame iframe');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const body = page.frameLocator('.email-frame iframe').locator('body');
    await expect.poll(() => body.innerText()).toContain('Hi Ada,');
    expect(await body.innerText()).toContain('Thanks for joining Console');
    // The sandbox kept the e-mail's markup from running anything.
    expect(await page.title()).toBe('svc dev console');
    await detail.getByRole('button', { name: 'Mobile' }).click();
    await expect.poll(() => frame.evaluate((f) => f.getBoundingClientRect().width)).toBe(375);
    await shot('messages-email');

    await page.goto(`${dev.baseUrl}/console/#/messages?transaction=${transactionId}&channel=in_app`);
    await page.locator('li[data-channel=in_app]').click();
    const card = page.locator('[data-message-detail] .inapp');
    await card.getByText('Get started').waitFor();
    // The service sanitises in-app content; what is left of the tag is shown as text by the console,
    // never made an element.
    expect(await card.locator('.inapp-subject').innerText()).toMatch(/^Welcome to Console <img src="?x"?[^>]*>Test$/);
    expect(await card.locator('img').count()).toBe(0);
  });

  it('marks an in-app message read through the Inbox API, and the operator API agrees', async () => {
    const list = await api(dev, 'GET', `/v1/messages?subscriberId=ada&channel=in_app&transactionId=${transactionId}`);
    const id = list.body.data[0]._id as string;
    await page.goto(`${dev.baseUrl}/console/#/inbox?subscriber=ada`);
    const item = page.locator(`ul.inbox li[data-message="${id}"]`);
    await item.waitFor();
    expect(await item.getAttribute('class')).toBe('unread');
    await item.getByRole('button', { name: 'Mark read' }).click();
    await page.locator(`ul.inbox li.read[data-message="${id}"]`).waitFor();
    const after = await api(dev, 'GET', `/v1/messages?subscriberId=ada&channel=in_app&transactionId=${transactionId}`);
    expect(after.body.data[0]).toMatchObject({ read: true, seen: true });
    await page.locator('.mini-feed li').first().waitFor();
    await shot('inbox');

    await page.goto(`${dev.baseUrl}/console/#/workflows?workflow=welcome`);
    await page.locator('#preview-payload').fill(JSON.stringify({ payload: { appName: 'Preview Co' } }));
    await page.locator('.step .inapp-subject', { hasText: 'Welcome to Preview Co' }).waitFor();
    await shot('workflows');
  });

  it('never put the key in a logged request line', () => {
    expect(dev.stderr()).toContain('GET /console/ 200');
    expect(dev.stderr()).not.toContain(dev.apiKey);
  });
});

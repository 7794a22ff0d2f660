// The console's Inbox page uses the in-app Inbox's front-end API, as an app's <Inbox/> does, in a real
// browser (headless Chromium) against the built `svc dev`: a session for the subscriber picked
// (POST /v1/inbox/session), its token sent as a Bearer header to list and mark notifications, never in
// a URL nor in the service's log; the marks change the message's state as the operator API reads it;
// with the in-app integration's HMAC on, the page still gets a session (subscriberHash) and lists.
// Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool } from './browser.js';

const WHO = 'inbox-reader';

chromiumTool.describe('svc dev web console: the Inbox page on the Inbox API (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  const shots = process.env.SVC_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'svc-console-inbox-'));
  const requests: Array<{ method: string; url: string; auth: string | undefined; body: string | null }> = [];
  const tokens = new Set<string>();
  const ids: string[] = [];
  const state = async () =>
    Object.fromEntries(
      ((await api(dev, 'GET', `/v1/messages?subscriberId=${WHO}&channel=in_app`)).body.data as Array<any>).map((m) => [
        m._id,
        `${m.read ? 'read' : 'unread'}/${m.seen ? 'seen' : 'unseen'}`,
      ]),
    );

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--show-secrets']));
    page.on('request', (r) => {
      const auth = r.headers().authorization;
      if (auth?.startsWith('Bearer ')) tokens.add(auth.slice(7));
      requests.push({ method: r.method(), url: r.url(), auth, body: r.postData() });
    });
    for (const n of [1, 2]) {
      const r = await api(dev, 'POST', '/v1/events/trigger', {
        name: 'welcome',
        to: { subscriberId: WHO, firstName: 'Ina' },
        payload: { appName: `Inbox ${n}` },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    for (let i = 0; i < 100 && Object.keys(await state()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    ids.push(...Object.keys(await state()));
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 60_000);
  afterAll(async () => {
    await con?.close();
  });

  it('lists with a session token as Bearer and marks read, seen, unread and all read through /v1/inbox', async () => {
    requests.length = 0;
    await page.goto(`${dev.baseUrl}/console/#/inbox`);
    await page.getByLabel('Find a subscriber').fill(WHO);
    await page.locator(`.picker-results button[data-subscriber="${WHO}"]`).click();
    const [a, b] = ids as [string, string];
    const item = page.locator(`ul.inbox li[data-message="${a}"]`);
    await item.waitFor();
    await page.locator(`ul.inbox li[data-message="${b}"]`).waitFor();
    expect(await page.locator('.counts').innerText()).toBe('2 unread of 2');

    // A session for that subscriber with the environment's application identifier, without the API key.
    const environment = await api(dev, 'GET', '/v1/environments/me');
    const session = requests.find((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/inbox/session');
    expect(session, JSON.stringify(requests)).toBeDefined();
    expect(JSON.parse(session!.body!)).toMatchObject({ applicationIdentifier: environment.body.data.identifier, subscriberId: WHO });
    expect(session!.auth).toBeUndefined();
    // The list is the Inbox's, with that session's token; the operator's in-app reads are not used.
    const list = requests.find((r) => r.method === 'GET' && new URL(r.url).pathname === '/v1/inbox/notifications');
    expect(list, JSON.stringify(requests.map((r) => r.url))).toBeDefined();
    expect(list!.auth).toMatch(/^Bearer \S+$/);
    expect(requests.filter((r) => new URL(r.url).pathname === '/v1/messages')).toEqual([]);

    await item.getByRole('button', { name: 'Mark seen' }).click();
    await item.getByText('unread · seen').waitFor();
    expect((await state())[a]).toBe('unread/seen');

    await item.getByRole('button', { name: 'Mark read' }).click();
    await page.locator(`ul.inbox li.read[data-message="${a}"]`).waitFor();
    expect((await state())[a]).toBe('read/seen');
    // The count is a read of its own, refreshed beside the list (a live refresh may restart it).
    await page.locator('.counts', { hasText: '1 unread of 2' }).waitFor();
    const patch = requests.find((r) => r.method === 'PATCH' && new URL(r.url).pathname === `/v1/inbox/notifications/${a}/read`);
    expect(patch?.auth).toMatch(/^Bearer /);

    await item.getByRole('button', { name: 'Mark unread' }).click();
    await page.locator(`ul.inbox li.unread[data-message="${a}"]`).waitFor();
    expect((await state())[a]).toBe('unread/seen');

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('0 unread of 2').waitFor();
    expect(await state()).toEqual({ [a]: 'read/seen', [b]: 'read/seen' });
    expect(requests.some((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/inbox/notifications/read')).toBe(true);
    // None of the marks went through the operator's mark-as.
    expect(requests.filter((r) => r.url.includes('/mark-as'))).toEqual([]);
    // The preferences panel, the identifier and the subscriber's activity are still beside it.
    await page.locator('.mini-feed li').first().waitFor();
    await page.locator('.preferences tr[data-preference=global]').waitFor();
    expect(await page.locator('.app-id code').innerText()).toBe(environment.body.data.identifier);
    await page.screenshot({ path: join(shots, 'inbox-api.png') });
    console.error(`screenshot: ${join(shots, 'inbox-api.png')}`);
  });

  it('still lists with HMAC on: the session carries the subscriber hash', async () => {
    const integrations = await api(dev, 'GET', '/v1/integrations/active');
    const inApp = (integrations.body.data as Array<any>).find((i) => i.channel === 'in_app');
    expect(inApp, JSON.stringify(integrations.body)).toBeDefined();
    const put = await api(dev, 'PUT', `/v1/integrations/${inApp._id}`, { credentials: { hmac: true } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const environment = await api(dev, 'GET', '/v1/environments/me');
    // Without the hash the service now refuses a session.
    const bare = await fetch(`${dev.baseUrl}/v1/inbox/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationIdentifier: environment.body.data.identifier, subscriberId: WHO }),
    });
    expect(bare.status).toBe(400);

    requests.length = 0;
    await page.goto(`${dev.baseUrl}/console/#/inbox?subscriber=${WHO}`);
    await page.reload();
    for (const id of ids) await page.locator(`ul.inbox li[data-message="${id}"]`).waitFor();
    const session = requests.find((r) => r.method === 'POST' && new URL(r.url).pathname === '/v1/inbox/session');
    expect(JSON.parse(session!.body!).subscriberHash).toBe(createHmac('sha256', dev.apiKey).update(WHO).digest('hex'));
    expect(await page.locator('.error').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'inbox-api-hmac.png') });
  });

  it('never puts the session token in a URL or in the service log', () => {
    expect(tokens.size).toBeGreaterThan(0);
    for (const t of tokens) {
      expect(requests.filter((r) => r.url.includes(t))).toEqual([]);
      expect(dev.stderr()).not.toContain(t);
    }
    expect(dev.stderr()).toContain('/v1/inbox/notifications');
  });
});

// The rest of the issue's page list, in a real browser (headless Chromium) against the built `svc dev`:
// the Activity filters by workflow and time, the SMS/chat/push renderings, the raw provider request of a
// webhook delivery beside the message, the Inbox's seen/unread/all-read marks through the Inbox API, and a
// workflow's issues with every step rendered by the preview operation. console.test.ts covers sign-in,
// live updates, the Trigger form, the e-mail frame and "mark read".
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, holdNext, watchReads } from './browser.js';

chromiumTool.describe('svc dev web console pages (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  // A chat webhook receiver on loopback: the provider the raw exchange is shown for.
  let hook: Server;
  const received: string[] = [];
  const tx: Record<string, string> = {};
  // Every request the pages make, with the authorization it carried.
  const requests: Array<{ url: string; auth: string | undefined }> = [];

  beforeAll(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"ts":"1700000000.000100"}');
      });
    });
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
    // The demo data, plus a chat integration that posts to the receiver above.
    const seed = join(mkdtempSync(join(tmpdir(), 'svc-console-seed-')), 'seed.json');
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    writeFileSync(
      seed,
      JSON.stringify({ integrations: [{ identifier: 'ops-hook', providerId: 'chat-webhook', channel: 'chat', credentials: { webhookUrl: url } }] }),
    );
    ({ dev, page } = con = await startConsoleDev(['--seed', seed, '--show-secrets']));
    page.on('request', (r) => requests.push({ url: r.url(), auth: r.headers().authorization }));
    const trigger = async (key: string, body: Record<string, unknown>) => {
      const r = await api(dev, 'POST', '/v1/events/trigger', body);
      expect(r.status).toBe(201);
      tx[key] = r.body.data.transactionId;
    };
    // 194 GSM-7 characters with the template's text: two segments of 153.
    await trigger('otp', { name: 'otp', to: 'grace', payload: { code: 'x'.repeat(149) } });
    await trigger('incident', {
      name: 'incident',
      to: 'ada',
      payload: { service: 'billing-api', status: 'degraded', summary: 'Error rate above 5%' },
      overrides: { chat: { integrationIdentifier: 'ops-hook' } },
    });
    await trigger('welcome', { name: 'welcome', to: 'grace', payload: { appName: 'Inbox Co' } });
    await trigger('welcome2', { name: 'welcome', to: 'grace', payload: { appName: 'Second Co' } });
    // Every delivery done (the runner is asynchronous).
    for (let i = 0; (await api(dev, 'GET', '/v1/messages?limit=50')).body.data.length < 7; i++) {
      if (i === 100) throw new Error('the 7 messages were not delivered within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }

    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  });
  afterAll(async () => {
    await con?.close();
    await new Promise((ok) => hook?.close(ok));
  });

  it('filters the feed by workflow and by time', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const row = (k: string) => page.locator(`tr[data-transaction="${tx[k]}"]`);
    await row('otp').waitFor();
    await row('incident').waitFor();

    await page.getByLabel('Workflow', { exact: true }).fill('otp');
    await row('incident').waitFor({ state: 'detached' });
    await row('otp').waitFor();
    expect(await page.locator('tr[data-transaction]').count()).toBe(1);
    // The identifier was turned into the workflow's id for the feed's `templates` filter.
    await page.getByLabel('Workflow', { exact: true }).fill('');
    await row('incident').waitFor();

    // Time: the feed is asked for events after "now - 15 minutes", and today's events stay.
    const asked = page.waitForRequest((r: Request) => r.url().includes('/v1/notifications?') && r.url().includes('after='));
    await page.getByLabel('Time').selectOption('15m');
    const after = new Date(new URL((await asked).url()).searchParams.get('after')!).getTime();
    expect(Math.abs(Date.now() - 15 * 60_000 - after)).toBeLessThan(60_000);
    await row('otp').waitFor();
    expect(page.url()).toContain('since=15m');
  });

  it('keeps every character typed fast into a filter box (two keystrokes inside one frame)', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    await page.locator('tr[data-transaction]').first().waitFor();
    // Each keystroke renders (microtasks later) before the next frame, as on a busy machine: the box must hold
    // the newest text, never the route's older value put back by an effect still waiting for that frame.
    const seen = await page.evaluate(async () => {
      const box = document.querySelector<HTMLInputElement>('input[aria-label="Subscriber"]')!;
      // Preact renders in a microtask; its effects wait for a frame (stopped here) or a 35 ms timer: a few
      // microtask turns let a keystroke render while its effects still wait, whatever the machine's load.
      const tick = async () => {
        for (let i = 0; i < 20; i++) await null;
      };
      const raf = window.requestAnimationFrame;
      window.requestAnimationFrame = () => 0;
      const values: string[] = [];
      try {
        for (const text of ['g', 'gr', 'gra', 'grac', 'grace']) {
          box.value = text;
          box.dispatchEvent(new InputEvent('input', { bubbles: true }));
          await tick();
          values.push(box.value);
        }
      } finally {
        window.requestAnimationFrame = raf;
      }
      return values;
    });
    expect(seen).toEqual(['g', 'gr', 'gra', 'grac', 'grace']);
    await expect.poll(() => page.getByLabel('Subscriber', { exact: true }).inputValue()).toBe('grace');
    expect(page.url()).toContain('subscriber=grace');
    await page.locator(`tr[data-transaction="${tx.incident}"]`).waitFor({ state: 'detached' });
    await page.getByLabel('Subscriber', { exact: true }).fill('');
    await page.locator(`tr[data-transaction="${tx.incident}"]`).waitFor();
  });

  it("shows an event's timeline only once it is that event's: never the previous one's, never a row of the filters before", async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const rowOf = (k: string) => page.locator(`tr[data-transaction="${tx[k]}"]`);
    await rowOf('incident').waitFor();
    const top = (await page.locator('tr[data-event]').first().getAttribute('data-event'))!;
    const eventOf = async (k: string) => (await rowOf(k).getAttribute('data-event'))!;
    const [otp, incident] = [await eventOf('otp'), await eventOf('incident')];
    expect(new Set([top, otp, incident]).size).toBe(3);
    const asked: string[] = [];
    const log = (r: Request) => void asked.push(r.url());
    page.on('request', log);
    try {
      // One event open, then another clicked while its read is held: the pane must not show the first.
      await rowOf('otp').click();
      await page.locator(`[data-event-detail="${otp}"]`).waitFor();
      const detailHeld = await holdNext(page, new RegExp(`/v1/notifications/${incident}$`));
      try {
        await rowOf('incident').click();
        await detailHeld.asked;
        expect(await page.locator('[data-event-detail]').count()).toBe(0);
      } finally {
        await detailHeld.end();
      }
      await page.locator(`[data-event-detail="${incident}"]`).waitFor();

      // The link to a transaction, opened from the unfiltered list: while the transaction's own read is
      // held, the list's top row (another transaction) must not be opened.
      await page.goto(`${dev.baseUrl}/console/#/activity`);
      await page.locator('[data-event-detail]').waitFor({ state: 'detached' });
      asked.length = 0;
      const feedHeld = await holdNext(page, new RegExp(`/v1/notifications\\?.*transactionId=${tx.otp}`));
      try {
        await page.goto(`${dev.baseUrl}/console/#/activity?transaction=${tx.otp}`);
        await feedHeld.asked;
        expect(await page.locator('[data-event-detail]').count()).toBe(0);
      } finally {
        await feedHeld.end();
      }
      await page.locator(`[data-event-detail="${otp}"]`).waitFor();
      expect(asked.filter((u) => u.endsWith(`/v1/notifications/${top}`))).toEqual([]);
    } finally {
      page.off('request', log);
    }
  });

  it("says when nothing went out (skipped), as svc events list does, not 'completed'; the status filter knows it", async () => {
    const wf = await api(dev, 'POST', '/v2/workflows', {
      name: 'Always skipped',
      workflowId: 'always-skipped',
      active: true,
      steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'hi', skip: { '==': [1, 1] } } }],
    });
    expect(wf.status).toBe(201);
    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'always-skipped', to: 'grace' });
    expect(t.status).toBe(201);
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const skipped = page.locator(`tr[data-transaction="${t.body.data.transactionId}"]`);
    await skipped.locator('.badge', { hasText: /^skipped$/ }).waitFor();
    expect(await page.locator(`tr[data-transaction="${tx.otp}"] .badge`).innerText()).toBe('delivered');
    await skipped.click();
    await page
      .locator('[data-event-detail] .reason')
      .getByText(/skip condition/)
      .waitFor();

    await page.getByLabel('Status').selectOption('delivered');
    await skipped.waitFor({ state: 'detached' });
    await page.getByLabel('Status').selectOption('skipped');
    await skipped.waitFor();
    expect(await page.locator('tr[data-transaction]').count()).toBe(1);
    // `completed` is every step finished, whatever went out (svc events list --status completed).
    await page.getByLabel('Status').selectOption('completed');
    await skipped.waitFor();
    await page.locator(`tr[data-transaction="${tx.otp}"]`).waitFor();
    await page.getByLabel('Status').selectOption('');
  });

  it('shows an SMS with its segment count, chat and push as cards, and the raw webhook request beside the chat', async () => {
    await page.goto(`${dev.baseUrl}/console/#/messages?channel=sms&transaction=${tx.otp}`);
    await page.locator('li[data-channel=sms]').click();
    const detail = page.locator('[data-message-detail]');
    await detail
      .locator('.sms .bubble')
      .getByText(`Your Acme code is ${'x'.repeat(149)}.`)
      .waitFor();
    expect(await detail.locator('.sms-meta').innerText()).toMatch(/^2 segments · 194 characters · GSM-7 \(153 per segment\)/);

    await page.goto(`${dev.baseUrl}/console/#/messages?channel=push&transaction=${tx.incident}`);
    await page.locator('li[data-channel=push]').click();
    await detail.locator('.push .push-title').getByText('Incident: billing-api').waitFor();
    expect(await detail.locator('.push .push-body').innerText()).toBe('Error rate above 5%');

    await page.goto(`${dev.baseUrl}/console/#/messages?channel=chat&transaction=${tx.incident}`);
    await page.locator('li[data-channel=chat]').click();
    await detail.locator('.chat .chat-body').getByText(':rotating_light: BILLING-API is degraded').waitFor();
    // Beside it: the exchange with the webhook (request line, signature, answer) from the execution
    // details. (The service records the request's body in no execution detail; the delivery record
    // below it holds the rendered content that body carried.)
    const raw = detail.locator('aside.raw');
    await raw.getByText(/Message sent: chat-webhook webhook .* answered 200/).waitFor();
    const exchange = JSON.parse(await raw.locator('pre.json').first().innerText());
    // The receiver's JSON answer is shown as JSON, not as a string of it.
    expect(exchange).toMatchObject({ method: 'POST', status: 200, body: { ok: true, ts: '1700000000.000100' } });
    expect(exchange.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await raw.locator('pre.json').last().innerText()).toContain(':rotating_light: BILLING-API is degraded');
    expect(received.some((b) => b.includes('BILLING-API is degraded'))).toBe(true);
    // The key never reaches the page's text, even in the raw exchange (the signature is not the key).
    expect(await page.locator('body').innerText()).not.toContain(dev.apiKey);
  });

  it('marks in-app messages seen, unread and all read through the Inbox API, and the operator API agrees', async () => {
    const state = async () =>
      Object.fromEntries(
        ((await api(dev, 'GET', '/v1/messages?subscriberId=grace&channel=in_app')).body.data as Array<any>).map((m) => [
          m.transactionId,
          `${m.read ? 'read' : 'unread'}/${m.seen ? 'seen' : 'unseen'}`,
        ]),
      );
    const [first] = (await api(dev, 'GET', `/v1/messages?subscriberId=grace&channel=in_app&transactionId=${tx.welcome}`)).body.data;
    await page.goto(`${dev.baseUrl}/console/#/inbox`);
    await page.getByLabel('Find a subscriber').fill('grace');
    await page.locator('.picker-results button[data-subscriber="grace"]').click();
    const item = page.locator(`ul.inbox li[data-message="${first._id}"]`);
    await item.waitFor();
    expect(await page.locator('.counts').innerText()).toBe('2 unread of 2');

    await item.getByRole('button', { name: 'Mark seen' }).click();
    await item.getByText('unread · seen').waitFor();
    expect((await state())[tx.welcome!]).toBe('unread/seen');

    await item.getByRole('button', { name: 'Mark read' }).click();
    await page.locator(`ul.inbox li.read[data-message="${first._id}"]`).waitFor();
    await item.getByRole('button', { name: 'Mark unread' }).click();
    await page.locator(`ul.inbox li.unread[data-message="${first._id}"]`).waitFor();
    expect((await state())[tx.welcome!]).toBe('unread/seen');

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('0 unread of 2').waitFor();
    expect(await state()).toEqual({ [tx.welcome!]: 'read/seen', [tx.welcome2!]: 'read/seen' });
  });

  it("shows a workflow's issues and renders every step for the edited preview payload", async () => {
    const created = await api(dev, 'POST', '/v2/workflows', {
      name: 'Broken reminder',
      workflowId: 'broken-reminder',
      steps: [
        { name: 'Reminder email', type: 'email', controlValues: { subject: '', body: 'Hello {{ payload.who }}' } },
        { name: 'Reminder SMS', type: 'sms', controlValues: { body: 'Hi {{ payload.who }}, see you at {{ payload.when }}' } },
      ],
    });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body.data.steps[0].issues)).toContain('Subject is required');

    // The payload editor must hold the example payload from the frame it appears in: were it filled by a
    // later effect, what is typed in between would be appended to the example (invalid JSON).
    await page.evaluate(() => {
      const w = window as unknown as { firstPayloadText?: string };
      new MutationObserver((_, observer) => {
        const editor = document.querySelector<HTMLTextAreaElement>('#preview-payload');
        if (!editor) return;
        w.firstPayloadText = editor.value;
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.goto(`${dev.baseUrl}/console/#/workflows?workflow=broken-reminder`);
    await expect.poll(() => page.evaluate(() => (window as unknown as { firstPayloadText?: string }).firstPayloadText)).toMatch(/^\{\s*"payload"/);
    // The list is the service's (GET /v2/workflows): a workflow never triggered is in it.
    await page.getByRole('list', { name: 'Workflows' }).getByText('comment-digest').waitFor();
    const wf = page.locator('[data-workflow="broken-reminder"]');
    await wf
      .locator('.step')
      .first()
      .locator('.issues')
      .getByText(/Subject is required/)
      .waitFor();
    expect(await wf.locator('.step').count()).toBe(2);

    // Every step re-renders through POST /v2/workflows/{id}/step/{stepId}/preview.
    const previews: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/v2\/workflows\/[^/]+\/step\/[^/]+\/preview$/.test(r.url())) previews.push(r.url());
    });
    await page.locator('#preview-payload').fill(JSON.stringify({ payload: { who: 'Lin', when: 'noon' } }));
    await wf.locator('.step').nth(1).locator('.sms .bubble').getByText('Hi Lin, see you at noon').waitFor();
    await expect.poll(() => page.frameLocator('.step .email-frame iframe').locator('body').innerText()).toContain('Hello Lin');
    expect(new Set(previews).size).toBe(2);
  });

  it("keeps a payload typed in the Trigger form while the workflow's example payload is on its way", async () => {
    const path = /\/v2\/workflows\/incident$/;
    const reads = await watchReads(page);
    const held = await holdNext(page, path);
    try {
      await page.goto(`${dev.baseUrl}/console/#/trigger`);
      await page.getByLabel('Workflow', { exact: true }).fill('incident');
      await held.asked;
      const typed = JSON.stringify({ service: 'typed while the example was loading' });
      await page.getByLabel('Payload (JSON)').fill(typed);
      held.release();
      // The console has read the example (and, in the same task, done what it does with it).
      await expect.poll(() => reads.read('GET', path)).toBe(1);
      expect(await page.getByLabel('Payload (JSON)').inputValue()).toBe(typed);
    } finally {
      await held.end();
    }
  });

  it('keeps the Trigger form read-only while the trigger is on its way, so nothing typed then is replaced by its answer', async () => {
    await page.goto(`${dev.baseUrl}/console/#/trigger`);
    await page.getByLabel('Workflow', { exact: true }).fill('welcome');
    await page.getByLabel('Subscriber', { exact: true }).fill('grace');
    await page.getByLabel('Payload (JSON)').fill('{"appName":"Held Co"}');
    const held = await holdNext(page, /\/v1\/events\/trigger$/);
    try {
      await page.getByRole('button', { name: 'Trigger', exact: true }).click();
      await held.asked;
      for (const field of [page.getByLabel('Workflow', { exact: true }), page.getByLabel('Subscriber', { exact: true }), page.getByLabel('Payload (JSON)')]) {
        expect(await field.isEditable()).toBe(false);
      }
    } finally {
      await held.end();
    }
    await page.locator('.follow').waitFor();
    expect(await page.getByLabel('Workflow', { exact: true }).isEditable()).toBe(true);
    expect(await page.getByLabel('Workflow', { exact: true }).inputValue()).toBe('welcome');
  });

  it("opens another event of a transaction's link when a status filter hides the one it opened", async () => {
    const wf = await api(dev, 'POST', '/v2/workflows', {
      name: 'Skipped for Ada',
      workflowId: 'skipped-for-ada',
      active: true,
      steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'hi', skip: { '==': [{ var: 'subscriber.subscriberId' }, 'ada'] } } }],
    });
    expect(wf.status).toBe(201);
    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'skipped-for-ada', to: ['ada', 'grace'] });
    expect(t.status).toBe(201);
    const transactionId = t.body.data.transactionId as string;
    const events = async () =>
      (await api(dev, 'GET', `/v1/notifications?transactionId=${transactionId}`)).body.data as Array<{ _id: string; jobs: Array<{ status: string }> }>;
    await expect.poll(async () => (await events()).map((e) => e.jobs.map((j) => j.status).join()).sort()).toEqual(['completed', 'skipped']);
    const all = await events();
    const ids = {
      skipped: all.find((e) => e.jobs[0]!.status === 'skipped')!._id,
      delivered: all.find((e) => e.jobs[0]!.status === 'completed')!._id,
    };
    await page.goto(`${dev.baseUrl}/console/#/activity?transaction=${transactionId}`);
    const opened = (await page.locator('[data-event-detail]').getAttribute('data-event-detail'))!;
    const other = opened === ids.skipped ? 'delivered' : 'skipped';
    await page.getByLabel('Status').selectOption(other);
    await page.locator(`[data-event-detail="${ids[other]}"]`).waitFor();
    expect(await page.locator('tr.sel').getAttribute('data-event')).toBe(ids[other]);
  });

  it('calls only svc dev itself (no CDN): its own assets, and the public API under the same key', () => {
    expect(requests.length).toBeGreaterThan(20);
    const paths = new Set<string>();
    for (const r of requests) {
      const u = new URL(r.url);
      if (u.protocol === 'about:' || u.protocol === 'data:') continue;
      expect(u.origin).toBe(dev.baseUrl);
      const kind = /^\/v[12]\//.test(u.pathname) ? 'api' : u.pathname.replace(/[?#].*$/, '');
      paths.add(kind);
      // The public API, with the key in the header as the CLI sends it, never in the URL; the Inbox's
      // front-end API (/v1/inbox/*) with a subscriber's session token instead, as an app's <Inbox/> calls it.
      if (u.pathname === '/v1/inbox/session') expect(r.auth).toBeUndefined();
      else if (u.pathname.startsWith('/v1/inbox/')) expect(r.auth).toMatch(/^Bearer \S+$/);
      else if (kind === 'api' || kind === '/console/live') expect(r.auth).toBe(`ApiKey ${dev.apiKey}`);
      expect(r.url).not.toContain(dev.apiKey);
    }
    // Besides the API: the page and its two files, the live stream, and the one-time code's exchange.
    expect([...paths].sort()).toEqual(['/console/', '/console/app.css', '/console/app.js', '/console/live', '/console/session', 'api'].sort());
  });
});

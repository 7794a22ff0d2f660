// A subscriber's preferences in the console, in a real browser (headless Chromium) against the built
// `svc dev`: the Inbox page shows the global and per-workflow channel switches the operator API answers
// (GET /v2/subscribers/{id}/preferences), and turning one off is stored (PATCH, read back through the API).
// Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { CHROMIUM, launch, NO_CHROMIUM_MESSAGE } from './browser.js';

if (!CHROMIUM) console.warn(`test/console/preferences.test.ts ${NO_CHROMIUM_MESSAGE}`);

interface Prefs {
  global: { channels: Record<string, boolean> };
  workflows: Array<{ channels: Record<string, boolean>; workflow: { identifier: string; critical?: boolean } }>;
}

describe.skipIf(!CHROMIUM)('svc dev web console: subscriber preferences (headless Chromium)', () => {
  let dev: DevProcess;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const shots = process.env.SVC_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'svc-console-prefs-'));
  const prefs = async (): Promise<Prefs> => {
    const r = await api(dev, 'GET', '/v2/subscribers/ada/preferences');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };

  beforeAll(async () => {
    [dev, browser] = await Promise.all([startDev({ args: ['--quiet', '--show-secrets'] }), launch()]);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it('shows the global and per-workflow switches; turning e-mail off for a workflow is stored', async () => {
    const before = await prefs();
    // A workflow of the demo data with an e-mail step that the subscriber may switch off.
    const target = before.workflows.find((w) => !w.workflow.critical && 'email' in w.channels);
    expect(target, JSON.stringify(before)).toBeDefined();
    const wf = target!.workflow.identifier;
    expect(target!.channels.email).not.toBe(false);

    await page.goto(`${dev.baseUrl}/console/#/inbox?subscriber=ada`);
    const panel = page.locator('.preferences');
    await panel.locator('tr[data-preference=global]').waitFor();
    // Every switch the API answers is on the page, checked as the API says.
    for (const [channel, on] of Object.entries(before.global.channels)) {
      expect(await panel.locator(`tr[data-preference=global] input[data-channel=${channel}]`).isChecked(), `global ${channel}`).toBe(on !== false);
    }
    for (const w of before.workflows) {
      const row = panel.locator(`tr[data-preference="${w.workflow.identifier}"]`);
      for (const [channel, on] of Object.entries(w.channels)) {
        const box = row.locator(`input[data-channel=${channel}]`);
        expect(await box.isChecked(), `${w.workflow.identifier} ${channel}`).toBe(on !== false);
        expect(await box.isDisabled(), `${w.workflow.identifier} ${channel} disabled`).toBe(!!w.workflow.critical);
      }
    }
    // The environment's application identifier, as GET /v1/environments/me answers it.
    const environment = await api(dev, 'GET', '/v1/environments/me');
    expect(await page.locator('.app-id code').innerText()).toBe(environment.body.data.identifier);
    await page.screenshot({ path: join(shots, 'inbox-preferences.png') });

    const email = panel.locator(`tr[data-preference="${wf}"] input[data-channel=email]`);
    await email.uncheck();
    await expect.poll(async () => (await prefs()).workflows.find((w) => w.workflow.identifier === wf)!.channels.email).toBe(false);
    await expect.poll(() => email.isChecked()).toBe(false);
    // Only that switch moved: the global e-mail switch and the other workflows are as they were.
    const after = await prefs();
    expect(after.global).toEqual(before.global);
    for (const w of after.workflows.filter((x) => x.workflow.identifier !== wf)) {
      expect(w.channels).toEqual(before.workflows.find((x) => x.workflow.identifier === w.workflow.identifier)!.channels);
    }
    // And the global switch, turned off and on again.
    const globalSms = panel.locator('tr[data-preference=global] input[data-channel=sms]');
    if (await globalSms.count()) {
      await globalSms.uncheck();
      await expect.poll(async () => (await prefs()).global.channels.sms).toBe(false);
      await globalSms.check();
      await expect.poll(async () => (await prefs()).global.channels.sms).toBe(true);
    }
    const file = join(shots, 'inbox-preferences-email-off.png');
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
    console.log(`screenshots: ${shots}`);
  });

  it('a read sent before a switch was clicked, landing after its answer, does not turn the switch back', async () => {
    // The live stream and the preference reads are held by the test, so the order is the one that
    // raced in CI: a change arrives, the page reads the preferences (the old state), the switch is
    // clicked and its PATCH answers, and only then does the old read land.
    const liveRequests: Array<() => Promise<void>> = [];
    await page.route('**/console/live', (route) => {
      liveRequests.push(() => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'event: change\ndata: {}\n\n' }));
    });
    let hold: { fetched: (request: Request) => void; release: Promise<void> } | undefined;
    await page.route('**/v2/subscribers/ada/preferences', async (route) => {
      const held = route.request().method() === 'GET' ? hold : undefined;
      if (!held) return route.continue();
      hold = undefined;
      const response = await route.fetch(); // the state now, before the click
      held.fetched(route.request());
      await held.release;
      await route.fulfill({ response });
    });
    try {
      await page.reload();
      const box = page.locator('.preferences tr[data-preference=global] input[data-channel=email]');
      await box.waitFor();
      expect(await box.isChecked()).toBe((await prefs()).global.channels.email !== false);
      await box.check();
      await expect.poll(async () => (await prefs()).global.channels.email).toBe(true);
      expect(await box.isChecked()).toBe(true);

      let release!: () => void;
      const fetched = new Promise<Request>((resolve) => {
        hold = { fetched: resolve, release: new Promise<void>((r) => (release = r)) };
      });
      await expect.poll(() => liveRequests.length).toBeGreaterThan(0);
      await liveRequests.shift()!(); // a change: the page reads the preferences again
      const staleRead = await fetched;
      const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/preferences'));
      await box.uncheck();
      expect((await patched).status()).toBe(200);
      const stale = page.waitForResponse((r) => r.request() === staleRead);
      release();
      await (await stale).finished();
      // The page has read that answer and drawn what it decided (a timer and two frames later).
      await page.evaluate(() => new Promise((ok) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(ok)), 50)));
      expect((await prefs()).global.channels.email).toBe(false);
      expect(await box.isChecked(), 'the switch shows the old state again').toBe(false);
    } finally {
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
  });
});

// A subscriber's preferences in the console, in a real browser (headless Chromium) against the built
// `svc dev`: the Inbox page shows the global and per-workflow channel switches the operator API answers
// (GET /v2/subscribers/{id}/preferences), and turning one off is stored (PATCH, read back through the API).
// Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, heldLive, holdNext, watchReads } from './browser.js';

interface Prefs {
  global: { channels: Record<string, boolean> };
  workflows: Array<{ channels: Record<string, boolean>; workflow: { identifier: string; critical?: boolean } }>;
}

chromiumTool.describe('svc dev web console: subscriber preferences (headless Chromium)', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  const shots = process.env.SVC_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'svc-console-prefs-'));
  const prefs = async (): Promise<Prefs> => {
    const r = await api(dev, 'GET', '/v2/subscribers/ada/preferences');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--quiet', '--show-secrets']));
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 60_000);
  afterAll(async () => {
    await con?.close();
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
    const live = await heldLive(page);
    const path = /\/v2\/subscribers\/ada\/preferences(\?|$)/;
    let armed = false;
    // The next read, once armed: answered with the state when it was asked (before the click), late.
    const staleRead = await holdNext(page, path, { snapshot: true, when: (r) => armed && r.method() === 'GET' });
    try {
      await page.reload();
      const reads = await watchReads(page);
      const box = page.locator('.preferences tr[data-preference=global] input[data-channel=email]');
      await box.waitFor();
      expect(await box.isChecked()).toBe((await prefs()).global.channels.email !== false);
      await box.check();
      await expect.poll(async () => (await prefs()).global.channels.email).toBe(true);
      expect(await box.isChecked()).toBe(true);

      armed = true;
      await live.send(); // a change: the page reads the preferences again
      await staleRead.asked;
      const before = await reads.read('GET', path);
      const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && path.test(r.url()));
      await box.uncheck();
      expect((await patched).status()).toBe(200);
      staleRead.release();
      // Both reads taken in by the page: the one the PATCH's answer started, and the old one.
      await expect.poll(() => reads.read('GET', path)).toBeGreaterThanOrEqual(before + 2);
      expect((await prefs()).global.channels.email).toBe(false);
      expect(await box.isChecked(), 'the switch shows the old state again').toBe(false);
    } finally {
      await staleRead.end();
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
  });
});

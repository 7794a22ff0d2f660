// Failures on purpose in the console (headless Chromium, the built `svc dev`): a bounced email's
// reason is the feed's reason column and the event view's reason, the same words as the timeline's
// Failed detail; a complaint shows on the timeline after the sending, with the provider's raw answer.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { chromiumTool, launch, screenshots } from './browser.js';

chromiumTool.describe('the simulator in the console (headless Chromium)', () => {
  let dev: DevProcess;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  const { shot } = screenshots('simulator', () => page);
  const tx: Record<string, string> = {};

  beforeAll(async () => {
    [dev, browser] = await Promise.all([startDev({ args: ['--show-secrets'] }), launch()]);
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    for (const [key, email] of [
      ['bounce', 'bounce@simulator.svc.test'],
      ['complaint', 'complaint@simulator.svc.test'],
    ]) {
      const r = await api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to: { subscriberId: `console-${key}`, email } });
      expect(r.status).toBe(201);
      tx[key!] = r.body.data.transactionId;
    }
    // Both emails handed to the simulator (the runner is asynchronous).
    for (let i = 0; (await api(dev, 'GET', '/v1/messages?limit=50&channel=email')).body.data.length < 2; i++) {
      if (i === 100) throw new Error('the 2 emails were not handled within 10 s');
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });

  it("a bounce: failed, the provider's reason in the feed and in the event view", async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity`);
    const row = page.locator(`tr[data-transaction="${tx.bounce}"]`);
    await row.locator('.badge', { hasText: /^failed$/ }).waitFor();
    expect(await row.locator('td.reason-cell').textContent()).toMatch(/hard bounce from bounce@simulator\.svc\.test/);
    await row.click();
    const reason = page.locator('[data-event-detail] .reason');
    await reason.getByText(/550 5\.1\.1 user unknown; not retried/).waitFor();
    await page.locator('[data-event-detail] .detail.Failed', { hasText: /hard bounce from bounce@simulator\.svc\.test/ }).waitFor();
    await shot('bounce');
  });

  it('a complaint: delivered, and the complaint on the timeline with its raw notification', async () => {
    await page.goto(`${dev.baseUrl}/console/#/activity?transaction=${tx.complaint}`);
    const row = page.locator(`tr[data-transaction="${tx.complaint}"]`);
    await row.locator('.badge', { hasText: /^delivered$/ }).waitFor();
    await row.click();
    const complaint = page.locator('[data-event-detail] .detail.Warning', { hasText: /Complaint from complaint@simulator\.svc\.test/ });
    await complaint.waitFor();
    await complaint.locator('summary', { hasText: 'raw' }).click();
    expect(await complaint.locator('pre').textContent()).toContain('"complaintFeedbackType": "abuse"');
    await shot('complaint');
  });
});

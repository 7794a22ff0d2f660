// The Messages page shows each message as sent with the checks `svc messages get` prints (one module,
// core/message-checks.ts): an email's headers with its sender, text part, links and size against
// Gmail's clipping; an SMS's encoding and segments; a push's payload against the APNs/FCM limits.
// Headless Chromium against the built `svc dev`.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { chromiumTool, screenshots } from './browser.js';

chromiumTool.describe('console: the captured outbox with its checks', () => {
  let dev: DevProcess;
  let con: ConsoleDev;
  let page: Page;
  const shots = screenshots('outbox', () => page);
  const messages: Record<string, string> = {};

  /** Triggers, then waits for the message of `channel` (held by svc dev until it is stored). */
  async function deliver(key: string, channel: string, body: Record<string, unknown>) {
    const t = await api(dev, 'POST', '/v1/events/trigger', body);
    expect(t.status).toBe(201);
    const tx = t.body.data.transactionId;
    const r = await api(dev, 'GET', `/v1/svc-dev/messages/wait?transactionId=${tx}&channel=${channel}&since=1970-01-01T00:00:00Z&holdMs=10000`);
    expect(r.body.data).not.toBeNull();
    messages[key] = r.body.data._id;
  }

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--show-secrets']));
    await api(dev, 'POST', '/v2/workflows', {
      name: 'Big mail',
      workflowId: 'big-mail',
      active: true,
      steps: [
        {
          name: 'Mail',
          type: 'email',
          controlValues: {
            subject: 'Your report',
            editorType: 'html',
            body: `<p>${'Report line. '.repeat(8500)}</p><p><a href="http://localhost:3000/report">Open the report</a></p>`,
          },
        },
      ],
    });
    await deliver('email', 'email', { name: 'big-mail', to: 'ada' });
    await deliver('sms', 'sms', { name: 'otp', to: 'grace', payload: { code: '4471 🚀' } });
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  });
  afterAll(async () => {
    await con?.close();
  });

  it('an email: headers with its sender, its links, and the size over the point where Gmail clips it', async () => {
    await page.goto(`${dev.baseUrl}/console/#/messages?message=${messages.email}`);
    const outbox = page.locator(`[data-outbox="${messages.email}"]`);
    await outbox.locator('.checks [data-check=size]').waitFor();
    expect(await outbox.locator('.checks [data-check=size]').innerText()).toMatch(
      /^✗ size HTML is 1\d\d KB \([\d,]+ bytes\): over the 102 KB past which Gmail clips the message, by \d+ KB$/,
    );
    await outbox.locator('.headers').getByText('"Acme" <hello@example.com>').waitFor();
    expect(await outbox.locator('.checks').innerText()).toContain('http://localhost:3000/report points at this machine');
    expect(await outbox.locator('.links').innerText()).toContain('http://localhost:3000/report');
    await shots.shot('email-checks');
  });

  it('an SMS: UCS-2 because of the emoji, and its segments', async () => {
    await page.goto(`${dev.baseUrl}/console/#/messages?message=${messages.sms}`);
    const outbox = page.locator(`[data-outbox="${messages.sms}"]`);
    await outbox.locator('[data-check=encoding]').waitFor();
    expect(await outbox.locator('[data-check=encoding]').innerText()).toBe("! encoding UCS-2 because of '🚀' (U+1F680), which GSM-7 does not have");
    expect(await outbox.locator('[data-check=segments]').innerText()).toMatch(/^✓ segments 1 segment: \d+ of the 70 UTF-16 units one SMS holds$/);
    expect(await page.locator('.sms-meta').innerText()).toMatch(/UCS-2 \(70 per segment\)/);
    await shots.shot('sms-checks');
  });
});

// Code-first workflows in the console, in a real browser (headless Chromium) against the built `svc dev`:
// real `@novu/framework` workflows served on loopback and registered the way the service's CLI does
// (POST /v1/bridge/sync?source=cli) appear on the Workflows page with their origin (`external`, the
// bridge URL) and steps, and each step's preview is rendered by the bridge itself; a step's control
// values are edited there, previewed, saved as the dashboard saves them (PUT /v2/workflows/{id}) and
// sent with the next execution. A workflow defined in svc dev starts from the service's example values.
// Screenshots go to SVC_SCREENSHOTS_DIR (or a temporary folder, printed).
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflow } from '@novu/framework';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type DevProcess } from '../helpers/dev.js';
import { type ConsoleDev, startConsoleDev } from '../helpers/console-dev.js';
import { type BridgeApp, startBridgeApp } from '../server/bridge/app.js';
import { chromiumTool } from './browser.js';

const onboarding = workflow(
  'onboarding-code',
  async ({ step, payload }) => {
    await step.inApp('hello', async () => ({ subject: 'Hello from the app', body: `Hi ${payload.name}, this came from the bridge` }));
    await step.delay('wait', async () => ({ type: 'regular', amount: 1, unit: 'minutes' }));
    await step.email('mail', async (controls) => ({ subject: controls.subject, body: `<p>Welcome ${payload.name}, rendered by the bridge</p>` }), {
      controlSchema: {
        type: 'object',
        properties: { subject: { type: 'string', default: 'Welcome aboard (code)' } },
        additionalProperties: false,
      } as const,
    });
  },
  {
    name: 'Onboarding (code)',
    payloadSchema: {
      type: 'object',
      properties: { name: { type: 'string', default: 'Grace' } },
      required: ['name'],
      additionalProperties: false,
    } as const,
  },
);

chromiumTool.describe('svc dev web console: code-first workflows through a bridge (headless Chromium)', () => {
  let dev: DevProcess;
  let app: BridgeApp;
  let con: ConsoleDev;
  let page: Page;
  const shots = process.env.SVC_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'svc-console-bridge-'));

  beforeAll(async () => {
    ({ dev, page } = con = await startConsoleDev(['--quiet', '--show-secrets']));
    app = await startBridgeApp([onboarding], dev.apiKey);
    const synced = await api(dev, 'POST', '/v1/bridge/sync?source=cli', { bridgeUrl: app.url });
    expect(synced.status, JSON.stringify(synced.body)).toBe(201);
    await page.goto(String(dev.started.consoleLink));
    await page.locator('.live.live').waitFor();
  }, 60_000);
  afterAll(async () => {
    await con?.close();
    await app?.close();
  });

  it('lists the external workflow, shows its origin, bridge URL and steps, and previews each step through the bridge', async () => {
    await page.goto(`${dev.baseUrl}/console/#/workflows`);
    const item = page.locator('.wf-list li', { hasText: 'onboarding-code' });
    await item.waitFor();
    expect(await item.locator('.chip.origin').innerText()).toBe('external');
    // A workflow defined in svc dev itself is not marked.
    expect(await page.locator('.wf-list li', { hasText: 'Welcome' }).first().locator('.chip.origin').count()).toBe(0);
    await item.click();

    const detail = page.locator('.workflow[data-workflow="onboarding-code"]');
    await detail.waitFor();
    expect(await detail.locator('.bridge-origin .chip.origin').innerText()).toBe('external');
    expect(await detail.locator('.bridge-url').innerText()).toBe(app.url);
    expect(await detail.locator('li.step').evaluateAll((els) => els.map((e) => e.getAttribute('data-step')))).toEqual(['hello', 'wait', 'mail']);

    // The previews: the bridge's outputs for the payload example (the schema's default name).
    const mail = detail.locator('li.step[data-step=mail] .step-preview');
    await expect.poll(() => mail.innerText()).toContain('Welcome aboard (code)');
    expect(await mail.locator('iframe').getAttribute('srcdoc')).toContain('Welcome Grace, rendered by the bridge');
    await expect.poll(() => detail.locator('li.step[data-step=hello] .step-preview').innerText()).toContain('Hi Grace, this came from the bridge');
    const previews = app.received.filter((r) => r.action === 'preview');
    expect(previews.map((r) => r.stepId).sort()).toEqual(expect.arrayContaining(['hello', 'mail']));
    expect(previews.every((r) => r.status === 200 && r.signature)).toBe(true);
    await page.screenshot({ path: join(shots, 'workflows-external.png') });

    // An edited payload goes to the bridge too.
    const editor = detail.locator('#preview-payload');
    await editor.fill(JSON.stringify({ payload: { name: 'Ada' } }));
    await expect.poll(() => detail.locator('li.step[data-step=hello] .step-preview').innerText()).toContain('Hi Ada, this came from the bridge');
    expect(app.received.filter((r) => r.action === 'preview' && r.stepId === 'hello').at(-1)!.body.payload).toEqual({ name: 'Ada' });
    const file = join(shots, 'workflows-external-edited.png');
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
    console.log(`screenshots: ${shots}`);
  });

  it("edits a code-first step's control values: previewed as typed, saved through PUT /v2/workflows, sent with the next execution", async () => {
    await page.goto(`${dev.baseUrl}/console/#/workflows?workflow=onboarding-code`);
    const detail = page.locator('.workflow[data-workflow="onboarding-code"]');
    const mail = detail.locator('li.step[data-step=mail]');
    await expect.poll(() => mail.locator('.step-preview').innerText()).toContain('Welcome aboard (code)');
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') saves.push(r.postData() ?? '');
    });
    await page.getByLabel('Control values of mail').fill(JSON.stringify({ subject: 'Edited in the console' }));
    await expect.poll(() => mail.locator('.step-preview').innerText()).toContain('Edited in the console');
    // The mail step's own preview: the page previews every step, and another's may come after it.
    expect(app.received.filter((r) => r.action === 'preview' && r.stepId === 'mail').at(-1)!.body.controls).toEqual({ subject: 'Edited in the console' });
    await detail.getByRole('button', { name: 'Save control values' }).click();
    await detail.locator('.saved', { hasText: 'Saved' }).waitFor();
    expect(JSON.parse(saves[0]!).steps.find((s: { stepId: string }) => s.stepId === 'mail').controlValues).toEqual({ subject: 'Edited in the console' });
    const stored = await api(dev, 'GET', '/v2/workflows/onboarding-code');
    expect(stored.body.data.steps[2].controls.values).toEqual({ subject: 'Edited in the console' });
    await page.screenshot({ path: join(shots, 'workflows-external-controls.png') });

    const t = await api(dev, 'POST', '/v1/events/trigger', { name: 'onboarding-code', to: 'ada', payload: { name: 'Ada' } });
    expect(t.body.data.status).toBe('processed');
    // The email step comes after a one-minute delay: the in-app step's execution is sent no controls.
    await expect.poll(() => app.received.filter((r) => r.action === 'execute' && r.stepId === 'hello').length).toBe(1);
    expect(app.received.find((r) => r.action === 'execute' && r.stepId === 'hello')!.body.controls).toEqual({});
  });

  it("a workflow defined in svc dev starts from the service's example values: a default filter's text, not a placeholder", async () => {
    await page.goto(`${dev.baseUrl}/console/#/workflows?workflow=welcome`);
    const detail = page.locator('.workflow[data-workflow="welcome"]');
    await detail.locator('#preview-payload').waitFor();
    await expect.poll(() => detail.locator('.step-preview').first().innerText()).toContain('Acme');
    expect(await detail.locator('.steps').innerText()).not.toContain('{{payload.appName}}');
    expect(await detail.locator('#preview-payload').inputValue()).not.toContain('appName');
    await page.screenshot({ path: join(shots, 'workflows-example-values.png') });
  });
});

// npm run screenshots: a PNG of each page of the svc dev web console. Starts the built `svc dev` (in
// memory, free port), triggers the demo workflows so every channel has a message, then drives the
// system's Chromium (Debian's `chromium` package; never a downloaded browser) through each page.
// Writes to dist/screenshots/ or the directory given as the first argument, and prints the console's
// load time (eight loads, the first cold). Run `npm run build:fast` first (the package script does).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.SVC_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!CHROMIUM) {
  console.error('screenshots: no Chromium found (apt-get install chromium, or set SVC_CHROMIUM)');
  process.exit(1);
}
const out = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist/screenshots/', import.meta.url)));
mkdirSync(out, { recursive: true });

const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const configDir = mkdtempSync(join(tmpdir(), 'svc-shots-'));
const apiKey = `sk_shots_${randomBytes(12).toString('hex')}`;
// A chat webhook on loopback, so that a chat message shows the provider exchange beside it (the demo's
// Slack integration delivers locally and sends no request).
const hook = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"channel":"C0OPS","ts":"1764081000.000200"}'));
});
await new Promise((ok) => hook.listen(0, '127.0.0.1', ok));
const seed = join(configDir, 'seed.json');
writeFileSync(
  seed,
  JSON.stringify({
    integrations: [
      {
        identifier: 'ops-hook',
        name: 'Ops chat webhook',
        providerId: 'chat-webhook',
        channel: 'chat',
        credentials: { webhookUrl: `http://127.0.0.1:${hook.address().port}/hooks/ops` },
      },
    ],
  }),
);
const dev = spawn(
  process.execPath,
  [bin, 'dev', '--port', '0', '--in-memory', '--seed', seed, '--api-key', apiKey, '--no-save-profile', '-o', 'json', '--quiet'],
  {
    env: { ...process.env, SVC_CONFIG_DIR: configDir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const { baseUrl, consoleLink } = await new Promise((ok, fail) => {
  let buf = '';
  dev.stdout.on('data', (d) => {
    buf += d;
    const nl = buf.indexOf('\n');
    if (nl >= 0) ok(JSON.parse(buf.slice(0, nl)));
  });
  dev.once('exit', (code) => fail(new Error(`svc dev exited with ${code}`)));
  setTimeout(() => fail(new Error('svc dev did not start within 30 s')), 30_000).unref();
});

async function api(method, path, body) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `ApiKey ${apiKey}`, ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

const userDataDir = mkdtempSync(join(tmpdir(), 'svc-shots-chromium-'));
let context;
const written = [];
let timing = '';
try {
  // A persistent context is how playwright takes a fresh --user-data-dir of ours.
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    viewport: { width: 1440, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await api('POST', '/v1/events/trigger', { name: 'welcome', to: 'ada', payload: { appName: 'Acme Cloud' } });
  await api('POST', '/v1/events/trigger', { name: 'otp', to: 'grace', payload: { code: '482913' } });
  await api('POST', '/v1/events/trigger', {
    name: 'incident',
    to: 'ada',
    payload: { service: 'billing-api', status: 'degraded', summary: 'Error rate above 5% for 10 minutes' },
    overrides: { chat: { integrationIdentifier: 'ops-hook' } },
  });
  await api('POST', '/v1/events/trigger', { name: 'welcome', to: 'grace', payload: {} });
  // Alan has no chat or push credentials: a failed event for the feed to show.
  await api('POST', '/v1/events/trigger', { name: 'incident', to: 'alan', payload: { service: 'search', summary: 'Index rebuild stalled' } });
  await new Promise((r) => setTimeout(r, 500));

  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  const shot = async (name) => {
    await page.waitForTimeout(150); // let a live refresh settle
    const file = join(out, `${name}.png`);
    await page.screenshot({ path: file });
    written.push(file);
  };

  // Load time on loopback, by the browser's clock: navigation start to the first screen the bundle
  // rendered (the page marks `svc:ready`), eight loads in a row, the first one cold.
  const loads = [];
  for (let i = 0; i < 8; i++) {
    await page.goto(`${baseUrl}/console/`);
    await page.getByLabel('API key').waitFor();
    loads.push(await page.evaluate(() => Math.round(performance.getEntriesByName('svc:ready')[0].startTime)));
  }
  const sorted = [...loads].sort((a, b) => a - b);
  timing = `console load on loopback (svc:ready): ${loads.join('/')} ms; first (cold) ${loads[0]} ms, median ${sorted[4]} ms, worst ${sorted[7]} ms`;
  await shot('sign-in');
  // Signed in as a person would be: by the one-time link svc dev printed (the key form is the fallback).
  await page.goto('about:blank');
  await page.goto(consoleLink ?? `${baseUrl}/console/`);
  if (!consoleLink) {
    await page.getByLabel('API key').fill(apiKey);
    await page.getByRole('button', { name: 'Open the console' }).click();
  }

  await page.locator('tr[data-event]').first().waitFor();
  await page.locator('tr[data-event]').first().click(); // the failed one: its timeline says why
  await page.locator('[data-event-detail]').waitFor();
  await shot('activity');

  const openMessage = async (channel) => {
    await page.goto(`${baseUrl}/console/#/messages?channel=${channel}`);
    await page.locator(`li[data-channel=${channel}]`).first().click();
    await page.locator('[data-message-detail]').waitFor();
  };
  await openMessage('email');
  await page.frameLocator('.email-frame iframe').locator('body').waitFor();
  await shot('messages-email');
  await page.getByRole('button', { name: 'Mobile' }).click();
  await shot('messages-email-mobile');
  for (const channel of ['in_app', 'sms', 'chat', 'push']) {
    await openMessage(channel);
    await shot(`messages-${channel.replace('_', '-')}`);
  }

  await page.goto(`${baseUrl}/console/#/inbox?subscriber=ada`);
  await page.locator('ul.inbox li').first().waitFor();
  await page.getByRole('button', { name: 'Mark read' }).first().click();
  await page.locator('ul.inbox li.read').first().waitFor();
  await page.getByText('Message read').first().waitFor();
  await shot('inbox');

  await page.goto(`${baseUrl}/console/#/workflows?workflow=welcome`);
  await page.locator('.step .email-frame iframe').waitFor();
  await page.locator('#preview-payload').fill(JSON.stringify({ payload: { appName: 'Preview Co' }, subscriber: { firstName: 'Linus' } }, null, 2));
  await page.locator('.step .inapp').getByText('Welcome to Preview Co').waitFor();
  await shot('workflows');

  await page.goto(`${baseUrl}/console/#/trigger`);
  await page.getByLabel('Workflow', { exact: true }).fill('incident');
  await page.getByLabel('Subscriber').fill('ada');
  await page.getByLabel('Payload (JSON)').fill(JSON.stringify({ service: 'search', status: 'down', summary: 'No results for 3 minutes' }, null, 2));
  await page.getByRole('button', { name: 'Trigger' }).click();
  await page.locator('.follow [data-event-detail]').waitFor();
  await page.locator('.follow .detail', { hasText: 'Message sent' }).nth(1).waitFor();
  await shot('trigger');
} finally {
  await context?.close();
  dev.kill('SIGINT');
  hook.close();
  rmSync(userDataDir, { recursive: true, force: true });
  rmSync(configDir, { recursive: true, force: true });
}
for (const f of written) console.log(f);
console.log(timing);

// A web app's page built with `@novu/react`'s <Inbox/> (bundled here with esbuild, served from another
// local origin) against the local service, in headless Chromium: the Inbox opens its session across
// origins (CORS), lists a notification triggered before, and shows one triggered while the page is
// open (the socket). A screenshot is taken for a person to look at (kept in SVC_SCREENSHOT_DIR when set).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launch, NO_CHROMIUM_MESSAGE } from '../../console/browser.js';
import { type Listening, listening } from './helpers.js';

const ENTRY = `
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { Inbox, Notifications } from '@novu/react';
const c = window.INBOX_CONFIG;
createRoot(document.getElementById('root')).render(
  h(Inbox, { applicationIdentifier: c.appId, subscriberId: c.subscriberId, backendUrl: c.base, socketUrl: c.base }, h(Notifications)),
);
`;

let s: Listening;
let page: Server;
let pageUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-page-'));

beforeAll(async () => {
  if (!CHROMIUM) return;
  s = await listening();
  const entry = join(dir, 'entry.jsx');
  writeFileSync(entry, ENTRY);
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [join(process.cwd(), 'node_modules')],
    logLevel: 'silent',
  });
  const js = out.outputFiles[0]!.text;
  const config = { appId: s.appId, subscriberId: 'ada', base: s.base };
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body style="margin:24px;font-family:sans-serif">
<h1>My app</h1><div id="root" style="width:420px"></div>
<script>window.INBOX_CONFIG = ${JSON.stringify(config)};</script><script src="/app.js"></script></body></html>`;
  page = createServer((req, res) => {
    if (req.url === '/app.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  // "localhost" vs "127.0.0.1": another origin than the service's.
  pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
}, 120_000);

afterAll(async () => {
  await s?.close();
  await new Promise((r) => (page ? page.close(r) : r(undefined)));
});

describe.skipIf(!CHROMIUM)(`@novu/react <Inbox/> in Chromium${CHROMIUM ? '' : ` (${NO_CHROMIUM_MESSAGE})`}`, () => {
  it('renders the notifications, and one triggered while the page is open', async () => {
    await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
    await s.svc.runner.idle();
    const browser = await launch();
    try {
      const tab = await browser.context.newPage();
      const failures: string[] = [];
      tab.on('requestfailed', (r) => failures.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`));
      // The socket.io CONNECT answer ("40…"): the server joins the subscriber's room before it sends it,
      // so a notification created after it reaches this page.
      const joined = new Promise<void>((ok) =>
        tab.on('websocket', (ws) => ws.on('framereceived', (frame) => void (String(frame.payload).startsWith('40') && ok()))),
      );
      await tab.goto(pageUrl);
      await tab.getByText('Welcome Ada! Your workspace is ready.').waitFor({ timeout: 20_000 });
      await Promise.race([joined, new Promise((_, no) => setTimeout(() => no(new Error('the Inbox socket did not connect within 20 s')), 20_000).unref())]);
      await s.svc.request('POST', '/v2/workflows', {
        body: {
          workflowId: 'deploy',
          name: 'Deploy',
          active: true,
          steps: [{ name: 'Inbox', type: 'in_app', controlValues: { subject: 'Deploy finished', body: 'main is live', primaryAction: { label: 'Open' } } }],
        },
      });
      await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'deploy', to: 'ada' } });
      await tab.getByText('main is live').waitFor({ timeout: 10_000 });
      // SVC_SCREENSHOT_DIR keeps it past the suite's temp folder.
      const shot = join(process.env.SVC_SCREENSHOT_DIR ?? dir, 'inbox.png');
      await tab.screenshot({ path: shot, clip: { x: 0, y: 0, width: 520, height: 560 } });
      console.log(`[figures] inbox page screenshot: ${shot}`);
      expect(failures).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

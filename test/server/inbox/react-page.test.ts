// A web app's page built with `@novu/react`'s <Inbox/> (bundled here with esbuild, served from another
// local origin) against the local service, in headless Chromium: the Inbox opens its session across
// origins (CORS), lists a notification triggered before, and shows one triggered while the page is
// open (the socket). A screenshot is taken for a person to look at (kept in SVC_SCREENSHOT_DIR when set).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumTool, launch } from '../../console/browser.js';
import { type InboxPage, serveInboxPage, watchSocket } from '../../helpers/inbox-page.js';
import { type Listening, listening } from './helpers.js';

let s: Listening;
let page: InboxPage;
const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-page-'));

beforeAll(async () => {
  if (!chromiumTool.present) return;
  s = await listening();
  page = await serveInboxPage({ appId: s.appId, subscriberId: 'ada', base: s.base });
}, 120_000);

afterAll(async () => {
  await s?.close();
  await page?.close();
});

chromiumTool.describe(`@novu/react <Inbox/> in Chromium`, () => {
  it('renders the notifications, and one triggered while the page is open', async () => {
    await s.svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
    await s.svc.runner.idle();
    const browser = await launch();
    try {
      const tab = await browser.context.newPage();
      const failures: string[] = [];
      tab.on('requestfailed', (r) => failures.push(`${r.method()} ${r.url()} ${r.failure()?.errorText}`));
      const socket = watchSocket(tab);
      await tab.goto(page.url);
      await tab.getByText('Welcome Ada! Your workspace is ready.').waitFor({ timeout: 20_000 });
      await socket.waitFor('connects', 1, 20_000);
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

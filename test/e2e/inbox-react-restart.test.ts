// An app's page with the real `@novu/react` <Inbox/> (served from http://localhost, another origin
// than the service) stays open in Chromium while the built `svc dev` is stopped and started again on
// the same store and port, twice: the Inbox's socket reconnects by itself, and a notification
// triggered after each restart shows on the page without a reload — after the first, one triggered
// while the page's socket is still kept out (at a TCP gate); after the second, one triggered at once,
// as a developer does. Screenshots are kept in SVC_SCREENSHOTS_DIR when set (a person looks at them).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { chromiumTool, launch, screenshots } from '../console/browser.js';
import { api, type DevProcess, startDev } from '../helpers/dev.js';
import { type InboxPage, serveInboxPage, watchSocket } from '../helpers/inbox-page.js';
import { type TcpGate, tcpGate } from '../helpers/tcp-gate.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-react-restart-'));
const dataFile = join(dir, 'dev.sqlite');
const apiKey = `sk_e2e_react_restart_${process.pid}`;
let dev: DevProcess | undefined;
let page: InboxPage | undefined;
let gate: TcpGate | undefined;

afterAll(async () => {
  await page?.close();
  await gate?.stop();
  if (dev) expect(await dev.stop()).toBe(0);
});

const start = (port: number) => startDev({ dataFile, apiKey, args: ['--no-save-profile', '--empty', '--port', String(port)] });

chromiumTool.describe(`<Inbox/> across restarts of svc dev`, () => {
  it('shows what is triggered after each of two restarts, without a reload', async () => {
    dev = await start(0);
    const port = Number(new URL(dev.baseUrl).port);
    const made = await api(dev, 'POST', '/v2/workflows', {
      workflowId: 'deploy',
      name: 'Deploy',
      active: true,
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { subject: 'Deploy {{payload.n}}', body: 'release {{payload.n}} is live' } }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    gate = await tcpGate(() => port);
    const g = gate;
    page = await serveInboxPage({
      appId: String(dev.started.applicationIdentifier),
      subscriberId: 'ada',
      base: dev.baseUrl,
      socketUrl: `http://127.0.0.1:${g.port}`,
    });
    const browser = await launch();
    try {
      const tab = await browser.context.newPage();
      const shots = screenshots('inbox-restart', () => tab);
      // A request the page sends while svc dev is stopped fails, as it would for anyone, and so may one
      // still unanswered when the stop begins (a keep-alive connection the stopping server closes as
      // the request reaches it); none may fail while it runs. Each failure is placed by when its
      // request started and when it failed.
      const failed: { sent: number; at: number; what: string }[] = [];
      const down: [number, number][] = [];
      const sent = new WeakMap<object, number>();
      tab.on('request', (r) => sent.set(r, Date.now()));
      tab.on('requestfailed', (r) =>
        failed.push({ sent: sent.get(r) ?? Date.now(), at: Date.now(), what: `${r.method()} ${r.url()} ${r.failure()?.errorText}` }),
      );
      let loads = 0;
      tab.on('load', () => loads++);
      const socket = watchSocket(tab);
      await tab.goto(page.url);
      await socket.waitFor('connects', 1, 20_000);
      expect((await api(dev, 'POST', '/v1/events/trigger', { name: 'deploy', to: 'ada', payload: { n: 0 } })).status).toBe(201);
      await tab.getByText('release 0 is live').waitFor({ timeout: 20_000 });

      for (const n of [1, 2]) {
        if (n === 1) g.close();
        const stopped = Date.now();
        expect(await dev.stop()).toBe(0);
        await socket.waitFor('closes', n, 20_000);
        dev = await start(port);
        down.push([stopped, Date.now()]);
        const d = dev;
        expect((await api(d, 'POST', '/v1/events/trigger', { name: 'deploy', to: 'ada', payload: { n } })).status).toBe(201);
        if (n === 1) {
          // Stored while the page's socket is still kept out; then it may come back.
          await expect.poll(async () => (await api(d, 'GET', '/v1/messages?subscriberId=ada&channel=in_app')).body.data.length, { timeout: 20_000 }).toBe(2);
          await expect.poll(() => g.refused(), { timeout: 40_000 }).toBeGreaterThan(0);
          g.open();
        }
        // socket.io-client's own back-off (1 s, doubling, at most 10 s) brings it back.
        await socket.waitFor('connects', n + 1, 40_000);
        await tab.getByText(`release ${n} is live`).waitFor({ timeout: 20_000 });
        await shots.shot(`inbox-after-restart-${n}`);
      }
      // Each once: none shown twice.
      for (const n of [0, 1, 2]) expect(await tab.getByText(`release ${n} is live`).count()).toBe(1);
      expect(loads).toBe(1);
      const whileDown = (t: number) => down.some(([from, to]) => t >= from && t <= to);
      expect(failed.filter((f) => !whileDown(f.sent) && !whileDown(f.at)).map((f) => f.what)).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});

// The system's Chromium (Debian's `chromium` package), driven by playwright-core. Never downloads a
// browser: without one installed, the browser tests skip and say why, except in CI, where they fail
// (helpers/ci.ts).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request, type Route } from 'playwright-core';
import { expect } from 'vitest';
import { tool } from '../helpers/ci.js';

const candidates = process.env.SVC_CHROMIUM ? [process.env.SVC_CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const CHROMIUM = candidates.find((p) => existsSync(p));
/** Declares the browser suites: without Chromium they are skipped (saying what to install), in CI they fail. */
export const chromiumTool = tool(`Chromium at ${candidates.join(' or ')}`, CHROMIUM !== undefined, 'apt-get install chromium, or set SVC_CHROMIUM');

export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  // A persistent context is how playwright takes a fresh --user-data-dir of ours.
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM!,
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
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Screenshots a test takes and then looks at: in SVC_SCREENSHOTS_DIR, or a temporary folder. Each is
 * checked not to be blank (a blank page compresses to a few hundred bytes; a rendered one does not),
 * and its path is printed.
 */
export function screenshots(prefix: string, page: () => Page): { dir: string; shot(name: string): Promise<string> } {
  const dir = process.env.SVC_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), `svc-console-${prefix}-`));
  return {
    dir,
    async shot(name) {
      const file = join(dir, `${name}.png`);
      await page().screenshot({ path: file });
      expect(statSync(file).size).toBeGreaterThan(10_000);
      console.log(`screenshot: ${file}`);
      return file;
    },
  };
}

/**
 * Holds the next request of the page matching `path` (and `when`) until `release()`, to force an order
 * of events the page must survive. The route is in place when this resolves: start the action after.
 * `asked` resolves once the page has sent the request; with `snapshot`, once the service has answered
 * it too (it is asked at once, so the answer is the state before anything the test does next, and is
 * delivered at release). Without `snapshot` the request goes on at release. `end()` releases, waits
 * until the answer has been passed on (a page that went away meanwhile is not an error), and removes
 * the route.
 */
export async function holdNext(
  page: Page,
  path: RegExp,
  opts: { snapshot?: boolean; when?: (request: Request) => boolean } = {},
): Promise<{ asked: Promise<void>; release(): void; end(): Promise<void> }> {
  let asked!: () => void;
  const sent = new Promise<void>((ok) => (asked = ok));
  let release!: () => void;
  const released = new Promise<void>((ok) => (release = ok));
  let passed: Promise<void> = Promise.resolve();
  let armed = true;
  const handler = (route: Route) => {
    if (!armed || (opts.when && !opts.when(route.request()))) return route.fallback();
    armed = false;
    passed = (async () => {
      const response = opts.snapshot ? await route.fetch() : undefined;
      asked();
      await released;
      await (response ? route.fulfill({ response }) : route.continue());
    })();
    return passed;
  };
  await page.route(path, handler);
  // Never sent (a wrong pattern, a page that did not ask): say so instead of waiting for the test's end.
  const askedInTime = Promise.race([
    sent,
    new Promise<void>((_, no) => setTimeout(() => no(new Error(`the page did not request ${path} within 15 s`)), 15_000).unref()),
  ]);
  askedInTime.catch(() => undefined);
  return {
    asked: askedInTime,
    release,
    async end() {
      release();
      await passed.catch(() => undefined);
      await page.unroute(path, handler);
    },
  };
}

/**
 * The console's live stream, played by the test: each connection the page opens is held until `send()`
 * answers it with one change (the page then reads again, and reconnects a second later). `opened()`
 * is how many connections wait for one.
 */
export async function heldLive(page: Page): Promise<{ send(): Promise<void>; opened(): number }> {
  const waiting: Route[] = [];
  await page.route('**/console/live', (route) => void waiting.push(route));
  return {
    opened: () => waiting.length,
    async send() {
      await expect.poll(() => waiting.length, { message: 'the console did not open its live stream' }).toBeGreaterThan(0);
      await waiting.shift()!.fulfill({ status: 200, contentType: 'text/event-stream', body: 'event: change\ndata: {}\n\n' });
    },
  };
}

/**
 * Counts the answers the page's own code has read (`Response.text()` resolved), by method and URL, in
 * the page as it is now (hash navigations keep it). A test polls `read(method, path)` to know that the
 * console has taken an answer in: its code runs right after the read, in the same task.
 */
export async function watchReads(page: Page): Promise<{ read(method: string, path: RegExp): Promise<number> }> {
  await page.evaluate(() => {
    const w = window as unknown as { svcReads?: string[] };
    if (w.svcReads) return;
    const reads: string[] = [];
    w.svcReads = reads;
    const fetchOf = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetchOf(input, init);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      const text = res.text.bind(res);
      res.text = () => {
        const body = text();
        body.then(
          () => reads.push(`${method} ${res.url}`),
          () => undefined,
        );
        return body;
      };
      return res;
    };
  });
  return {
    read: (method, path) =>
      page.evaluate(
        ([m, source]) =>
          ((window as unknown as { svcReads: string[] }).svcReads ?? []).filter((r) => r.startsWith(`${m} `) && new RegExp(source).test(r)).length,
        [method.toUpperCase(), path.source] as const,
      ),
  };
}

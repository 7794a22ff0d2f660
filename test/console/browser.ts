// The system's Chromium (Debian's `chromium` package), driven by playwright-core. Never downloads a
// browser: without one installed, the browser tests skip and say why, except in CI, where they fail.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request, type Route } from 'playwright-core';
import { expect } from 'vitest';
import { toolOrFailInCi } from '../helpers/ci.js';

const candidates = process.env.SVC_CHROMIUM ? [process.env.SVC_CHROMIUM] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const CHROMIUM = candidates.find((p) => existsSync(p));
toolOrFailInCi(`Chromium (${candidates.join(' or ')})`, CHROMIUM !== undefined);

export const NO_CHROMIUM_MESSAGE = `skipped: no Chromium at ${candidates.join(' or ')} (apt-get install chromium, or set SVC_CHROMIUM); .ci/run installs it`;

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
 * of events the page must survive. `asked` resolves once the page has sent it. With `snapshot`, the
 * service is asked at once and its answer (the state before anything the test does next) is delivered
 * at release; otherwise the request goes on at release. `end()` releases, waits until the answer has
 * been passed on, and removes the route.
 */
export async function holdNext(
  page: Page,
  path: RegExp,
  opts: { snapshot?: boolean; when?: (request: Request) => boolean } = {},
): Promise<{ asked: Promise<void>; release(): void; end(): Promise<void> }> {
  let asked!: () => void;
  const askedP = new Promise<void>((ok) => (asked = ok));
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
  return {
    asked: askedP,
    release,
    async end() {
      release();
      await passed;
      await page.unroute(path, handler);
    },
  };
}

// The system's Chromium (Debian's `chromium` package), driven by playwright-core. Never downloads a
// browser: without one installed, the browser tests skip and say why, except in CI, where they fail.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
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

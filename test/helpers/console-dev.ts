// What every console suite starts with: the built `svc dev` and the system's Chromium, side by side,
// and the browser's page with a bounded wait on every action. `close()` stops both.
import type { BrowserContext, Page } from 'playwright-core';
import { launch } from '../console/browser.js';
import { type DevProcess, startDev } from './dev.js';

export interface ConsoleDev {
  dev: DevProcess;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** svc dev with `args` (and a browser beside it); every page action waits at most `timeoutMs`. */
export async function startConsoleDev(args: string[], timeoutMs = 10_000): Promise<ConsoleDev> {
  const [dev, browser] = await Promise.all([startDev({ args }), launch()]);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(timeoutMs);
  return {
    dev,
    context: browser.context,
    page,
    async close() {
      await browser.close();
      await dev.stop();
    },
  };
}

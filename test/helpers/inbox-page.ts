// A web app's page with `@novu/react`'s <Inbox/>, bundled with esbuild from the pinned packages and
// served from its own loopback origin (http://localhost:PORT, another origin than the service's
// 127.0.0.1), and what a test watches on it: the Inbox socket's CONNECT answers, in Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';

const ENTRY = `
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { Inbox, Notifications } from '@novu/react';
const c = window.INBOX_CONFIG;
createRoot(document.getElementById('root')).render(
  h(Inbox, { applicationIdentifier: c.appId, subscriberId: c.subscriberId, backendUrl: c.base, socketUrl: c.socketUrl ?? c.base, ...(c.subscriberHash && { subscriberHash: c.subscriberHash }) }, h(Notifications)),
);
`;

export interface InboxPageConfig {
  appId: string;
  subscriberId: string;
  /** The service's base URL (backendUrl, and socketUrl unless given). */
  base: string;
  socketUrl?: string;
  subscriberHash?: string;
}

export interface InboxPage {
  /** The page's address, on http://localhost. */
  url: string;
  dir: string;
  close(): Promise<void>;
}

let bundled: Promise<string> | undefined;

/** The app's script, built once per test file. */
function bundle(dir: string): Promise<string> {
  bundled ??= (async () => {
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
    return out.outputFiles[0]!.text;
  })();
  return bundled;
}

/** Serves the page for `config` on 127.0.0.1 (port 0), addressed as http://localhost:PORT/. */
export async function serveInboxPage(config: InboxPageConfig): Promise<InboxPage> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-page-'));
  const js = await bundle(dir);
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body style="margin:24px;font-family:sans-serif">
<h1>My app</h1><div id="root" style="width:420px"></div>
<script>window.INBOX_CONFIG = ${JSON.stringify(config)};</script><script src="/app.js"></script></body></html>`;
  const server = createServer((req, res) => {
    if (req.url === '/app.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    dir,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * Counts the Inbox socket's CONNECT answers ("40…" frames), and the closes of connections that had
 * one, on the page: the service joins the subscriber's room before it answers, so a notification
 * created after an answer reaches the page.
 */
export function watchSocket(tab: Page): {
  connects(): number;
  closes(): number;
  waitFor(what: 'connects' | 'closes', count: number, ms: number): Promise<void>;
} {
  let connects = 0;
  let closes = 0;
  const waiters: (() => void)[] = [];
  const changed = () => {
    for (const w of waiters.splice(0)) w();
  };
  tab.on('websocket', (ws) => {
    let open = false;
    ws.on('framereceived', (frame) => {
      if (String(frame.payload).startsWith('40')) {
        open = true;
        connects++;
        changed();
      }
    });
    // A connection that never got its CONNECT answer (refused, or cut first) is not one that closed.
    ws.on('close', () => {
      if (!open) return;
      closes++;
      changed();
    });
  });
  const counts = { connects: () => connects, closes: () => closes };
  return {
    ...counts,
    waitFor(what, count, ms) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the page's socket: ${counts[what]()} ${what}, not ${count}, within ${ms} ms`)), ms);
        const check = () => {
          if (counts[what]() >= count) {
            clearTimeout(timer);
            resolve();
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

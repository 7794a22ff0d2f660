// svc dev loads what a request needs when it first needs it: after its first API answer, none of the
// socket (socket.io), the console's page, the Mailpit API's handlers, the Inbox's handlers, the
// schemas (zod) and the workflow engine, or what only outbound requests (undici) and seed files (yaml)
// need has loaded; each loads with the first
// request that uses it. Read from the source maps of the bundle's files the process loaded
// (test/helpers/trace-loads.mjs), as test/e2e/startup.test.ts reads the CLI's.
import { afterEach, describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { type DevProcess, startDev } from '../helpers/dev.js';

const TRACER = fileURLToPath(new URL('../helpers/trace-loads.mjs', import.meta.url));

/** Packages and svc's own source files in the modules the process has loaded so far. */
function loaded(log: string): Set<string> {
  const found = new Set<string>();
  for (const url of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const file = fileURLToPath(url);
    const sources = file.includes('/dist/') && existsSync(`${file}.map`) ? (JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources as string[]) : [file];
    for (const src of sources) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
      const own = /(src\/server\/.+\.ts)$/.exec(src);
      if (pkg) found.add(pkg[1]!);
      else if (own) found.add(own[1]!);
    }
  }
  return found;
}

const LATER = {
  socket: ['socket.io', 'engine.io', 'ws'],
  console: ['src/server/console/page.ts'],
  mailpit: ['src/server/mailpit/mailbox.ts'],
  inbox: ['src/server/inbox/handlers.ts', 'src/server/inbox/subscriptions.ts'],
  outbound: ['undici'],
  seedFile: ['yaml'],
  schemas: ['zod'],
  engine: ['src/server/engine/template.ts', 'src/server/runner/channels.ts', 'src/server/workflow/runtime.ts'],
};

describe('svc dev --in-memory loads on first use', () => {
  let dev: DevProcess | undefined;
  afterEach(async () => {
    await dev?.stop();
    dev = undefined;
  });

  test('its first API answer loads none of the socket, console page, Mailpit or Inbox handlers; each loads with its first request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-dev-loads-'));
    const log = join(dir, 'loads.txt');
    dev = await startDev({
      args: ['--no-save-profile'],
      env: { NODE_OPTIONS: `--import ${TRACER}`, SVC_TRACE_LOADS: log, SVC_CACHE_DIR: join(dir, 'cache') },
    });
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${dev!.baseUrl}${path}`, { headers });
    const answer = await get('/v1/integrations/active', { authorization: `ApiKey ${dev.apiKey}` });
    expect(answer.status).toBe(200);

    const first = loaded(log);
    expect(first.has('better-sqlite3'), 'the trace sees what svc dev loaded').toBe(true);
    expect(first.has('src/server/handlers/integrations.ts')).toBe(true);
    for (const [what, modules] of Object.entries(LATER)) {
      expect(
        modules.filter((m) => first.has(m)),
        `${what}: loaded before its first use`,
      ).toEqual([]);
    }

    // Each with its first request.
    expect((await get('/console/')).status).toBe(200);
    expect((await get('/mailpit/api/v1/info')).status).toBe(200);
    const session = await fetch(`${dev.baseUrl}/v1/inbox/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationIdentifier: dev.started.applicationIdentifier, subscriberId: 'ada' }),
    });
    expect(session.status).toBe(201);
    const socket = io(dev.baseUrl, { transports: ['websocket'], query: { token: 'not-a-token' }, reconnection: false });
    const refused = await new Promise<string>((resolve) => socket.on('connect_error', (e) => resolve(e.message)));
    socket.close();
    expect(refused).toBe('Unauthorized');
    // A trigger: its body is checked (zod), and its first job runs through the engine.
    const key = { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json' };
    const triggered = await fetch(`${dev.baseUrl}/v1/events/trigger`, { method: 'POST', headers: key, body: JSON.stringify({ name: 'welcome', to: 'ada' }) });
    expect(triggered.status).toBe(201);
    const { transactionId } = (await triggered.json()).data;
    for (let delivered = false; !delivered; ) {
      const events = await (await get(`/v1/notifications?transactionId=${transactionId}`, key)).json();
      delivered = events.data[0]?.jobs.some((j: { status: string }) => j.status === 'completed');
      if (!delivered) await new Promise((r) => setTimeout(r, 20));
    }
    const after = loaded(log);
    for (const what of ['socket', 'console', 'mailpit', 'inbox', 'schemas', 'engine'] as const) {
      expect(
        LATER[what].filter((m) => after.has(m)),
        `${what}: loaded by its first request`,
      ).not.toEqual([]);
    }
  });
});

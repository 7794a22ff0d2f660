// The built `svc dev` restarted (twice) on the same store and port while the real `@novu/js` client
// stays connected: its socket reconnects by itself, its session token is still accepted, and a
// notification triggered after each restart arrives through the socket, without a new session.
import { Novu } from '@novu/js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, type DevProcess, startDev } from '../helpers/dev.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-restart-'));
const dataFile = join(dir, 'dev.sqlite');
const apiKey = `sk_e2e_restart_${process.pid}`;
let dev: DevProcess | undefined;
let novu: Novu | undefined;

afterAll(async () => {
  await novu?.socket.disconnect();
  if (dev) expect(await dev.stop()).toBe(0);
});

const start = (port: number) => startDev({ dataFile, apiKey, args: ['--no-save-profile', '--empty', '--port', String(port)] });

/** The client's next `event`, or a rejection naming what did not come. */
function next<T>(client: Novu, event: string, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    const off = client.on(event as 'notifications.notification_received', (e: unknown) => {
      const r = e as { result?: T; error?: unknown };
      if (r.error) return;
      clearTimeout(timer);
      off();
      resolve(r.result as T);
    });
  });
}

describe('an open Inbox across restarts of svc dev', () => {
  it('reconnects by itself and receives what is triggered after each restart', async () => {
    dev = await start(0);
    const port = Number(new URL(dev.baseUrl).port);
    const made = await api(dev, 'POST', '/v2/workflows', {
      workflowId: 'ping',
      name: 'Ping',
      active: true,
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'ping {{payload.n}}' } }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const appId = String(dev.started.applicationIdentifier);
    novu = new Novu({ applicationIdentifier: appId, subscriberId: 'ada', apiUrl: dev.baseUrl, socketUrl: dev.baseUrl } as never);
    const client = novu;
    const sessions: string[] = [];
    client.on('session.initialize.resolved' as never, ((e: { data?: { token: string } }) => e.data && sessions.push(e.data.token)) as never);
    // Listening opens the socket; its CONNECT answer comes after the service joined ada's room.
    const connected = next(client, 'socket.connect.resolved', 20_000);
    const first = next<{ body: string }>(client, 'notifications.notification_received', 20_000);
    await connected;
    expect((await api(dev, 'POST', '/v1/events/trigger', { name: 'ping', to: 'ada', payload: { n: 0 } })).status).toBe(201);
    expect((await first).body).toBe('ping 0');

    for (const n of [1, 2]) {
      const dropped = next(client, 'socket.disconnect.resolved', 20_000);
      expect(await dev.stop()).toBe(0);
      await dropped;
      const back = next(client, 'socket.connect.resolved', 30_000);
      dev = await start(port);
      await back;
      const received = next<{ body: string }>(client, 'notifications.notification_received', 20_000);
      expect((await api(dev, 'POST', '/v1/events/trigger', { name: 'ping', to: 'ada', payload: { n } })).status).toBe(201);
      expect((await received).body).toBe(`ping ${n}`);
      // The page's reads go on with the token it had before the restart.
      const list = await client.notifications.list({ limit: 10, useCache: false } as never);
      expect(list.error).toBeUndefined();
      expect(list.data!.notifications.map((m) => m.body)).toEqual(Array.from({ length: n + 1 }, (_, i) => `ping ${n - i}`));
    }
    expect(sessions).toHaveLength(1);
  }, 120_000);
});

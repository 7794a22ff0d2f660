// The built `svc dev` restarted (twice) on the same store and port while the real `@novu/js` client
// stays connected: its socket reconnects by itself, its session token is still accepted, and a
// notification triggered after each restart arrives through the socket, without a new session; one
// created after the restart but before the client is back (its reconnection held at a TCP gate) is
// sent when it comes back, once.
import { Novu } from '@novu/js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, type DevProcess, startDev } from '../helpers/dev.js';
import { type TcpGate, tcpGate } from '../helpers/tcp-gate.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-restart-'));
const dataFile = join(dir, 'dev.sqlite');
const apiKey = `sk_e2e_restart_${process.pid}`;
let dev: DevProcess | undefined;
let novu: Novu | undefined;
let gate: TcpGate | undefined;

afterAll(async () => {
  await novu?.socket.disconnect();
  await gate?.stop();
  if (dev) expect(await dev.stop()).toBe(0);
});

const start = (port: number) => startDev({ dataFile, apiKey, args: ['--no-save-profile', '--empty', '--port', String(port)] });

async function pingWorkflow(d: DevProcess) {
  const made = await api(d, 'POST', '/v2/workflows', {
    workflowId: 'ping',
    name: 'Ping',
    active: true,
    steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'ping {{payload.n}}' } }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
}

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
    await pingWorkflow(dev);
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
  it('sends what was created while it was away, once', async () => {
    await novu?.socket.disconnect();
    if (dev) expect(await dev.stop()).toBe(0);
    const other = { dataFile: join(mkdtempSync(join(tmpdir(), 'svc-inbox-gap-')), 'dev.sqlite'), apiKey: `${apiKey}_gap` };
    const begin = (port: number) => startDev({ ...other, args: ['--no-save-profile', '--empty', '--port', String(port)] });
    dev = await begin(0);
    const port = Number(new URL(dev.baseUrl).port);
    await pingWorkflow(dev);
    gate = await tcpGate(() => port);
    novu = new Novu({
      applicationIdentifier: String(dev.started.applicationIdentifier),
      subscriberId: 'bo',
      apiUrl: dev.baseUrl,
      socketUrl: `http://127.0.0.1:${gate.port}`,
      // Quick retries keep the test short; the page's own back-off reaches the same end.
      socketOptions: { reconnectionDelay: 100, reconnectionDelayMax: 300 },
    } as never);
    const client = novu;
    const bodies: string[] = [];
    client.on('notifications.notification_received', (e) => bodies.push(e.result.body));
    const connected = next(client, 'socket.connect.resolved', 20_000);
    const first = next(client, 'notifications.notification_received', 20_000);
    await connected;
    expect((await api(dev, 'POST', '/v1/events/trigger', { name: 'ping', to: 'bo', payload: { n: 0 } })).status).toBe(201);
    await first;

    gate.close();
    const dropped = next(client, 'socket.disconnect.resolved', 20_000);
    expect(await dev.stop()).toBe(0);
    await dropped;
    dev = await begin(port);
    const d = dev;
    expect((await api(d, 'POST', '/v1/events/trigger', { name: 'ping', to: 'bo', payload: { n: 1 } })).status).toBe(201);
    // Stored while the client is still kept out (it has been refused at least once since).
    await expect.poll(async () => (await api(d, 'GET', '/v1/messages?subscriberId=bo&channel=in_app')).body.data.length, { timeout: 20_000 }).toBe(2);
    await expect.poll(() => gate!.refused(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(bodies).toEqual(['ping 0']);
    const caughtUp = next<{ body: string }>(client, 'notifications.notification_received', 20_000);
    gate.open();
    expect((await caughtUp).body).toBe('ping 1');
    // Connected again: the next one comes live, and nothing came twice.
    const live = next<{ body: string }>(client, 'notifications.notification_received', 20_000);
    expect((await api(d, 'POST', '/v1/events/trigger', { name: 'ping', to: 'bo', payload: { n: 2 } })).status).toBe(201);
    expect((await live).body).toBe('ping 2');
    expect(bodies).toEqual(['ping 0', 'ping 1', 'ping 2']);
  }, 120_000);
});

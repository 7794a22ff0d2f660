// The built `svc dev` as an app's Inbox meets it: the start line names the application identifier
// (and a ready <Inbox/>), the real @novu/js client opens a session and receives a trigger through the
// socket, and the CLI manages topics (a trigger to a topic made with it fans out), subscriber
// preferences (honoured by the next trigger) and the in-app integration's HMAC.
import { Novu } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';

let dev: DevProcess;
const svc = async (...args: string[]) => {
  const r = await svcBin(['--base-url', dev.baseUrl, '--api-key', dev.apiKey, ...args]);
  return { exitCode: r.exitCode, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
};
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${dev.baseUrl}${path}`, {
    method,
    headers: { authorization: `ApiKey ${dev.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: (await r.json().catch(() => undefined)) as any };
};
const inbox = async (subscriberId: string) => {
  const novu = new Novu({ applicationIdentifier: String(dev.started.applicationIdentifier), subscriberId, apiUrl: dev.baseUrl, socketUrl: dev.baseUrl });
  const r = await novu.notifications.list({ limit: 50, useCache: false } as never);
  expect(r.error).toBeUndefined();
  return { novu, list: r.data!.notifications };
};

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile'] });
}, 30_000);
afterAll(async () => {
  expect(await dev.stop()).toBe(0);
});

describe('svc dev and the Inbox', () => {
  it('names the application identifier and an <Inbox/> in its start line', async () => {
    const id = dev.started.applicationIdentifier as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(dev.started.inbox).toBe(`<Inbox applicationIdentifier="${id}" subscriberId="ada" backendUrl="${dev.baseUrl}" socketUrl="${dev.baseUrl}" />`);
    expect((await api('GET', '/v1/environments/me')).body.data.identifier).toBe(id);
  });

  it('delivers a trigger from the CLI to the listening client', async () => {
    const { novu, list } = await inbox('ada');
    expect(list).toEqual([]);
    const connected = new Promise<any>((resolve) => novu.on('socket.connect.resolved' as never, resolve as never));
    const received = new Promise<any>((resolve) => novu.on('notifications.notification_received', (e) => resolve(e.result)));
    // The trigger waits for the socket's handshake (the service joins the subscriber's room as it accepts it).
    expect((await connected)?.error).toBeUndefined();
    const t = await svc('trigger', 'welcome', '--to', 'ada', '-o', 'json');
    expect(t.exitCode, t.stderr).toBe(0);
    const n = await received;
    expect(n.subject).toBe('Welcome to Acme');
    await novu.socket.disconnect();
  });

  it('topics made with the CLI receive a trigger addressed to them', async () => {
    expect((await svc('topics', 'create', 'ops', '--name', 'Ops on call')).exitCode).toBe(0);
    const add = await svc('topics', 'add', 'ops', 'grace', 'alan', 'nobody', '-o', 'json');
    // The two who exist are added; the one who does not is named with the service's reason, and the
    // command fails (exit 5: every failure is a not-found).
    expect(add.exitCode, add.stderr).toBe(5);
    expect(JSON.parse(add.stdout).meta).toEqual({ totalCount: 3, successful: 2, failed: 1 });
    expect(JSON.parse(add.stderr.trim().split('\n').at(-1) ?? '').error.items).toEqual([
      { item: 'nobody', code: 'SUBSCRIBER_NOT_FOUND', message: "Subscriber with id 'nobody' could not be found" },
    ]);
    const table = await svc('topics', 'list', '-o', 'table');
    expect(table.stdout).toContain('ops');
    for (const line of table.stdout.split('\n')) expect(line.length, table.stdout).toBeLessThanOrEqual(80);
    const get = await svc('topics', 'get', 'ops', '-o', 'json');
    expect(JSON.parse(get.stdout)).toMatchObject({ key: 'ops', name: 'Ops on call', subscribers: expect.arrayContaining(['alan', 'grace']) });
    expect((await svc('topics', 'remove', 'ops', 'alan')).exitCode).toBe(0);

    const t = await api('POST', '/v1/events/trigger', { name: 'welcome', to: [{ type: 'Topic', topicKey: 'ops' }] });
    expect(t.status).toBe(201);
    await expect.poll(async () => (await inbox('grace')).list.length).toBe(1);
    expect((await inbox('alan')).list).toHaveLength(0);

    const badKey = await svc('topics', 'create', 'ops team!');
    expect(badKey.exitCode).toBe(2);
    expect(badKey.stderr).toContain('TOPIC_KEY: must contain only letters, digits');
    const refused = await svc('topics', 'delete', 'ops');
    expect(refused.exitCode).toBe(2);
    expect((await svc('topics', 'delete', 'ops', '--yes')).exitCode).toBe(0);
    expect((await svc('topics', 'get', 'ops')).exitCode).not.toBe(0);
  });

  it('preferences set with the CLI are honoured by the next trigger', async () => {
    const bad = await svc('subscribers', 'preferences', 'ada', '--set', 'fax=off');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--set: unknown channel "fax"');
    const set = await svc('subscribers', 'preferences', 'ada', '--workflow', 'welcome', '--set', 'in_app=off', '-o', 'table');
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/welcome\s+off\s+on/);
    const before = (await inbox('ada')).list.length;
    // --wait: every job of the trigger has finished before the Inbox is read again.
    const sent = await svc('trigger', 'welcome', '--to', 'ada', '--wait', '--wait-timeout', '20s');
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect((await inbox('ada')).list.length).toBe(before);
  });

  it('switches HMAC on with the CLI: a session without the hash is refused', async () => {
    const active = await api('GET', '/v1/integrations/active');
    const inApp = active.body.data.find((i: { channel: string }) => i.channel === 'in_app');
    const up = await svc('integrations', 'update', inApp._id, '--hmac', 'on', '-o', 'json');
    expect(up.exitCode, up.stderr).toBe(0);
    const novu = new Novu({
      applicationIdentifier: String(dev.started.applicationIdentifier),
      subscriberId: 'ada',
      apiUrl: dev.baseUrl,
      socketUrl: dev.baseUrl,
    });
    const r = await novu.notifications.list({ limit: 1, useCache: false } as never);
    const cause = (r.error as unknown as { originalError?: { status?: number; body?: { message?: string } } }).originalError;
    expect(cause?.status).toBe(400);
    expect(cause?.body?.message).toBe('Please provide a valid HMAC hash');
    expect((await svc('integrations', 'update', inApp._id)).exitCode).toBe(2);
    const badJson = await svc('integrations', 'update', inApp._id, '--credentials', '[1]');
    expect(badJson.exitCode).toBe(2);
    expect(badJson.stderr).toContain('--credentials: expected a JSON object');
  });
});

// Environments as the service has them, through the official SDK (@novu/api) against svc dev on a
// loopback port: list, create (its own key, application identifier and integrations), update and
// delete with the service's refusals; and two environments used at once see only their own events,
// messages and subscribers, and an Inbox (@novu/js) of one hears nothing of the other.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Novu as Api } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, testService } from '../helpers/service.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';
import { type Listening, listening, nextEvent } from './inbox/helpers.js';

let s: Listening;
let sdk: Api;
let devId: string;

beforeAll(async () => {
  s = await listening();
  sdk = novuClient(s.base, TEST_KEY);
  devId = (await s.svc.request('GET', '/v1/environments/me')).body.data._id;
});
afterAll(() => s.close());

const create = async (name: string) => (await sdk.environments.create({ name, color: '#3a7f5c' })).result;

describe('environments through the SDK', () => {
  it('lists the organisation’s environments, with the keys of the caller’s own only', async () => {
    const made = await create('List check');
    const list = (await sdk.environments.list()).result;
    const dev = list.find((e) => e.id === devId)!;
    expect(dev).toMatchObject({ name: 'Development', type: 'dev', identifier: s.appId });
    expect(dev.apiKeys?.map((k) => k.key)).toEqual([TEST_KEY]);
    const other = list.find((e) => e.id === made.id)!;
    expect(other).toMatchObject({ name: 'List check', parentId: devId, apiKeys: [] });
    // The new environment's own key lists its own key, and none of Development's.
    const own = (await novuClient(s.base, made.apiKeys![0]!.key).environments.list()).result;
    expect(own.find((e) => e.id === made.id)!.apiKeys).toHaveLength(1);
    expect(JSON.stringify(own)).not.toContain(TEST_KEY);
  });

  it('creates an environment as the service does: its own key, identifier and integrations', async () => {
    const made = await create('  Staging ');
    expect(made).toMatchObject({ name: 'Staging', organizationId: expect.any(String), type: 'prod', parentId: devId });
    expect(made.identifier).not.toBe(s.appId);
    const key = made.apiKeys![0]!.key;
    expect(key).not.toBe(TEST_KEY);
    expect(made.apiKeys![0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    // The key works and is of the new environment; it starts with the service's integrations.
    const me = await s.svc.request('GET', '/v1/environments/me', { key });
    expect(me.body.data).toMatchObject({ _id: made.id, name: 'Staging', identifier: made.identifier, _parentId: devId });
    const active = (await novuClient(s.base, key).integrations.listActive()).result.filter((i) => i.environmentId === made.id);
    expect(active.map((i) => i.channel).sort()).toEqual(['chat', 'email', 'email', 'in_app', 'push', 'sms']);
    // Its Inbox sessions are of that environment.
    const session = await s.inbox('POST', '/session', undefined, { applicationIdentifier: made.identifier, subscriberId: 'staging-user' });
    expect(session.status).toBe(201);
    expect((await s.svc.request('GET', '/v2/subscribers/staging-user', { key })).status).toBe(200);
    expect((await s.svc.request('GET', '/v2/subscribers/staging-user')).status).toBe(404);
  });

  it('refuses the names the service refuses', async () => {
    await create('Unique name');
    expect(await sdkFailure(sdk.environments.create({ name: 'Unique name', color: '#000' }))).toMatchObject({
      status: 400,
      body: { message: 'Environment name must be unique' },
    });
    expect(await sdkFailure(sdk.environments.create({ name: 'production', color: '#000' }))).toMatchObject({
      status: 422,
      body: { message: 'Environment name cannot be Development or Production' },
    });
    const bad = await s.svc.request('POST', '/v1/environments', { body: { name: 'No colour' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('color');
  });

  it('updates its own environments and those made from it', async () => {
    const made = await create('Before');
    const updated = (await sdk.environments.update({ name: 'After', color: '#ff0000' }, made.id)).result;
    expect(updated).toMatchObject({ id: made.id, name: 'After' });
    expect((await sdk.environments.list()).result.find((e) => e.id === made.id)?.name).toBe('After');
    expect(await sdkFailure(sdk.environments.update({ name: 'Dev 2' }, devId))).toMatchObject({
      status: 422,
      body: { message: 'Cannot update the name of Development or Production environments' },
    });
    // A new application identifier is the one its Inbox sessions name from then on.
    const renamed = await s.svc.request('PUT', `/v1/environments/${made.id}`, { body: { identifier: 'after-app' } });
    expect(renamed.body.data).toMatchObject({ identifier: 'after-app' });
    expect((await s.inbox('POST', '/session', undefined, { applicationIdentifier: 'after-app', subscriberId: 'u' })).status).toBe(201);
    expect((await s.inbox('POST', '/session', undefined, { applicationIdentifier: made.identifier, subscriberId: 'u' })).status).toBe(400);
    const taken = await s.svc.request('PUT', `/v1/environments/${made.id}`, { body: { identifier: s.appId } });
    expect(taken).toMatchObject({ status: 400, body: { message: 'Environment identifier must be unique' } });
    // Another environment's key cannot change this one.
    const sibling = await create('Sibling');
    const other = novuClient(s.base, sibling.apiKeys![0]!.key);
    const refused = await sdkFailure(other.environments.update({ name: 'Stolen' }, made.id));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('is scoped to a single environment');
  });

  it('deletes a custom environment with everything of it, and refuses the protected and the unknown', async () => {
    const made = await create('Short lived');
    const key = made.apiKeys![0]!.key;
    await s.svc.request('POST', '/v2/subscribers', { key, body: { subscriberId: 'gone-soon' } });
    await sdk.environments.delete(made.id);
    expect((await sdk.environments.list()).result.map((e) => e.id)).not.toContain(made.id);
    // Its key no longer works; its application identifier opens no session; nothing of it stays.
    expect(await s.svc.request('GET', '/v2/subscribers/gone-soon', { key })).toMatchObject({ status: 401, body: { message: 'API Key not found' } });
    const session = await s.inbox('POST', '/session', undefined, { applicationIdentifier: made.identifier, subscriberId: 'x' });
    expect(session.status).toBe(400);
    const left = s.svc.store.db.prepare('SELECT count(*) AS n FROM subscribers WHERE env_id = ?').get(made.id) as { n: number };
    expect(left.n).toBe(0);

    expect(await sdkFailure(sdk.environments.delete(devId))).toMatchObject({
      status: 400,
      body: { message: 'The Development environment is protected and cannot be deleted. Only custom environments can be deleted.' },
    });
    expect(await sdkFailure(sdk.environments.delete(made.id))).toMatchObject({
      status: 404,
      body: { message: `Environment ${made.id} not found` },
    });
    const a = await create('Not yours A');
    const b = await create('Not yours B');
    const refused = await sdkFailure(novuClient(s.base, b.apiKeys![0]!.key).environments.delete(a.id));
    expect(refused.status).toBe(403);
    // Its own key may delete it.
    await novuClient(s.base, b.apiKeys![0]!.key).environments.delete(b.id);
    expect((await sdk.environments.list()).result.map((e) => e.name)).not.toContain('Not yours B');
  });
});

describe('two environments used at once', () => {
  const WORKFLOW = {
    name: 'Hello',
    workflowId: 'hello',
    active: true,
    steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello from {{ payload.env }}' } }],
  };

  it('each sees only its own events, messages and subscribers, and its Inbox hears only its own', async () => {
    const [a, b] = await Promise.all([create('Parallel A'), create('Parallel B')]);
    const envs = [a, b].map((e) => ({ ...e, key: e.apiKeys![0]!.key, api: novuClient(s.base, e.apiKeys![0]!.key) }));
    // The same workflow and subscriber ids in both, set up and triggered concurrently.
    await Promise.all(
      envs.map(async (e) => {
        expect((await s.svc.request('POST', '/v2/workflows', { key: e.key, body: WORKFLOW })).status).toBe(201);
        await e.api.subscribers.create({ subscriberId: 'same-user', firstName: e.name });
      }),
    );
    const inboxes = envs.map((e) => s.client('same-user', { applicationIdentifier: e.identifier }));
    // Each socket connects once something listens: the listeners first, then the handshakes.
    const connected = inboxes.map((n) => new Promise((resolve) => n.on('socket.connect.resolved' as never, resolve as never)));
    const heard: string[][] = [[], []];
    for (const [i, n] of inboxes.entries()) {
      n.on('notifications.notification_received', (ev) => void heard[i]!.push((ev as { result: { body: string } }).result.body));
    }
    await Promise.all(connected);

    // A's notification reaches A's Inbox first; B's then reaches B's, which heard nothing before it.
    const gotA = nextEvent(inboxes[0]!, 'notifications.notification_received');
    await envs[0]!.api.trigger({ workflowId: 'hello', to: 'same-user', payload: { env: 'A' } });
    expect((await gotA).body).toBe('Hello from A');
    const gotB = nextEvent(inboxes[1]!, 'notifications.notification_received');
    await envs[1]!.api.trigger({ workflowId: 'hello', to: 'same-user', payload: { env: 'B' } });
    expect((await gotB).body).toBe('Hello from B');
    expect(heard).toEqual([['Hello from A'], ['Hello from B']]);

    await s.svc.runner.idle();
    for (const [i, e] of envs.entries()) {
      const events = (await s.svc.request('GET', '/v1/notifications?limit=50', { key: e.key })).body.data;
      expect(events.map((n: { payload: { env: string } }) => n.payload.env)).toEqual([i === 0 ? 'A' : 'B']);
      const messages = (await s.svc.request('GET', '/v1/messages?limit=50', { key: e.key })).body.data;
      expect(messages.map((m: { content: string }) => m.content)).toEqual([`Hello from ${i === 0 ? 'A' : 'B'}`]);
      const subs = (await s.svc.request('GET', '/v2/subscribers?limit=50', { key: e.key })).body.data;
      expect(subs.map((x: { firstName: string }) => x.firstName)).toEqual([e.name]);
    }
  });
});

describe('deleting an environment while its work is in flight', () => {
  it('leaves nothing of it behind when the call ends, and nothing fails inside svc dev', async () => {
    const errors: unknown[] = [];
    const svc = testService({ onInternalError: (e) => errors.push(e) });
    let arrived!: () => void;
    const called = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const receiver = createServer((_req, res) => {
      arrived();
      void released.then(() => res.end('{"ok":true}'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const made = (await svc.request('POST', '/v1/environments', { body: { name: 'In flight', color: '#000' } })).body.data;
      const key = made.apiKeys[0].key;
      const steps = [
        { stepId: 'call', name: 'Call', type: 'http_request', controlValues: { method: 'POST', url, body: '{}' } },
        { name: 'After', type: 'in_app', controlValues: { body: 'after' } },
      ];
      expect((await svc.request('POST', '/v2/workflows', { key, body: { name: 'Call', workflowId: 'call', active: true, steps } })).status).toBe(201);
      expect((await svc.request('POST', '/v1/events/trigger', { key, body: { name: 'call', to: 'u1' } })).status).toBe(201);
      await called;
      expect((await svc.request('DELETE', `/v1/environments/${made._id}`)).status).toBe(200);
      release();
      await svc.runner.idle();
      const count = (sql: string) => (svc.store.db.prepare(sql).get(made._id) as { n: number }).n;
      expect(count('SELECT count(*) AS n FROM messages WHERE env_id = unhex(?)')).toBe(0);
      expect(count('SELECT count(*) AS n FROM notifications WHERE env_id = unhex(?)')).toBe(0);
      expect(count('SELECT count(*) AS n FROM message_counts_env WHERE env_id = unhex(?)')).toBe(0);
      expect(count('SELECT count(*) AS n FROM workflows WHERE env_id = ?')).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      receiver.close();
      await svc.close();
    }
  });
});

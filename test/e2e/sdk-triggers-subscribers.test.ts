// Triggers and subscribers beyond the first set, against the built `svc dev`: through the official SDK
// (@novu/api validates every answer with its own schemas) and through svc's own commands. Broadcast,
// bulk create, provider credentials, topic subscriptions from the subscriber's side and by identifier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Novu } from '@novu/api';
import { svcBin } from '../helpers/bin.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey);
});
afterAll(async () => {
  await dev?.stop();
});

async function svc(args: string[]) {
  const r = await svcBin([...args, '-o', 'json'], { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), json: () => JSON.parse(String(r.stdout)) };
}

/** The events of a transaction once `count` of them exist (the trigger answers before it is read back). */
async function eventsOf(transactionId: string, count: number): Promise<any[]> {
  for (const deadline = Date.now() + 20_000; ; ) {
    const page = (await api(dev, 'GET', `/v1/notifications?transactionId=${encodeURIComponent(transactionId)}&limit=50`)).body;
    if (page.data.length >= count || Date.now() > deadline) return page.data;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const channelOf = (sub: { channels?: { providerId: string; credentials: Record<string, unknown> }[] | undefined }, providerId: string) =>
  sub.channels?.find((c) => c.providerId === providerId)?.credentials;

describe('subscriber credentials through the SDK', () => {
  it('PUT replaces the device tokens, PATCH adds to them, DELETE forgets the provider', async () => {
    await novu.subscribers.create({ subscriberId: 'sdk-cred', firstName: 'Cred' });
    const put = (await novu.subscribers.credentials.update({ providerId: 'fcm', credentials: { deviceTokens: ['t1', 't2', 't1'] } }, 'sdk-cred')).result;
    expect(channelOf(put, 'fcm')).toEqual({ deviceTokens: ['t1', 't2'] });
    const appended = (await novu.subscribers.credentials.append({ providerId: 'fcm', credentials: { deviceTokens: ['t3'] } }, 'sdk-cred')).result;
    expect(channelOf(appended, 'fcm')).toEqual({ deviceTokens: ['t1', 't2', 't3'] });
    const replaced = (await novu.subscribers.credentials.update({ providerId: 'fcm', credentials: { deviceTokens: ['t9'] } }, 'sdk-cred')).result;
    expect(channelOf(replaced, 'fcm')).toEqual({ deviceTokens: ['t9'] });
    const chat = (await novu.subscribers.credentials.update({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/x' } }, 'sdk-cred'))
      .result;
    expect(channelOf(chat, 'slack')).toEqual({ webhookUrl: 'https://hooks.example.com/x' });
    expect(chat.channels?.find((c) => c.providerId === 'slack')?.integrationId).toMatch(/^[0-9a-f]{24}$/);

    await novu.subscribers.credentials.delete('sdk-cred', 'fcm');
    const after = (await novu.subscribers.retrieve('sdk-cred')).result;
    expect(channelOf(after, 'fcm')).toBeUndefined();
    expect(channelOf(after, 'slack')).toEqual({ webhookUrl: 'https://hooks.example.com/x' });
  });

  it("refuses an unknown subscriber and a provider the environment has no active integration of, in the service's words", async () => {
    const unknown = await sdkFailure(novu.subscribers.credentials.update({ providerId: 'fcm', credentials: { deviceTokens: ['x'] } }, 'nobody-here'));
    expect(unknown).toMatchObject({ status: 400, body: { message: 'SubscriberId: nobody-here not found' } });
    const noIntegration = await sdkFailure(novu.subscribers.credentials.update({ providerId: 'expo', credentials: { deviceTokens: ['x'] } }, 'ada'));
    expect(noIntegration.status).toBe(400);
    expect(noIntegration.body.message).toMatch(/^Subscribers environment \([0-9a-f]{24}\) do not have active expo integration\.$/);
    expect(await sdkFailure(novu.subscribers.credentials.delete('nobody-here', 'fcm'))).toMatchObject({ status: 404 });
  });
});

describe('bulk create through the SDK', () => {
  it('lists who was created and who updated; over 500 is refused whole', async () => {
    const r = (
      await novu.subscribers.createBulk({
        subscribers: [{ subscriberId: 'bulk-1', firstName: 'One' }, { subscriberId: 'ada', lastName: 'Byron' }, { subscriberId: 'bulk-2' }],
      })
    ).result;
    expect(r).toEqual({ created: [{ subscriberId: 'bulk-1' }, { subscriberId: 'bulk-2' }], updated: [{ subscriberId: 'ada' }], failed: [] });
    expect((await novu.subscribers.retrieve('bulk-1')).result.firstName).toBe('One');
    expect((await novu.subscribers.retrieve('ada')).result).toMatchObject({ firstName: 'Ada', lastName: 'Byron' });

    const tooMany = Array.from({ length: 501 }, (_, i) => ({ subscriberId: `many-${i}` }));
    const refused = await sdkFailure(novu.subscribers.createBulk({ subscribers: tooMany }));
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.errors)).toContain('no more than 500');
    expect(await sdkFailure(novu.subscribers.retrieve('many-0'))).toMatchObject({ status: 404 });
  });
});

describe('broadcast through the SDK', () => {
  it('sends the workflow to every subscriber of the environment under one transactionId', async () => {
    const all = (await api(dev, 'GET', '/v2/subscribers?limit=100')).body.data.map((s: { subscriberId: string }) => s.subscriberId);
    const r = (await novu.triggerBroadcast({ name: 'welcome', payload: { appName: 'Broadcast' }, transactionId: 'sdk-broadcast-1' })).result;
    expect(r).toMatchObject({ acknowledged: true, status: 'processed', transactionId: 'sdk-broadcast-1' });
    const events = await eventsOf('sdk-broadcast-1', all.length);
    expect(events.map((e) => e.subscriber?.subscriberId).sort()).toEqual([...all].sort());
    expect(await sdkFailure(novu.triggerBroadcast({ name: 'no-such-workflow', payload: {} }))).toMatchObject({
      status: 422,
      body: { message: 'workflow_not_found' },
    });
  });
});

describe('topic subscriptions through the SDK', () => {
  it("the subscriber's subscriptions, the v1 membership check, and one subscription by identifier, read and changed", async () => {
    const mine = (await novu.subscribers.topics.list({ subscriberId: 'grace' })).result;
    expect(mine.data.map((s) => s.topic.key)).toEqual(['engineering']);
    expect(mine.data[0]).toMatchObject({ identifier: 'tk_engineering:si_grace', subscriber: { subscriberId: 'grace' } });
    expect(mine.totalCount).toBe(1);
    expect((await novu.subscribers.topics.list({ subscriberId: 'grace', key: 'other' })).result.data).toEqual([]);
    expect(await sdkFailure(novu.subscribers.topics.list({ subscriberId: 'nobody-here' }))).toMatchObject({
      status: 404,
      body: { message: 'Subscriber not found' },
    });

    const member = (await novu.topics.subscribers.retrieve('grace', 'engineering')).result;
    expect(member).toMatchObject({ topicKey: 'engineering', externalSubscriberId: 'grace' });
    const notMember = await sdkFailure(novu.topics.subscribers.retrieve('bulk-2', 'engineering'));
    expect(notMember.status).toBe(404);
    expect(notMember.body.message).toMatch(/^Subscriber bulk-2 not found for topic engineering in the environment /);

    const one = (await novu.topics.subscriptions.getSubscription('engineering', 'tk_engineering:si_grace')).result;
    expect(one).toMatchObject({ identifier: 'tk_engineering:si_grace', preferences: [] });
    const changed = (
      await novu.topics.subscriptions.update({
        topicKey: 'engineering',
        identifier: 'tk_engineering:si_grace',
        updateTopicSubscriptionRequestDto: { name: 'Grace on call', preferences: [{ workflowId: 'welcome', enabled: false }] },
      })
    ).result;
    expect(changed).toMatchObject({
      name: 'Grace on call',
      topic: { key: 'engineering' },
      subscriber: { subscriberId: 'grace' },
      preferences: [{ enabled: false, workflow: { identifier: 'welcome' } }],
    });
    expect((await novu.topics.subscriptions.getSubscription('engineering', 'tk_engineering:si_grace')).result.name).toBe('Grace on call');
    const missing = await sdkFailure(novu.topics.subscriptions.getSubscription('engineering', 'tk_engineering:si_nobody'));
    expect(missing).toMatchObject({ status: 404, body: { message: 'Subscription with identifier tk_engineering:si_nobody not found for topic engineering' } });
  });
});

describe('svc subscribers credentials set|remove and svc trigger --broadcast', () => {
  it('set stores device tokens or a webhook URL, remove forgets them; bad flags exit 2 naming them', async () => {
    const set = await svc(['subscribers', 'credentials', 'set', 'alan', '--provider', 'fcm', '--token', 'cli-1', '--token', 'cli-2', '--show-secrets']);
    expect(set.code, set.stderr).toBe(0);
    expect(channelOf(set.json(), 'fcm')).toEqual({ deviceTokens: ['cli-1', 'cli-2'] });
    const more = await svc(['subscribers', 'credentials', 'set', 'alan', '--provider', 'fcm', '--token', 'cli-3', '--append', '--show-secrets']);
    expect(channelOf(more.json(), 'fcm')).toEqual({ deviceTokens: ['cli-1', 'cli-2', 'cli-3'] });
    // Credentials are secrets: masked unless asked for.
    const masked = await svc([
      'subscribers',
      'credentials',
      'set',
      'alan',
      '--provider',
      'slack',
      '--webhook-url',
      'https://hooks.example.com/services/T/B/secret',
    ]);
    expect(masked.code).toBe(0);
    expect(masked.stdout).not.toContain('services/T/B/secret');

    const removed = await svc(['subscribers', 'credentials', 'remove', 'alan', '--provider', 'fcm']);
    expect(removed.code, removed.stderr).toBe(0);
    const stored = (await api(dev, 'GET', '/v2/subscribers/alan')).body.data;
    expect(channelOf(stored, 'fcm')).toBeUndefined();
    expect(channelOf(stored, 'slack')).toEqual({ webhookUrl: 'https://hooks.example.com/services/T/B/secret' });

    const both = await svc(['subscribers', 'credentials', 'set', 'alan', '--provider', 'fcm', '--token', 't', '--webhook-url', 'https://x.example']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--token and --webhook-url');
    const neither = await svc(['subscribers', 'credentials', 'set', 'alan', '--provider', 'fcm']);
    expect(neither.code).toBe(2);
    const badProvider = await svc(['subscribers', 'credentials', 'set', 'alan', '--provider', 'sendgrid', '--token', 't']);
    expect(badProvider.code).toBe(2);
    expect(badProvider.stderr).toContain('--provider');
  });

  it('trigger --broadcast reaches every subscriber; with --to it exits 2 naming both', async () => {
    const all = (await api(dev, 'GET', '/v2/subscribers?limit=100')).body.data.length;
    const r = await svc(['trigger', 'welcome', '--broadcast', '--transaction-id', 'cli-broadcast-1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ status: 'processed', transactionId: 'cli-broadcast-1' });
    expect(await eventsOf('cli-broadcast-1', all)).toHaveLength(all);

    const both = await svc(['trigger', 'welcome', '--broadcast', '--to', 'ada']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--broadcast and --to');
    const dry = await svc(['trigger', 'welcome', '--broadcast', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('/v1/events/trigger/broadcast');
  });
});

// What a subscriber's provider credentials change in a delivery: push steps go to the device tokens
// stored through PUT/PATCH /v1/subscribers/{id}/credentials, chat steps to the webhook URL (a loopback
// receiver here), and without credentials a push step is skipped and a chat step fails, each with the
// service's detail. And a broadcast: every subscriber of the environment, and nobody of another.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_CONFIGURED_CHANNEL, PUSH_MISSING_TOKENS } from '../../src/server/runner/channels.js';
import { parseSeed } from '../../src/server/seed/load.js';
import { testService, type TestService } from '../helpers/service.js';
import { details, event, events, messages, statuses, trigger } from './runner/helpers.js';

const STAGING_KEY = 'sk_staging_credentials_5e1d';
const received: { url: string; body: any }[] = [];
let server: Server;
let base: string;
let svc: TestService;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ url: req.url!, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const alerts = {
    workflowId: 'alerts',
    name: 'Alerts',
    active: true,
    steps: [
      { stepId: 'push', name: 'Push', type: 'push', controlValues: { subject: '{{ payload.service }} down', body: 'Since {{ payload.since }}' } },
      { stepId: 'chat', name: 'Chat', type: 'chat', controlValues: { body: '{{ payload.service | upcase }} is down' } },
    ],
  };
  svc = testService({
    empty: true,
    seed: parseSeed(
      {
        integrations: [
          { identifier: 'fcm', providerId: 'fcm', channel: 'push', credentials: { serviceAccount: '{}' } },
          { identifier: 'expo', providerId: 'expo', channel: 'push', credentials: { apiKey: 'expo-local' } },
          { identifier: 'hooks-chat', providerId: 'chat-webhook', channel: 'chat' },
        ],
        subscribers: [{ subscriberId: 'kim', firstName: 'Kim' }, { subscriberId: 'lee' }],
        workflows: [alerts],
        environments: [
          {
            name: 'Staging',
            apiKey: STAGING_KEY,
            integrations: [{ identifier: 'fcm-staging', providerId: 'fcm', channel: 'push', credentials: { serviceAccount: '{}' } }],
            subscribers: [{ subscriberId: 'zed', channels: [{ providerId: 'fcm', credentials: { deviceTokens: ['zed-phone'] } }] }],
            workflows: [{ ...alerts, steps: [alerts.steps[0]] }],
          },
        ],
      },
      'credentials test',
    ),
  });
});
afterAll(async () => {
  await svc?.close();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  received.length = 0;
});

const credentials = (method: 'PUT' | 'PATCH', subscriberId: string, body: unknown) =>
  svc.request(method, `/v1/subscribers/${subscriberId}/credentials`, { body });

describe('push and chat steps deliver to the credentials stored', () => {
  it("no credentials: the push step is skipped and the chat step fails, each with the service's detail", async () => {
    const n = await event(svc, await trigger(svc, 'alerts', 'kim', { service: 'api', since: '10:00' }));
    expect(statuses(n)).toEqual(['skipped', 'failed']);
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({ status: 'Warning', detail: NO_CONFIGURED_CHANNEL, source: 'Internal' });
    expect(n.jobs[1].executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: NO_CONFIGURED_CHANNEL, source: 'Internal' });
    expect(await messages(svc, `transactionId=${n.transactionId}`)).toEqual([]);
    expect(received).toEqual([]);
  });

  it('credentials set: the push message goes to the device tokens, the chat message to the webhook URL', async () => {
    expect((await credentials('PUT', 'kim', { providerId: 'fcm', credentials: { deviceTokens: ['kim-phone'] } })).status).toBe(200);
    const chat = await credentials('PUT', 'kim', { providerId: 'chat-webhook', credentials: { webhookUrl: `${base}/chat/kim` } });
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);

    const tx = await trigger(svc, 'alerts', 'kim', { service: 'api', since: '10:00' });
    expect(statuses(await event(svc, tx))).toEqual(['completed', 'completed']);
    const byChannel = Object.fromEntries((await messages(svc, `transactionId=${tx}`)).map((m) => [m.channel, m]));
    expect(byChannel.push).toMatchObject({ deviceTokens: ['kim-phone'], title: 'api down', content: 'Since 10:00', providerId: 'fcm', status: 'sent' });
    expect(byChannel.chat).toMatchObject({ content: 'API is down', providerId: 'chat-webhook', status: 'sent' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ url: '/chat/kim', body: { channel: 'chat', content: 'API is down', subscriber: { subscriberId: 'kim' } } });
  });

  it('PATCH adds a device; PUT replaces them all; an empty list clears them and the push step is skipped again', async () => {
    await credentials('PATCH', 'kim', { providerId: 'fcm', credentials: { deviceTokens: ['kim-tablet'] } });
    let tx = await trigger(svc, 'alerts', 'kim', { service: 'db' });
    expect((await messages(svc, `transactionId=${tx}&channel=push`))[0].deviceTokens).toEqual(['kim-phone', 'kim-tablet']);

    await credentials('PUT', 'kim', { providerId: 'fcm', credentials: { deviceTokens: ['kim-new-phone'] } });
    tx = await trigger(svc, 'alerts', 'kim', { service: 'db' });
    expect((await messages(svc, `transactionId=${tx}&channel=push`))[0].deviceTokens).toEqual(['kim-new-phone']);

    await credentials('PUT', 'kim', { providerId: 'fcm', credentials: { deviceTokens: [] } });
    const n = await event(svc, await trigger(svc, 'alerts', 'kim', { service: 'db' }));
    expect(n.jobs[0].status).toBe('skipped');
    expect(n.jobs[0].executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: PUSH_MISSING_TOKENS, providerId: 'fcm' });
  });

  it("a push step goes through the integration the subscriber's tokens are for, not only the first one", async () => {
    await credentials('PUT', 'lee', { providerId: 'expo', credentials: { deviceTokens: ['ExponentPushToken[lee]'] } });
    const tx = await trigger(svc, 'alerts', 'lee', { service: 'api' });
    expect((await event(svc, tx)).jobs[0].status).toBe('completed');
    expect((await messages(svc, `transactionId=${tx}&channel=push`))[0]).toMatchObject({ providerId: 'expo', deviceTokens: ['ExponentPushToken[lee]'] });
  });

  it('more than 100 device tokens for one provider are refused, as the service refuses them, and nothing changes', async () => {
    const kept = (await svc.request('GET', '/v2/subscribers/kim')).body.data.channels;
    const many = Array.from({ length: 101 }, (_, i) => `tok-${i}`);
    const r = await credentials('PATCH', 'kim', { providerId: 'fcm', credentials: { deviceTokens: many } });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Device tokens limit exceeded\. Maximum allowed tokens per subscriber channel is 100, but got 101 tokens\.$/);
    expect((await svc.request('GET', '/v2/subscribers/kim')).body.data.channels).toEqual(kept);
    expect((await credentials('PUT', 'kim', { providerId: 'fcm', credentials: { deviceTokens: many.slice(1) } })).status).toBe(200);
  });

  it('DELETE …/credentials/{providerId} forgets the webhook URL: the chat step fails again', async () => {
    const r = await svc.request('DELETE', '/v1/subscribers/kim/credentials/chat-webhook');
    expect(r.status).toBe(204);
    const n = await event(svc, await trigger(svc, 'alerts', 'kim', { service: 'api' }));
    expect(n.jobs[1]).toMatchObject({ status: 'failed' });
    expect(details(n.jobs[1]).at(-1)).toBe(NO_CONFIGURED_CHANNEL);
    expect(received).toEqual([]);
  });
});

describe('broadcast', () => {
  it('reaches every subscriber of the environment, and only that environment', async () => {
    const r = await svc.request('POST', '/v1/events/trigger/broadcast', { body: { name: 'alerts', payload: { service: 'web' }, transactionId: 'bc-1' } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ acknowledged: true, status: 'processed', transactionId: 'bc-1' });
    await svc.runner.idle();
    const reached = (await events(svc, 'bc-1')).map((e) => e.subscriber.subscriberId).sort();
    expect(reached).toEqual(['kim', 'lee']);

    const staging = await svc.request('POST', '/v1/events/trigger/broadcast', {
      key: STAGING_KEY,
      body: { name: 'alerts', payload: {}, transactionId: 'bc-2' },
    });
    expect(staging.status).toBe(201);
    await svc.runner.idle();
    const stagingEvents = (await svc.request('GET', '/v1/notifications?transactionId=bc-2', { key: STAGING_KEY })).body.data;
    expect(stagingEvents.map((e: any) => e.subscriber.subscriberId)).toEqual(['zed']);
    expect(stagingEvents[0].jobs[0].status).toBe('completed');
    expect(await events(svc, 'bc-2')).toEqual([]);
  });

  it('a broadcast needs a payload, as the service requires; an unknown workflow is 422 and sends nothing', async () => {
    const noPayload = await svc.request('POST', '/v1/events/trigger/broadcast', { body: { name: 'alerts' } });
    expect(noPayload.status).toBe(422);
    const unknown = await svc.request('POST', '/v1/events/trigger/broadcast', { body: { name: 'nope', payload: {}, transactionId: 'bc-3' } });
    expect(unknown).toMatchObject({ status: 422, body: { message: 'workflow_not_found' } });
    expect(await events(svc, 'bc-3')).toEqual([]);
  });
});

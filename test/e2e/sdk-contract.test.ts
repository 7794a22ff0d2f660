// The service's official TypeScript SDK (@novu/api 3.16.0), pointed at the built `svc dev`, calls the
// spec's 14 operations and validates every answer with its own schemas. The only translation is the
// documented one: values carrying the service's name are `svc` here and `novu` in the SDK's enums.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Novu } from '@novu/api';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;
const requests: string[] = [];

beforeAll(async () => {
  dev = await startDev({ args: ['--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey, {
    onRequest: (req, res) => requests.push(`${req.method} ${new URL(req.url).pathname} ${res.status} ${req.headers.get('authorization')?.split(' ')[0]}`),
  });
});
afterAll(async () => {
  await dev?.stop();
});

describe('the official SDK against svc dev', () => {
  test('calls the 14 operations of the spec and every answer passes its validation', async () => {
    // 13. Trigger event
    const trig = await novu.trigger({
      workflowId: 'welcome',
      to: [{ subscriberId: 'sdk-user', firstName: 'Ada', email: 'ada@example.com' }],
      payload: { company: 'Acme' },
    });
    expect(trig.result.status).toBe('processed');
    const txn = trig.result.transactionId!;

    // 14. List events (poll until the runner has delivered)
    let events = await novu.notifications.list({ transactionId: txn, limit: 10, page: 0 });
    for (
      const deadline = Date.now() + 20_000;
      Date.now() < deadline && events.result.data[0]?.jobs?.some((j) => !['completed', 'failed', 'skipped'].includes(j.status));
    ) {
      await new Promise((r) => setTimeout(r, 100));
      events = await novu.notifications.list({ transactionId: txn, limit: 10, page: 0 });
    }
    expect(events.result.data).toHaveLength(1);
    const notificationId = events.result.data[0]!.id!;

    // 12. Retrieve event
    const event = await novu.notifications.retrieve(notificationId);
    expect(event.result.transactionId).toBe(txn);
    expect(event.result.jobs?.length).toBeGreaterThan(0);

    // 5. Search subscribers
    const subs = await novu.subscribers.search({ subscriberId: 'sdk-user', limit: 10 });
    expect(subs.result.data.map((s) => s.subscriberId)).toEqual(['sdk-user']);

    // 3. Update subscriber online status
    const online = await novu.subscribers.properties.updateOnlineFlag({ isOnline: false }, 'sdk-user');
    expect(online.result.isOnline).toBe(false);
    expect(online.result.lastOnlineAt).toBeTruthy();

    // 7. Update notifications state (mark-as) on the in-app message the trigger created
    const messages = await api(dev, 'GET', `/v1/messages?subscriberId=sdk-user&channel=in_app`);
    const messageId = messages.body.data[0]._id as string;
    const marked = await novu.subscribers.messages.markAllAs({ messageId, markAs: 'read' }, 'sdk-user');
    expect(marked.result[0]?.read).toBe(true);

    // 6. List active integrations; 10. Update integration as primary
    const active = await novu.integrations.listActive();
    const secondEmail = active.result.find((i) => i.channel === 'email' && !i.primary)!;
    expect(secondEmail).toBeTruthy();
    const primary = await novu.integrations.setAsPrimary(secondEmail.id!);
    expect(primary.result.primary).toBe(true);
    expect(primary.result.credentials).toBeUndefined();

    // 8. Create context
    const ctx = await novu.contexts.create({ type: 'tenant', id: 'sdk-acme', data: { plan: 'pro' } });
    expect(ctx.result.data).toEqual({ plan: 'pro' });

    // 9. Create channel connection; 4. Update channel connection
    const slack = active.result.find((i) => i.providerId === 'slack')!;
    const conn = await novu.channelConnections.create({
      integrationIdentifier: slack.identifier,
      subscriberId: 'sdk-user',
      workspace: { id: 'T1', name: 'Acme' },
      auth: { accessToken: 'xoxb-sdk-token-0001' },
    });
    expect(conn.result.workspace.id).toBe('T1');
    const updated = await novu.channelConnections.update({ workspace: { id: 'T2' }, auth: { accessToken: 'xoxb-sdk-token-0002' } }, conn.result.identifier);
    expect(updated.result.workspace.id).toBe('T2');

    // 1. List channel endpoints
    await novu.channelEndpoints.create({
      subscriberId: 'sdk-user',
      integrationIdentifier: slack.identifier,
      type: 'slack_channel',
      endpoint: { channelId: 'C123' },
    } as never);
    const endpoints = await novu.channelEndpoints.list({ subscriberId: 'sdk-user', limit: 10 });
    expect(endpoints.result.data.map((e) => e.type)).toEqual(['slack_channel']);

    // 11. Retrieve workflow; 2. Generate step preview
    const wf = await novu.workflows.get('welcome');
    expect(wf.result.workflowId).toBe('welcome');
    const step = wf.result.steps[0]!;
    const preview = await novu.workflows.steps.generatePreview({
      workflowId: 'welcome',
      stepId: step.stepId,
      generatePreviewRequestDto: { previewPayload: { payload: { company: 'Acme' }, subscriber: { firstName: 'Ada' } } },
    });
    expect(preview.result.result).toBeTruthy();

    // Every call went to svc dev with the ApiKey scheme.
    expect(requests.every((r) => r.endsWith(' ApiKey'))).toBe(true);
  }, 60_000);
});

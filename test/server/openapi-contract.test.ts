// Every operation's answer against the real service's OpenAPI response schema: what the official SDK,
// pointed at `svc dev`, would validate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiProblems } from '../helpers/openapi.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

const ids: Record<string, string> = {};
beforeAll(async () => {
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', context: { tenant: 'acme' } } });
  // A digest that closes (its events in the job's digest metadata) and one event merged into it.
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'comment-digest', to: 'grace', payload: { postId: 'p', comment: 'a' } } });
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'comment-digest', to: 'grace', payload: { postId: 'p', comment: 'b' } } });
  await svc.runner.idle();
  svc.clock.advance(10 * 60_000);
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'incident', to: ['alan', 'ada'] } });
  await svc.runner.idle();
  const msgs = (await svc.request('GET', '/v1/messages?subscriberId=ada&channel=in_app')).body.data;
  ids.message = msgs[0]._id;
  ids.notification = msgs[0]._notificationId;
  ids.integration = (await svc.request('GET', '/v1/integrations/active')).body.data.find((i: any) => i.identifier === 'postmark')._id;
  await svc.request('POST', '/v2/workflows', {
    body: {
      name: 'Every kind',
      workflowId: 'every-kind',
      active: true,
      steps: [
        { stepId: 'digest', name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } },
        { stepId: 'delay', name: 'Delay', type: 'delay', controlValues: { amount: 1, unit: 'hours' } },
        { stepId: 'throttle', name: 'Throttle', type: 'throttle', controlValues: { type: 'fixed', amount: 1, unit: 'hours', threshold: 2 } },
        { stepId: 'custom', name: 'Custom', type: 'custom', controlValues: { custom: { a: '{{ payload.a }}' } } },
        {
          stepId: 'call',
          name: 'Call',
          type: 'http_request',
          controlValues: { method: 'POST', url: 'http://127.0.0.1:9/x', body: '{"a": "{{ payload.a }}"}' },
        },
        { stepId: 'sms', name: 'Sms', type: 'sms', controlValues: { body: '{{ steps.digest.eventCount }} {{ steps.custom.a }}' } },
        { stepId: 'push', name: 'Push', type: 'push', controlValues: { subject: 's', body: 'b' } },
        { stepId: 'chat', name: 'Chat', type: 'chat', controlValues: { body: 'c' } },
      ],
    },
  });
  await svc.request('POST', '/v1/channel-connections', {
    body: { identifier: 'conn-1', subscriberId: 'ada', integrationIdentifier: 'slack', workspace: { id: 'T1' }, auth: { accessToken: 'x' } },
  });
  await svc.request('POST', '/v1/channel-endpoints', {
    body: { identifier: 'ep-1', subscriberId: 'ada', integrationIdentifier: 'slack', type: 'slack_channel', endpoint: { channelId: 'C1' } },
  });
});

const cases: [string, string, string, (() => unknown) | undefined][] = [
  ['GET', '/v1/channel-endpoints', '/v1/channel-endpoints', undefined],
  ['POST', '/v2/workflows/{workflowId}/step/{stepId}/preview', '/v2/workflows/welcome/step/in-app/preview', () => ({})],
  ['POST', '/v2/workflows/{workflowId}/step/{stepId}/preview', '/v2/workflows/welcome/step/email/preview', () => ({})],
  ['PATCH', '/v1/subscribers/{subscriberId}/online-status', '/v1/subscribers/ada/online-status', () => ({ isOnline: false })],
  ['PATCH', '/v1/channel-connections/{identifier}', '/v1/channel-connections/conn-1', () => ({ workspace: { id: 'T2' }, auth: { accessToken: 'y' } })],
  ['GET', '/v2/subscribers', '/v2/subscribers?limit=2', undefined],
  ['GET', '/v1/integrations/active', '/v1/integrations/active', undefined],
  ['POST', '/v1/subscribers/{subscriberId}/messages/mark-as', '/v1/subscribers/ada/messages/mark-as', () => ({ messageId: ids.message, markAs: 'read' })],
  ['POST', '/v2/contexts', '/v2/contexts', () => ({ type: 'app', id: 'contract' })],
  [
    'POST',
    '/v1/channel-connections',
    '/v1/channel-connections',
    () => ({ subscriberId: 'grace', integrationIdentifier: 'slack', workspace: { id: 'T1' }, auth: { accessToken: 'x' } }),
  ],
  ['POST', '/v1/integrations/{integrationId}/set-primary', '/v1/integrations/{integration}/set-primary', undefined],
  ['GET', '/v2/workflows/{workflowId}', '/v2/workflows/welcome', undefined],
  ['GET', '/v2/workflows/{workflowId}', '/v2/workflows/comment-digest', undefined],
  ['GET', '/v2/workflows/{workflowId}', '/v2/workflows/every-kind', undefined],
  ...['digest', 'delay', 'throttle', 'custom', 'call', 'sms', 'push', 'chat'].map((step): [string, string, string, () => unknown] => [
    'POST',
    '/v2/workflows/{workflowId}/step/{stepId}/preview',
    `/v2/workflows/every-kind/step/${step}/preview`,
    () => ({ previewPayload: { payload: { a: 'x' } } }),
  ]),
  ['GET', '/v1/notifications/{notificationId}', '/v1/notifications/{notification}', undefined],
  ['POST', '/v1/events/trigger', '/v1/events/trigger', () => ({ name: 'otp', to: 'ada' })],
  ['GET', '/v1/notifications', '/v1/notifications?limit=50', undefined],
  [
    'POST',
    '/v1/events/trigger/bulk',
    '/v1/events/trigger/bulk',
    () => ({
      events: [
        { name: 'otp', to: 'ada' },
        { name: 'nope', to: 'ada' },
      ],
    }),
  ],
  ['GET', '/v1/channel-connections', '/v1/channel-connections', undefined],
  ['GET', '/v1/channel-connections/{identifier}', '/v1/channel-connections/conn-1', undefined],
  [
    'POST',
    '/v1/channel-endpoints',
    '/v1/channel-endpoints',
    () => ({ subscriberId: 'grace', integrationIdentifier: 'slack', type: 'phone', endpoint: { phoneNumber: '+15550100002' } }),
  ],
  ['GET', '/v1/channel-endpoints/{identifier}', '/v1/channel-endpoints/ep-1', undefined],
  ['PATCH', '/v1/channel-endpoints/{identifier}', '/v1/channel-endpoints/ep-1', () => ({ endpoint: { channelId: 'C2' } })],
  [
    'POST',
    '/v2/workflows',
    '/v2/workflows',
    () => ({ name: 'Contract', workflowId: 'contract', steps: [{ name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } }] }),
  ],
  ['GET', '/v1/messages', '/v1/messages?limit=50', undefined],
  ['POST', '/v1/environments', '/v1/environments', () => ({ name: 'Contract', color: '#b15353' })],
  ['GET', '/v1/environments', '/v1/environments', undefined],
];

describe("answers fit the service's OpenAPI document", () => {
  it.each(cases)('%s %s (%s)', async (method, template, url, body) => {
    const real = url.replace('{integration}', ids.integration!).replace('{notification}', ids.notification!);
    const r = await svc.request(method, real, body ? { body: body() } : {});
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    const unwrapped = r.body && typeof r.body === 'object' && Object.keys(r.body).length === 1 && 'data' in r.body ? r.body.data : r.body;
    expect(openApiProblems(method, template, r.status, unwrapped)).toEqual([]);
  });
});

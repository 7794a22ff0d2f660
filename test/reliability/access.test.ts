// Access in the local service: each environment's key sees and changes only its own data, through
// every route of the operation table (a route added later without a row here fails the test); no
// answer ever carries an integration's credentials; bodies over the limit are refused with 413 and
// the CLI says so; webhooks go to loopback targets only unless allowed.
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationList, type OperationName } from '../../src/api/operations.js';
import { ErrorBody } from '../../src/api/schemas/common.js';
import { checkTarget } from '../../src/server/outbound/index.js';
import { parseSeed } from '../../src/server/seed/load.js';
import { runSvc } from '../helpers/run.js';
import { testService, TEST_KEY } from '../helpers/service.js';
import { figures } from './util.js';

const STAGING_KEY = 'sk_staging_access_9c1f5e3a7b';
// Every credential in the store carries this marker: no answer may contain it.
const MARK = 'CRED-MARKER-7d2e';
const svc = testService({
  seed: parseSeed(
    {
      integrations: [{ identifier: 'mailgun', providerId: 'mailgun', channel: 'email', credentials: { apiKey: `${MARK}-mailgun`, secretKey: `${MARK}-2` } }],
      environments: [
        {
          name: 'Staging',
          apiKey: STAGING_KEY,
          integrations: [
            { identifier: 'ses', providerId: 'ses', channel: 'email', primary: true, credentials: { apiKey: `${MARK}-ses`, secretKey: `${MARK}-3` } },
            { identifier: 'slack-staging', providerId: 'slack', channel: 'chat', credentials: { applicationId: `${MARK}-slack` } },
            { identifier: 'in-app-staging', providerId: 'svc', channel: 'in_app' },
          ],
          subscribers: [{ subscriberId: 'zed', firstName: 'Zed', email: 'zed@example.com' }],
          workflows: [
            { workflowId: 'staging-only', name: 'Staging only', active: true, steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' } }] },
          ],
          contexts: [{ type: 'tenant', id: 'staging-co' }],
        },
      ],
    },
    'access test',
  ),
});

/** An answer, with what was sent to get it (an error may quote the id it could not find). */
type Answer = { status: number; body: any; sent: string };
const answers: { what: string; body: string }[] = [];
async function as(key: string, method: string, url: string, body?: unknown): Promise<Answer> {
  const r = await svc.request(method, url, { key, ...(body !== undefined ? { body } : {}) });
  answers.push({ what: `${method} ${url}`, body: JSON.stringify(r.body ?? '') });
  return { status: r.status, body: r.body, sent: `${url} ${JSON.stringify(body ?? '')}` };
}
const A = (m: string, u: string, b?: unknown) => as(TEST_KEY, m, u, b);
const B = (m: string, u: string, b?: unknown) => as(STAGING_KEY, m, u, b);

/** The first answer (an attempt by the other environment's database id) must be a 404. */
function refusedById(byId: Answer, ...rest: Answer[]): Answer[] {
  expect(byId.status, JSON.stringify(byId.body)).toBe(404);
  // A 204 has no body; the checks below read one.
  return [byId, ...rest].map((a) => ({ ...a, body: a.body ?? '' }));
}

/** What each environment owns, by the ids and identifiers a caller would use. */
interface Owned {
  subscriber: string;
  workflow: string;
  workflowDbId: string;
  notificationId: string;
  transactionId: string;
  messageIds: string[];
  integrationId: string;
  connection: string;
  endpoint: string;
  context: string;
  environmentId: string;
  layout: string;
}
const owned: Record<'A' | 'B', Owned> = {} as never;

async function populate(call: typeof A, env: { subscriber: string; workflow: string; slack: string; tx: string }): Promise<Owned> {
  const t = await call('POST', '/v1/events/trigger', { name: env.workflow, to: env.subscriber, transactionId: env.tx });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  await svc.runner.idle();
  const events = (await call('GET', `/v1/notifications?transactionId=${env.tx}`)).body.data;
  const messages = (await call('GET', `/v1/messages?subscriberId=${env.subscriber}&channel=in_app`)).body.data;
  const conn = await call('POST', '/v1/channel-connections', {
    integrationIdentifier: env.slack,
    subscriberId: env.subscriber,
    workspace: { id: 'T1' },
    auth: { accessToken: `xoxb-${env.tx}` },
  });
  expect(conn.status, JSON.stringify(conn.body)).toBe(201);
  const endp = await call('POST', '/v1/channel-endpoints', {
    subscriberId: env.subscriber,
    integrationIdentifier: env.slack,
    connectionIdentifier: conn.body.data.identifier,
    type: 'slack_channel',
    endpoint: { channelId: `C-${env.tx}` },
  });
  expect(endp.status, JSON.stringify(endp.body)).toBe(201);
  const ctx = await call('POST', '/v2/contexts', { type: 'project', id: `p-${env.tx}` });
  expect(ctx.status).toBe(201);
  const ly = await call('POST', '/v2/layouts', { layoutId: `ly-${env.tx}`, name: `Layout ${env.tx}` });
  expect(ly.status, JSON.stringify(ly.body)).toBe(201);
  const domain = await call('POST', '/v1/domains', { name: `${env.tx}.example.com` });
  expect(domain.status, JSON.stringify(domain.body)).toBe(201);
  expect((await call('POST', `/v1/domains/${env.tx}.example.com/routes`, { address: 'support', type: 'webhook' })).status).toBe(201);
  const wf = await call('GET', `/v2/workflows/${env.workflow}`);
  const integration = (await call('GET', '/v1/integrations/active')).body.data.find((i: { identifier: string }) => i.identifier === env.slack);
  return {
    subscriber: env.subscriber,
    workflow: env.workflow,
    workflowDbId: wf.body.data._id,
    notificationId: events[0]._id,
    transactionId: env.tx,
    messageIds: messages.map((m: { _id: string }) => m._id),
    integrationId: integration._id,
    connection: conn.body.data.identifier,
    endpoint: endp.body.data.identifier,
    context: `project:p-${env.tx}`,
    environmentId: (await call('GET', '/v1/environments/me')).body.data._id,
    layout: ly.body.data._id,
  };
}

beforeAll(async () => {
  owned.A = await populate(A, { subscriber: 'ada', workflow: 'welcome', slack: 'slack', tx: 'tx-env-a' });
  owned.B = await populate(B, { subscriber: 'zed', workflow: 'staging-only', slack: 'slack-staging', tx: 'tx-env-b' });
  expect(owned.A.messageIds.length).toBeGreaterThan(0);
  expect(owned.B.messageIds.length).toBeGreaterThan(0);
});
afterAll(() => svc.close());

/** The ids of one environment must not appear in anything the other one is answered. */
const idsOf = (o: Owned) => [o.notificationId, o.transactionId, ...o.messageIds, o.connection, o.endpoint, `p-${o.transactionId}`, o.workflowDbId];

/**
 * For every operation: `other` (the intruder's key) tries to read or change what `own` owns. Each
 * returns what the intruder got; the test then checks that the owner's data is unchanged.
 */
const attempts: Record<OperationName, (call: typeof A, own: Owned, mine: Owned) => Promise<Answer[]>> = {
  listChannelEndpoints: async (call, own) => [
    await call('GET', '/v1/channel-endpoints?limit=100'),
    await call('GET', `/v1/channel-endpoints?subscriberId=${own.subscriber}`),
    await call('GET', `/v1/channel-endpoints?connectionIdentifier=${own.connection}`),
  ],
  previewStep: async (call, own) => [await call('POST', `/v2/workflows/${own.workflow}/step/${own.workflow === 'welcome' ? 'in-app' : 'inbox'}/preview`, {})],
  updateOnlineStatus: async (call, own) => [await call('PATCH', `/v1/subscribers/${own.subscriber}/online-status`, { isOnline: false })],
  updateChannelConnection: async (call, own) => [
    await call('PATCH', `/v1/channel-connections/${own.connection}`, { workspace: { id: 'STOLEN' }, auth: { accessToken: 'xoxb-stolen' } }),
  ],
  searchSubscribers: async (call, own) => [await call('GET', '/v2/subscribers?limit=100'), await call('GET', `/v2/subscribers?subscriberId=${own.subscriber}`)],
  listActiveIntegrations: async (call) => [await call('GET', '/v1/integrations/active')],
  markMessagesAs: async (call, own, mine) => [
    await call('POST', `/v1/subscribers/${own.subscriber}/messages/mark-as`, { messageId: own.messageIds, markAs: 'read' }),
    await call('POST', `/v1/subscribers/${mine.subscriber}/messages/mark-as`, { messageId: own.messageIds, markAs: 'read' }),
  ],
  createContext: async (call, own) => [await call('POST', '/v2/contexts', { type: 'project', id: `p-${own.transactionId}` })],
  createChannelConnection: async (call, own) => [
    await call('POST', '/v1/channel-connections', {
      integrationIdentifier: 'slack',
      subscriberId: own.subscriber,
      workspace: { id: 'T9' },
      auth: { accessToken: 'xoxb-x' },
    }),
    await call('POST', '/v1/channel-connections', {
      integrationIdentifier: 'slack',
      subscriberId: own.subscriber,
      identifier: own.connection,
      workspace: { id: 'T9' },
      auth: { accessToken: 'xoxb-x' },
    }),
  ],
  setPrimaryIntegration: async (call, own) => [await call('POST', `/v1/integrations/${own.integrationId}/set-primary`)],
  getWorkflow: async (call, own) => [await call('GET', `/v2/workflows/${own.workflow}`), await call('GET', `/v2/workflows/${own.workflowDbId}`)],
  getEvent: async (call, own) => [await call('GET', `/v1/notifications/${own.notificationId}`)],
  triggerEvent: async (call, own) => [await call('POST', '/v1/events/trigger', { name: own.workflow, to: own.subscriber })],
  listEvents: async (call, own) => [
    await call('GET', '/v1/notifications?limit=50'),
    await call('GET', `/v1/notifications?transactionId=${own.transactionId}`),
    await call('GET', `/v1/notifications?subscriberIds=${own.subscriber}`),
    await call('GET', '/v1/notifications?svcStatus=delivered&svcStatus=completed&limit=50'),
  ],
  // Nothing of an environment: which local service this is.
  getLocalService: async (call) => [await call('GET', '/v1/svc-dev')],
  // Answers false (nothing of that transactionId in the intruder's environment), and cancels nothing.
  cancelEvent: async (call, own) => [await call('DELETE', `/v1/events/trigger/${own.transactionId}`)],
  triggerBulk: async (call, own) => [await call('POST', '/v1/events/trigger/bulk', { events: [{ name: own.workflow, to: own.subscriber }] })],
  listChannelConnections: async (call, own) => [
    await call('GET', '/v1/channel-connections?limit=100'),
    await call('GET', `/v1/channel-connections?subscriberId=${own.subscriber}`),
  ],
  getChannelConnection: async (call, own) => [await call('GET', `/v1/channel-connections/${own.connection}`)],
  deleteChannelConnection: async (call, own) => [await call('DELETE', `/v1/channel-connections/${own.connection}`)],
  createChannelEndpoint: async (call, own) => [
    await call('POST', '/v1/channel-endpoints', {
      subscriberId: own.subscriber,
      integrationIdentifier: 'slack',
      connectionIdentifier: own.connection,
      type: 'slack_channel',
      endpoint: { channelId: 'C-x' },
    }),
  ],
  getChannelEndpoint: async (call, own) => [await call('GET', `/v1/channel-endpoints/${own.endpoint}`)],
  updateChannelEndpoint: async (call, own) => [await call('PATCH', `/v1/channel-endpoints/${own.endpoint}`, { endpoint: { channelId: 'C-stolen' } })],
  deleteChannelEndpoint: async (call, own) => [await call('DELETE', `/v1/channel-endpoints/${own.endpoint}`)],
  createWorkflow: async (call, own) => [
    await call('POST', '/v2/workflows', {
      workflowId: own.workflow,
      name: 'Shadow',
      active: true,
      steps: [{ name: 'x', type: 'in_app', controlValues: { body: 'x' } }],
    }),
  ],
  listMessages: async (call, own) => [
    await call('GET', '/v1/messages?limit=1000'),
    await call('GET', `/v1/messages?subscriberId=${own.subscriber}`),
    await call('GET', `/v1/messages?transactionId=${own.transactionId}`),
  ],
  listWorkflows: async (call, own) => [await call('GET', '/v2/workflows?limit=100'), await call('GET', `/v2/workflows?query=${own.workflow}`)],
  // By workflowId these may reach the intruder's own workflow of that id (the createWorkflow attempt
  // made one); by the other environment's database id they must find nothing.
  updateWorkflow: async (call, own) => {
    const body = { name: 'Stolen', steps: [{ name: 'x', type: 'in_app', controlValues: { body: 'x' } }] };
    return refusedById(await call('PUT', `/v2/workflows/${own.workflowDbId}`, body), await call('PUT', `/v2/workflows/${own.workflow}`, body));
  },
  patchWorkflow: async (call, own) =>
    refusedById(
      await call('PATCH', `/v2/workflows/${own.workflowDbId}`, { active: false }),
      await call('PATCH', `/v2/workflows/${own.workflow}`, { active: false }),
    ),
  deleteWorkflow: async (call, own) =>
    refusedById(await call('DELETE', `/v2/workflows/${own.workflowDbId}`), await call('DELETE', `/v2/workflows/${own.workflow}`)),
  // Creating the other environment's subscriberId lands in the intruder's own namespace; removed again
  // at once so that the retrieve/update/delete attempts below still find nothing.
  createSubscriber: async (call, own) => {
    const r = await call('POST', '/v2/subscribers', { subscriberId: own.subscriber, firstName: 'Stolen' });
    await call('DELETE', `/v2/subscribers/${own.subscriber}`);
    return [r];
  },
  getSubscriber: async (call, own) => [await call('GET', `/v2/subscribers/${own.subscriber}`)],
  patchSubscriber: async (call, own) => [await call('PATCH', `/v2/subscribers/${own.subscriber}`, { firstName: 'Stolen' })],
  deleteSubscriber: async (call, own) => [await call('DELETE', `/v2/subscribers/${own.subscriber}`)],
  // Nothing answers there: the sync stores nothing, in either environment.
  bridgeSync: async (call) => [await call('POST', '/v1/bridge/sync?source=cli', { bridgeUrl: 'http://127.0.0.1:9/api/novu' })],
  getCurrentEnvironment: async (call) => [await call('GET', '/v1/environments/me')],
  updateIntegration: async (call, own) => [await call('PUT', `/v1/integrations/${own.integrationId}`, { credentials: { hmac: true } })],
  getSubscriberPreferences: async (call, own) => [await call('GET', `/v2/subscribers/${own.subscriber}/preferences`)],
  patchSubscriberPreferences: async (call, own) => [await call('PATCH', `/v2/subscribers/${own.subscriber}/preferences`, { channels: { in_app: false } })],
  bulkSubscriberPreferences: async (call, own) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/preferences/bulk`, { preferences: [{ workflowId: own.workflow, channels: { in_app: false } }] }),
  ],
  listTopics: async (call) => [await call('GET', '/v2/topics?limit=100')],
  // A topic key lands in the intruder's own namespace; the other environment's subscriber is not found there.
  createTopic: async (call, own) => [await call('POST', '/v2/topics', { key: `t-${own.transactionId}` })],
  getTopic: async (call, own) => [await call('GET', `/v2/topics/own-${own.transactionId}`)],
  updateTopic: async (call, own) => [await call('PATCH', `/v2/topics/own-${own.transactionId}`, { name: 'Stolen' })],
  deleteTopic: async (call, own) => [await call('DELETE', `/v2/topics/own-${own.transactionId}`)],
  listTopicSubscriptions: async (call, own) => [await call('GET', `/v2/topics/own-${own.transactionId}/subscriptions`)],
  createTopicSubscriptions: async (call, own) => [await call('POST', `/v2/topics/t-${own.transactionId}/subscriptions`, { subscriberIds: [own.subscriber] })],
  deleteTopicSubscriptions: async (call, own) => [
    await call('DELETE', `/v2/topics/own-${own.transactionId}/subscriptions`, { subscriberIds: [own.subscriber] }),
  ],
  generateChatOauthUrl: async (call, own) => [
    await call('POST', '/v1/integrations/chat/oauth', { integrationIdentifier: 'slack', subscriberId: own.subscriber }),
  ],
  generateConnectOauthUrl: async (call, own) => [
    await call('POST', '/v1/integrations/channel-connections/oauth', { integrationIdentifier: 'slack', subscriberId: own.subscriber }),
  ],
  generateLinkUserOauthUrl: async (call, own) => [
    await call('POST', '/v1/integrations/channel-endpoints/oauth', {
      integrationIdentifier: 'slack',
      subscriberId: own.subscriber,
      connectionIdentifier: own.connection,
    }),
  ],
  // The createContext attempt made the same type:id in the intruder's own namespace: removed first (not
  // an attempt), so that the reads and changes below can reach only the other environment's context.
  listContexts: async (call, own) => {
    await call('DELETE', `/v2/contexts/project/p-${own.transactionId}`);
    return [
      await call('GET', '/v2/contexts?limit=100'),
      await call('GET', `/v2/contexts?id=p-${own.transactionId}`),
      await call('GET', `/v2/contexts?search=${own.transactionId}`),
    ];
  },
  getContext: async (call, own) => [await call('GET', `/v2/contexts/project/p-${own.transactionId}`)],
  updateContext: async (call, own) => [await call('PATCH', `/v2/contexts/project/p-${own.transactionId}`, { data: { stolen: true } })],
  deleteContext: async (call, own) => [await call('DELETE', `/v2/contexts/project/p-${own.transactionId}`)],
  // Organisation-wide, as the service lists them (like the active list); never with credentials.
  listIntegrations: async (call) => [await call('GET', '/v1/integrations')],
  // Identifiers are unique in the organisation: the other environment's is taken (409), nothing is made.
  createIntegration: async (call, own) => [
    await call('POST', '/v1/integrations', { providerId: 'slack', channel: 'chat', identifier: own.workflow === 'welcome' ? 'slack' : 'slack-staging' }),
  ],
  // The service refuses an API key another environment's integration with 403.
  deleteIntegration: async (call, own) => [await call('DELETE', `/v1/integrations/${own.integrationId}`)],
  deleteMessage: async (call, own) => [await call('DELETE', `/v1/messages/${own.messageIds[0]}`)],
  deleteMessagesByTransaction: async (call, own) => [
    await call('DELETE', `/v1/messages/transaction/${own.transactionId}`),
    await call('DELETE', `/v1/messages/transaction/${own.transactionId}?channel=in_app`),
  ],
  // A subscriber's notifications: the other's subscriber is not found, and its message ids are not the intruder's subscriber's.
  listSubscriberNotifications: async (call, own) => [await call('GET', `/v2/subscribers/${own.subscriber}/notifications?limit=100`)],
  countSubscriberNotifications: async (call, own) => [
    await call('GET', `/v2/subscribers/${own.subscriber}/notifications/count?filters=${encodeURIComponent('[{}]')}`),
  ],
  deleteSubscriberNotification: async (call, own, mine) => [
    await call('DELETE', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}`),
    await call('DELETE', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}`),
  ],
  markSubscriberNotificationRead: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/read`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/read`),
  ],
  markSubscriberNotificationUnread: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/unread`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/unread`),
  ],
  archiveSubscriberNotification: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/archive`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/archive`),
  ],
  unarchiveSubscriberNotification: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/unarchive`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/unarchive`),
  ],
  unsnoozeSubscriberNotification: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/unsnooze`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/unsnooze`),
  ],
  completeSubscriberNotificationAction: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/actions/primary/complete`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/actions/primary/complete`),
  ],
  revertSubscriberNotificationAction: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/actions/primary/revert`),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/actions/primary/revert`),
  ],
  snoozeSubscriberNotification: async (call, own, mine) => [
    await call('PATCH', `/v2/subscribers/${own.subscriber}/notifications/${own.messageIds[0]}/snooze`, {
      snoozeUntil: new Date(svc.clock.now() + 3_600_000).toISOString(),
    }),
    await call('PATCH', `/v2/subscribers/${mine.subscriber}/notifications/${own.messageIds[0]}/snooze`, {
      snoozeUntil: new Date(svc.clock.now() + 3_600_000).toISOString(),
    }),
  ],
  // The intruder's own subscriber: a 204 that marks nothing of the other's (checked by the snapshot).
  markSubscriberNotificationsSeen: async (call, own, mine) =>
    refusedById(
      await call('POST', `/v2/subscribers/${own.subscriber}/notifications/seen`, {}),
      await call('POST', `/v2/subscribers/${mine.subscriber}/notifications/seen`, { notificationIds: own.messageIds }),
    ),
  markAllSubscriberNotificationsRead: async (call, own) => [await call('POST', `/v2/subscribers/${own.subscriber}/notifications/read`, {})],
  archiveAllSubscriberNotifications: async (call, own) => [await call('POST', `/v2/subscribers/${own.subscriber}/notifications/archive`, {})],
  archiveReadSubscriberNotifications: async (call, own) => [await call('POST', `/v2/subscribers/${own.subscriber}/notifications/read-archive`, {})],
  deleteAllSubscriberNotifications: async (call, own) => [await call('POST', `/v2/subscribers/${own.subscriber}/notifications/delete`, {})],
  getNotificationsFeed: async (call, own) => [await call('GET', `/v1/subscribers/${own.subscriber}/notifications/feed`)],
  getUnseenCount: async (call, own) => [await call('GET', `/v1/subscribers/${own.subscriber}/notifications/unseen`)],
  markAllMessages: async (call, own) => [await call('POST', `/v1/subscribers/${own.subscriber}/messages/mark-all`, { markAs: 'read' })],
  markMessageAction: async (call, own, mine) => [
    await call('POST', `/v1/subscribers/${own.subscriber}/messages/${own.messageIds[0]}/actions/primary`, { status: 'done' }),
    await call('POST', `/v1/subscribers/${mine.subscriber}/messages/${own.messageIds[0]}/actions/primary`, { status: 'done' }),
  ],
  waitForMessage: async (call, own) => [
    await call('GET', `/v1/svc-dev/messages/wait?transactionId=${own.transactionId}&since=1970-01-01T00:00:00Z&holdMs=0`),
    await call('GET', `/v1/svc-dev/messages/wait?subscriberId=${own.subscriber}&since=1970-01-01T00:00:00Z&holdMs=0`),
  ],
  getMessage: async (call, own) => [await call('GET', `/v1/svc-dev/messages/${own.messageIds[0]}`)],
  // Organisation-wide, as the service lists them; only the caller's own environment with its key.
  listEnvironments: async (call) => [await call('GET', '/v1/environments')],
  // A new environment is the intruder's own (its parent); the other's name is taken.
  createEnvironment: async (call, own) => [
    await call('POST', '/v1/environments', { name: own.workflow === 'welcome' ? 'Development' : 'Staging', color: '#000000' }),
  ],
  // An API key changes and deletes its own environment (and those made from it) only.
  updateEnvironment: async (call, own) => [await call('PUT', `/v1/environments/${own.environmentId}`, { name: 'Stolen', color: '#ff0000' })],
  deleteEnvironment: async (call, own) => [await call('DELETE', `/v1/environments/${own.environmentId}`)],
  // The other environment's workflow is unknown here: nothing is sent to anyone.
  triggerBroadcast: async (call, own) => [await call('POST', '/v1/events/trigger/broadcast', { name: own.workflow })],
  // A subscriber of the intruder's own namespace is made; the owner's are not touched.
  bulkCreateSubscribers: async (call, own) => [await call('POST', '/v1/subscribers/bulk', { subscribers: [{ subscriberId: `bulk-${own.transactionId}` }] })],
  updateSubscriberCredentials: async (call, own) => [
    await call('PUT', `/v1/subscribers/${own.subscriber}/credentials`, { providerId: 'slack', credentials: { webhookUrl: 'http://127.0.0.1:9/stolen' } }),
  ],
  appendSubscriberCredentials: async (call, own) => [
    await call('PATCH', `/v1/subscribers/${own.subscriber}/credentials`, { providerId: 'slack', credentials: { webhookUrl: 'http://127.0.0.1:9/stolen' } }),
  ],
  deleteSubscriberCredentials: async (call, own) => [await call('DELETE', `/v1/subscribers/${own.subscriber}/credentials/slack`)],
  listSubscriberSubscriptions: async (call, own) => [await call('GET', `/v2/subscribers/${own.subscriber}/subscriptions`)],
  getTopicSubscriber: async (call, own) => [await call('GET', `/v1/topics/own-${own.transactionId}/subscribers/${own.subscriber}`)],
  getTopicSubscription: async (call, own) => [
    await call('GET', `/v2/topics/own-${own.transactionId}/subscriptions/tk_own-${own.transactionId}:si_${own.subscriber}`),
  ],
  updateTopicSubscription: async (call, own) => [
    await call('PATCH', `/v2/topics/own-${own.transactionId}/subscriptions/tk_own-${own.transactionId}:si_${own.subscriber}`, { name: 'Stolen' }),
  ],
  // svc dev's admin routes: time is the service's; reset and snapshots act on the whole store, and only
  // with the key of its first environment (A here): the attempts below change nothing either way.
  getClock: async (call) => [await call('GET', '/v1/svc-dev/clock')],
  advanceClock: async (call) => [await call('POST', '/v1/svc-dev/clock/advance', { ms: 0 })],
  resetStore: async (call) => [await call('POST', '/v1/svc-dev/reset', { empty: 'yes' })],
  saveSnapshot: async (call) => [await call('GET', '/v1/svc-dev/snapshot')],
  loadSnapshot: async (call) => [await call('POST', '/v1/svc-dev/snapshot/load', { encoding: 'sqlite3+gzip+base64', snapshot: 'bm90IGEgc25hcHNob3Q=' })],
  createLayout: async (call, own) => [await call('POST', '/v2/layouts', { layoutId: `ly-${own.transactionId}`, name: 'Mine now' })],
  listLayouts: async (call, own) => [await call('GET', `/v2/layouts?query=ly-${own.transactionId}`)],
  getLayout: async (call, own) => [await call('GET', `/v2/layouts/${own.layout}`)],
  updateLayout: async (call, own) => [await call('PUT', `/v2/layouts/${own.layout}`, { name: 'Stolen' })],
  deleteLayout: async (call, own) => [await call('DELETE', `/v2/layouts/${own.layout}`)],
  duplicateLayout: async (call, own) => [await call('POST', `/v2/layouts/${own.layout}/duplicate`, { name: 'Copy' })],
  previewLayout: async (call, own) => [await call('POST', `/v2/layouts/${own.layout}/preview`, {})],
  getLayoutUsage: async (call, own) => [await call('GET', `/v2/layouts/${own.layout}/usage`)],
  createTranslation: async (call, own) => [
    await call('POST', '/v2/translations', { resourceId: own.workflow, resourceType: 'workflow', locale: 'en_US', content: { stolen: 'yes' } }),
    await call('POST', '/v2/translations', { resourceId: own.workflowDbId, resourceType: 'workflow', locale: 'en_US', content: { stolen: 'yes' } }),
  ],
  getTranslation: async (call, own) => [await call('GET', `/v2/translations/workflow/${own.workflow}/en_US`)],
  deleteTranslation: async (call, own) => [await call('DELETE', `/v2/translations/workflow/${own.workflow}/en_US`)],
  deleteTranslationGroup: async (call, own) => [await call('DELETE', `/v2/translations/workflow/${own.workflow}`)],
  getTranslationGroup: async (call, own) => [await call('GET', `/v2/translations/group/workflow/${own.workflow}`)],
  getMasterJson: async (call) => [await call('GET', '/v2/translations/master-json?locale=en_US')],
  importMasterJson: async (call, own) => [
    await call('POST', '/v2/translations/master-json', { locale: 'en_US', masterJson: { workflows: { [own.workflow]: { stolen: 'yes' } } } }),
  ],
  uploadMasterJson: async (call, own) => [
    await uploadAs(
      call,
      '/v2/translations/master-json/upload',
      {},
      { file: [['en_US.json', JSON.stringify({ workflows: { [own.workflow]: { stolen: 'yes' } } })]] },
    ),
  ],
  uploadTranslationFiles: async (call, own) => [
    await uploadAs(
      call,
      '/v2/translations/upload',
      { resourceId: own.workflow, resourceType: 'workflow' },
      { 'files[]': [['en_US.json', '{"stolen":"yes"}']] },
    ),
  ],
  // Variables are the organisation's; a value is its environment's: the other one's is neither set nor shown.
  listEnvironmentVariables: async (call) => [await call('GET', '/v1/environment-variables')],
  createEnvironmentVariable: async (call, own) => [
    await call('POST', '/v1/environment-variables', { key: `STOLEN_${own.subscriber}`, values: [{ _environmentId: own.environmentId, value: 'x' }] }),
  ],
  getEnvironmentVariable: async (call, own) => [await call('GET', `/v1/environment-variables/NONE_${own.subscriber}`)],
  updateEnvironmentVariable: async (call, own, mine) => [
    await call('POST', '/v1/environment-variables', { key: `MINE_${mine.subscriber}`, values: [{ _environmentId: mine.environmentId, value: 'mine' }] }),
    await call('PATCH', `/v1/environment-variables/MINE_${mine.subscriber}`, { values: [{ _environmentId: own.environmentId, value: 'stolen' }] }),
  ],
  deleteEnvironmentVariable: async (call, own) => [await call('DELETE', `/v1/environment-variables/NONE_${own.subscriber}`)],
  getEnvironmentVariableUsage: async (call, own) => [await call('GET', `/v1/environment-variables/NONE_${own.subscriber}/usage`)],
  // Another environment that was not made from the intruder's: refused.
  getEnvironmentTags: async (call, own) => [await call('GET', `/v2/environments/${own.environmentId}/tags`)],
  diffEnvironment: async (call, own) => [await call('POST', `/v2/environments/${own.environmentId}/diff`, {})],
  publishEnvironment: async (call, own) => [await call('POST', `/v2/environments/${own.environmentId}/publish`, {})],
  syncWorkflow: async (call, own, mine) => [
    await call('PUT', `/v2/workflows/${own.workflowDbId}/sync`, { targetEnvironmentId: mine.environmentId }),
    await call('PUT', `/v2/workflows/${mine.workflow}/sync`, { targetEnvironmentId: own.environmentId }),
  ],
  getWorkflowStep: async (call, own) => [await call('GET', `/v2/workflows/${own.workflowDbId}/steps/${own.workflow === 'welcome' ? 'in-app' : 'inbox'}`)],
  // A provider's report of the other environment's messages, posted to its integration's URL.
  handleInboundWebhook: async (call, own) => [
    await call(
      'POST',
      `/v2/inbound-webhooks/delivery-providers/${own.environmentId}/${own.integrationId}`,
      own.messageIds.map((id) => ({ id, event: 'bounce' })),
    ),
  ],
  autoConfigureIntegration: async (call, own) => [await call('POST', `/v1/integrations/${own.integrationId}/auto-configure`)],
  // A domain's name is unique across the service: the other environment's is taken (409), nothing is made.
  listDomains: async (call) => [await call('GET', '/v1/domains?limit=100')],
  createDomain: async (call, own) => [await call('POST', '/v1/domains', { name: `${own.transactionId}.example.com` })],
  getDomain: async (call, own) => [await call('GET', `/v1/domains/${own.transactionId}.example.com`)],
  updateDomain: async (call, own) => [await call('PATCH', `/v1/domains/${own.transactionId}.example.com`, { data: { stolen: 'yes' } })],
  deleteDomain: async (call, own) => [await call('DELETE', `/v1/domains/${own.transactionId}.example.com`)],
  getDomainAutoConfigure: async (call, own) => [await call('GET', `/v1/domains/${own.transactionId}.example.com/auto-configure`)],
  startDomainAutoConfigure: async (call, own) => [await call('POST', `/v1/domains/${own.transactionId}.example.com/auto-configure/start`, {})],
  diagnoseDomain: async (call, own) => [await call('POST', `/v1/domains/${own.transactionId}.example.com/diagnose`)],
  listDomainRoutes: async (call, own) => [await call('GET', `/v1/domains/${own.transactionId}.example.com/routes`)],
  createDomainRoute: async (call, own) => [await call('POST', `/v1/domains/${own.transactionId}.example.com/routes`, { address: 'stolen', type: 'webhook' })],
  getDomainRoute: async (call, own) => [await call('GET', `/v1/domains/${own.transactionId}.example.com/routes/support`)],
  updateDomainRoute: async (call, own) => [await call('PATCH', `/v1/domains/${own.transactionId}.example.com/routes/support`, { data: { stolen: 'yes' } })],
  deleteDomainRoute: async (call, own) => [await call('DELETE', `/v1/domains/${own.transactionId}.example.com/routes/support`)],
  testDomainRoute: async (call, own) => [
    await call('POST', `/v1/domains/${own.transactionId}.example.com/routes/support/test`, { from: { address: 'x@example.org' }, subject: 'x' }),
  ],
  verifyDomain: async (call, own) => [await call('POST', `/v1/domains/${own.transactionId}.example.com/verify`)],
};

/** A multipart upload with the key of `call` (A's or B's). */
async function uploadAs(call: typeof A, url: string, fields: Record<string, string>, files: Record<string, [string, string][]>): Promise<Answer> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, list] of Object.entries(files)) for (const [name, text] of list) form.append(k, new Blob([text], { type: 'application/json' }), name);
  const req = new Request('http://x/', { method: 'POST', body: form });
  const payload = Buffer.from(await req.arrayBuffer());
  const headers = { authorization: `ApiKey ${call === A ? TEST_KEY : STAGING_KEY}`, 'content-type': req.headers.get('content-type')! };
  const res = await svc.app.inject({ method: 'POST', url, headers, payload });
  const body = JSON.parse(res.body);
  answers.push({ what: `POST ${url}`, body: res.body });
  return { status: res.statusCode, body, sent: `${url} ${JSON.stringify(fields)} ${JSON.stringify(files)}` };
}

/** What an intruder must get when it names the other environment's records: not found (or, for a
 * trigger, an unknown workflow); the rest answer from the intruder's own namespace. */
const refusedWith: Partial<Record<OperationName, number[]>> = {
  previewStep: [201],
  updateOnlineStatus: [404],
  updateChannelConnection: [404],
  setPrimaryIntegration: [404],
  getWorkflow: [404, 404],
  getEvent: [404],
  triggerEvent: [422],
  getChannelConnection: [404],
  deleteChannelConnection: [404],
  getChannelEndpoint: [404],
  updateChannelEndpoint: [404],
  deleteChannelEndpoint: [404],
  createChannelConnection: [404, 404],
  createChannelEndpoint: [404],
  markMessagesAs: [404, 201],
  getSubscriber: [404],
  patchSubscriber: [404],
  deleteSubscriber: [404],
  updateIntegration: [404],
  getSubscriberPreferences: [404],
  patchSubscriberPreferences: [404],
  bulkSubscriberPreferences: [404],
  getTopic: [404],
  updateTopic: [404],
  deleteTopic: [404],
  listTopicSubscriptions: [404],
  deleteTopicSubscriptions: [404],
  generateChatOauthUrl: [404],
  generateConnectOauthUrl: [404],
  generateLinkUserOauthUrl: [404],
  getContext: [404],
  updateContext: [404],
  deleteContext: [404],
  createIntegration: [409],
  deleteIntegration: [403],
  deleteMessage: [404],
  deleteMessagesByTransaction: [404, 404],
  listSubscriberNotifications: [404],
  countSubscriberNotifications: [404],
  deleteSubscriberNotification: [404, 404],
  markSubscriberNotificationRead: [404, 404],
  markSubscriberNotificationUnread: [404, 404],
  archiveSubscriberNotification: [404, 404],
  unarchiveSubscriberNotification: [404, 404],
  snoozeSubscriberNotification: [404, 404],
  unsnoozeSubscriberNotification: [404, 404],
  completeSubscriberNotificationAction: [404, 404],
  revertSubscriberNotificationAction: [404, 404],
  markSubscriberNotificationsSeen: [404, 204],
  markAllSubscriberNotificationsRead: [404],
  archiveAllSubscriberNotifications: [404],
  archiveReadSubscriberNotifications: [404],
  deleteAllSubscriberNotifications: [404],
  getNotificationsFeed: [400],
  getUnseenCount: [400],
  markAllMessages: [404],
  markMessageAction: [404, 404],
  getMessage: [404],
  updateEnvironment: [403],
  deleteEnvironment: [403],
  triggerBroadcast: [422],
  updateSubscriberCredentials: [400],
  appendSubscriberCredentials: [400],
  deleteSubscriberCredentials: [404],
  listSubscriberSubscriptions: [404],
  getTopicSubscriber: [404],
  getTopicSubscription: [404],
  updateTopicSubscription: [404],
  getLayout: [404],
  updateLayout: [404],
  deleteLayout: [404],
  duplicateLayout: [404],
  previewLayout: [404],
  getLayoutUsage: [404],
  createTranslation: [404, 404],
  getTranslation: [404],
  deleteTranslation: [404],
  deleteTranslationGroup: [404],
  getTranslationGroup: [404],
  getMasterJson: [200],
  importMasterJson: [200],
  uploadMasterJson: [200],
  uploadTranslationFiles: [404],
  createEnvironmentVariable: [403],
  getEnvironmentVariable: [404],
  updateEnvironmentVariable: [200, 403],
  deleteEnvironmentVariable: [404],
  getEnvironmentVariableUsage: [404],
  getEnvironmentTags: [403],
  diffEnvironment: [403],
  publishEnvironment: [403],
  syncWorkflow: [404, 403],
  getWorkflowStep: [404],
  handleInboundWebhook: [404],
  autoConfigureIntegration: [404],
  createDomain: [409],
  getDomain: [404],
  updateDomain: [404],
  deleteDomain: [404],
  getDomainAutoConfigure: [404],
  startDomainAutoConfigure: [404],
  diagnoseDomain: [404],
  listDomainRoutes: [404],
  createDomainRoute: [404],
  getDomainRoute: [404],
  updateDomainRoute: [404],
  deleteDomainRoute: [404],
  testDomainRoute: [404],
  verifyDomain: [404],
};

/** A snapshot of everything an environment owns, read with its own key. */
async function snapshot(call: typeof A, o: Owned) {
  const read = async (url: string) => JSON.stringify((await call('GET', url)).body);
  return {
    subscriber: await read(`/v2/subscribers?subscriberId=${o.subscriber}`),
    workflow: await read(`/v2/workflows/${o.workflow}`),
    event: await read(`/v1/notifications/${o.notificationId}`),
    messages: await read(`/v1/messages?subscriberId=${o.subscriber}`),
    connection: await read(`/v1/channel-connections/${o.connection}`),
    endpoint: await read(`/v1/channel-endpoints/${o.endpoint}`),
    contexts: await read(`/v1/notifications?subscriberIds=${o.subscriber}`),
    context: await read(`/v2/contexts/project/p-${o.transactionId}`),
    layout: await read(`/v2/layouts/${o.layout}`),
    integrations: JSON.stringify((await call('GET', '/v1/integrations/active')).body.data.filter((i: { _id: string }) => i._id === o.integrationId)),
  };
}

describe('two environments, every route', () => {
  it('the operation table has an attempt for every route', () => {
    expect(operationList.map((op) => op.name).filter((n) => !(n in attempts))).toEqual([]);
  });

  let tried = 0;
  let leaks = 0;
  let changes = 0;
  afterAll(() =>
    figures('environment isolation', { routes: operationList.length, crossEnvironmentRequests: tried, leaks, changesAcrossEnvironments: changes }),
  );

  for (const [intruder, victim, call] of [
    ['B', 'A', B],
    ['A', 'B', A],
  ] as const) {
    it.each(operationList.map((op) => [op.name as OperationName] as const))(`%s: ${intruder}'s key cannot read or change ${victim}'s data`, async (name) => {
      const own = owned[victim];
      const ownerCall = victim === 'A' ? A : B;
      const before = await snapshot(ownerCall, own);
      const got = await attempts[name](call, own, owned[intruder]);
      tried += got.length;
      for (const r of got) {
        // Nothing of the other environment in any answer (but the ids the intruder sent itself)...
        const text = JSON.stringify(r.body);
        for (const id of idsOf(own).filter((i) => !r.sent.includes(i))) {
          if (text.includes(id)) leaks++;
          expect(text, `${name} answered ${victim}'s ${id}`).not.toContain(id);
        }
        // ... and an attempt on its records is "not found" (or lands in the intruder's own namespace).
        expect(r.status, `${name}: ${text.slice(0, 300)}`).toBeLessThan(500);
        if (r.status >= 400) expect(ErrorBody.safeParse(r.body).success).toBe(true);
      }
      if (refusedWith[name])
        expect(
          got.map((r) => r.status),
          name,
        ).toEqual(refusedWith[name]);
      const after = await snapshot(ownerCall, own);
      if (JSON.stringify(after) !== JSON.stringify(before)) changes++;
      expect(after, `${name} changed ${victim}'s data`).toEqual(before);
    });
  }

  it("a mark-as with the other environment's message ids changes nothing and returns nothing", async () => {
    const r = await B('POST', `/v1/subscribers/zed/messages/mark-as`, { messageId: owned.A.messageIds, markAs: 'read' });
    expect(r).toMatchObject({ status: 201, body: { data: [] } });
    const msgs = (await A('GET', '/v1/messages?subscriberId=ada&channel=in_app')).body.data;
    expect(msgs.every((m: { read: boolean }) => !m.read)).toBe(true);
  });
});

describe('integration credentials', () => {
  it('never appear in any answer to an API key, in either environment', async () => {
    for (const call of [A, B]) {
      const list = (await call('GET', '/v1/integrations/active')).body.data as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(0);
      expect(list.filter((i) => 'credentials' in i)).toEqual([]);
    }
    const email = (await B('GET', '/v1/integrations/active')).body.data.find((i: { identifier: string }) => i.identifier === 'ses');
    await B('POST', `/v1/integrations/${email._id}/set-primary`);
    const leaked = answers.filter((a) => a.body.includes(MARK));
    expect(leaked.map((a) => a.what)).toEqual([]);
    figures('integration credentials', { answersSearched: answers.length, credentialsReturned: leaked.length });
  });
});

describe('bodies over the size limit', () => {
  it("the CLI refuses a body over the service's limit for its route before sending (exit 2); svc dev answers 413 in the service's error shape above it", async () => {
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.app.server.address() as AddressInfo;
    const dir = mkdtempSync(join(tmpdir(), 'svc-rel-413-'));
    writeFileSync(join(dir, 'big.json'), JSON.stringify({ type: 'tenant', id: 'big', data: { blob: 'x'.repeat(2 * 1024 * 1024) } }));
    const r = await runSvc(['contexts', 'create', 'tenant', 'big', '--data', `@${join(dir, 'big.json')}`], {
      env: { SVC_API_KEY: TEST_KEY, SVC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe('error: --data: the request body would be 2 MiB, over the 100 KiB the service accepts on POST /v2/contexts; nothing was sent\n');
    const over = await fetch(`http://127.0.0.1:${port}/v1/events/trigger`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', to: 'a', payload: { blob: 'x'.repeat(26 * 1024 * 1024) } }),
    });
    expect(over.status).toBe(413);
    const body = ErrorBody.parse(await over.json());
    expect(body.message).toBe(`Request body is larger than ${26 * 1024 * 1024} bytes`);
  });
});

describe('webhook targets', () => {
  // The outbound module's guard (src/server/outbound/guard.ts), tested directly: the runner does not yet run
  // http_request steps (they pass over with a Warning), so there is no route to a webhook to test.
  const refused = [
    'http://10.0.0.1/hook',
    'http://192.168.1.10/',
    'http://172.16.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://8.8.8.8/',
    'http://0.0.0.0:8080/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[2001:db8::1]/',
    'http://user:pass@10.0.0.1/',
    'http://167772161/',
    'http://0xa000001/',
    'http://012.0.0.1/',
    'https://10.0.0.1:443/',
  ];
  const allowed = [
    'http://127.0.0.1:9/hook',
    'http://127.8.9.10/',
    'http://[::1]:8080/',
    'http://localhost:1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://127.1/',
  ];
  const neverAllowed = ['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1/', 'javascript:alert(1)', 'not a url', 'http://'];

  it.each(refused)('%s is refused unless non-loopback webhooks are allowed', async (url) => {
    expect(await checkTarget(url, false)).toMatchObject({ ok: false, error: expect.stringMatching(/refusing to deliver|only loopback/) });
    expect(await checkTarget(url, true)).toMatchObject({ ok: true });
  });
  it.each(allowed)('%s is loopback and allowed', async (url) => {
    expect(await checkTarget(url, false)).toMatchObject({ ok: true });
  });
  it.each(neverAllowed)('%s is refused even when non-loopback webhooks are allowed', async (url) => {
    expect(await checkTarget(url, true)).toMatchObject({ ok: false });
  });
  afterAll(() => figures('webhook targets', { refused: refused.length, loopbackAllowed: allowed.length, badSchemes: neverAllowed.length }));
});

// The table of operations without their schemas: name, method, path, success status and rate-limit
// category. No dependencies, so the command tree reads its help text ("(GET /v1/notifications)") from it
// at start-up without loading zod; operations.ts adds the schemas for the HTTP core and the local service.

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
/** Rate-limit categories of the service (ground truth, "Rate limits"). */
export type RateCategory = 'trigger' | 'configuration' | 'global';

export interface Route {
  /** Stable name, used by the client, the server's handler table and the tests. */
  name: string;
  method: HttpMethod;
  /** Path template with `{param}` placeholders. */
  path: string;
  summary: string;
  /** The operation's number in api-spec.md, when it has one. */
  specNumber?: number;
  status: number;
  category: RateCategory;
  /** Bulk calls cost this many tokens of the rate limit. */
  cost?: number;
  /** Who calls it: an API key (absent), or an Inbox client: `subscriber` (a session token) or `session` (inbox-routes.ts). */
  auth?: 'subscriber' | 'session';
}

const route = <T extends Route>(r: T): T => r;

export const routes = {
  listChannelEndpoints: route({
    name: 'listChannelEndpoints',
    specNumber: 1,
    method: 'GET',
    path: '/v1/channel-endpoints',
    summary: 'List channel endpoints',
    status: 200,
    category: 'configuration',
  }),
  previewStep: route({
    name: 'previewStep',
    specNumber: 2,
    method: 'POST',
    path: '/v2/workflows/{workflowId}/step/{stepId}/preview',
    summary: 'Generate step preview',
    status: 201,
    category: 'configuration',
  }),
  updateOnlineStatus: route({
    name: 'updateOnlineStatus',
    specNumber: 3,
    method: 'PATCH',
    path: '/v1/subscribers/{subscriberId}/online-status',
    summary: 'Update subscriber online status',
    status: 200,
    category: 'configuration',
  }),
  updateChannelConnection: route({
    name: 'updateChannelConnection',
    specNumber: 4,
    method: 'PATCH',
    path: '/v1/channel-connections/{identifier}',
    summary: 'Update channel connection',
    status: 200,
    category: 'configuration',
  }),
  searchSubscribers: route({
    name: 'searchSubscribers',
    specNumber: 5,
    method: 'GET',
    path: '/v2/subscribers',
    summary: 'Search subscribers',
    status: 200,
    category: 'configuration',
  }),
  listActiveIntegrations: route({
    name: 'listActiveIntegrations',
    specNumber: 6,
    method: 'GET',
    path: '/v1/integrations/active',
    summary: 'List active integrations',
    status: 200,
    category: 'global',
  }),
  markMessagesAs: route({
    name: 'markMessagesAs',
    specNumber: 7,
    method: 'POST',
    path: '/v1/subscribers/{subscriberId}/messages/mark-as',
    summary: 'Update notifications state',
    status: 201,
    category: 'configuration',
  }),
  createContext: route({
    name: 'createContext',
    specNumber: 8,
    method: 'POST',
    path: '/v2/contexts',
    summary: 'Create context',
    status: 201,
    category: 'global',
  }),
  createChannelConnection: route({
    name: 'createChannelConnection',
    specNumber: 9,
    method: 'POST',
    path: '/v1/channel-connections',
    summary: 'Create channel connection',
    status: 201,
    category: 'configuration',
  }),
  setPrimaryIntegration: route({
    name: 'setPrimaryIntegration',
    specNumber: 10,
    method: 'POST',
    path: '/v1/integrations/{integrationId}/set-primary',
    summary: 'Update integration as primary',
    status: 200,
    category: 'global',
  }),
  getWorkflow: route({
    name: 'getWorkflow',
    specNumber: 11,
    method: 'GET',
    path: '/v2/workflows/{workflowId}',
    summary: 'Retrieve workflow',
    status: 200,
    category: 'configuration',
  }),
  getEvent: route({
    name: 'getEvent',
    specNumber: 12,
    method: 'GET',
    path: '/v1/notifications/{notificationId}',
    summary: 'Retrieve event',
    status: 200,
    category: 'global',
  }),
  triggerEvent: route({
    name: 'triggerEvent',
    specNumber: 13,
    method: 'POST',
    path: '/v1/events/trigger',
    summary: 'Trigger event',
    status: 201,
    category: 'trigger',
  }),
  listEvents: route({ name: 'listEvents', specNumber: 14, method: 'GET', path: '/v1/notifications', summary: 'List events', status: 200, category: 'global' }),
  // svc dev only: the hosted service answers 404 (api/local-service.ts).
  getLocalService: route({
    name: 'getLocalService',
    method: 'GET',
    path: '/v1/svc-dev',
    summary: 'Which local service this is (svc dev only)',
    status: 200,
    category: 'global',
  }),
  triggerBulk: route({
    name: 'triggerBulk',
    method: 'POST',
    path: '/v1/events/trigger/bulk',
    summary: 'Bulk trigger events',
    status: 201,
    category: 'trigger',
    cost: 100,
  }),
  cancelEvent: route({
    name: 'cancelEvent',
    method: 'DELETE',
    path: '/v1/events/trigger/{transactionId}',
    summary: 'Cancel triggered event',
    status: 200,
    category: 'trigger',
  }),
  listChannelConnections: route({
    name: 'listChannelConnections',
    method: 'GET',
    path: '/v1/channel-connections',
    summary: 'List channel connections',
    status: 200,
    category: 'configuration',
  }),
  getChannelConnection: route({
    name: 'getChannelConnection',
    method: 'GET',
    path: '/v1/channel-connections/{identifier}',
    summary: 'Retrieve channel connection',
    status: 200,
    category: 'configuration',
  }),
  deleteChannelConnection: route({
    name: 'deleteChannelConnection',
    method: 'DELETE',
    path: '/v1/channel-connections/{identifier}',
    summary: 'Delete channel connection',
    status: 204,
    category: 'configuration',
  }),
  createChannelEndpoint: route({
    name: 'createChannelEndpoint',
    method: 'POST',
    path: '/v1/channel-endpoints',
    summary: 'Create channel endpoint',
    status: 201,
    category: 'configuration',
  }),
  getChannelEndpoint: route({
    name: 'getChannelEndpoint',
    method: 'GET',
    path: '/v1/channel-endpoints/{identifier}',
    summary: 'Retrieve channel endpoint',
    status: 200,
    category: 'configuration',
  }),
  updateChannelEndpoint: route({
    name: 'updateChannelEndpoint',
    method: 'PATCH',
    path: '/v1/channel-endpoints/{identifier}',
    summary: 'Update channel endpoint',
    status: 200,
    category: 'configuration',
  }),
  deleteChannelEndpoint: route({
    name: 'deleteChannelEndpoint',
    method: 'DELETE',
    path: '/v1/channel-endpoints/{identifier}',
    summary: 'Delete channel endpoint',
    status: 204,
    category: 'configuration',
  }),
  createWorkflow: route({ name: 'createWorkflow', method: 'POST', path: '/v2/workflows', summary: 'Create workflow', status: 201, category: 'configuration' }),
  listMessages: route({ name: 'listMessages', method: 'GET', path: '/v1/messages', summary: 'List messages', status: 200, category: 'global' }),
  // Workflow and subscriber management a user reaches for first (openapi.json).
  listWorkflows: route({ name: 'listWorkflows', method: 'GET', path: '/v2/workflows', summary: 'List workflows', status: 200, category: 'configuration' }),
  updateWorkflow: route({
    name: 'updateWorkflow',
    method: 'PUT',
    path: '/v2/workflows/{workflowId}',
    summary: 'Update workflow',
    status: 200,
    category: 'configuration',
  }),
  patchWorkflow: route({
    name: 'patchWorkflow',
    method: 'PATCH',
    path: '/v2/workflows/{workflowId}',
    summary: 'Patch workflow (activate, deactivate, rename)',
    status: 200,
    category: 'configuration',
  }),
  deleteWorkflow: route({
    name: 'deleteWorkflow',
    method: 'DELETE',
    path: '/v2/workflows/{workflowId}',
    summary: 'Delete workflow',
    status: 204,
    category: 'configuration',
  }),
  createSubscriber: route({
    name: 'createSubscriber',
    method: 'POST',
    path: '/v2/subscribers',
    summary: 'Create subscriber',
    status: 201,
    category: 'configuration',
  }),
  getSubscriber: route({
    name: 'getSubscriber',
    method: 'GET',
    path: '/v2/subscribers/{subscriberId}',
    summary: 'Retrieve subscriber',
    status: 200,
    category: 'configuration',
  }),
  patchSubscriber: route({
    name: 'patchSubscriber',
    method: 'PATCH',
    path: '/v2/subscribers/{subscriberId}',
    summary: 'Update subscriber',
    status: 200,
    category: 'configuration',
  }),
  deleteSubscriber: route({
    name: 'deleteSubscriber',
    method: 'DELETE',
    path: '/v2/subscribers/{subscriberId}',
    summary: 'Delete subscriber',
    status: 200,
    category: 'configuration',
  }),
  bridgeSync: route({
    name: 'bridgeSync',
    method: 'POST',
    path: '/v1/bridge/sync',
    summary: 'Register a bridge: discover and store its code-first workflows',
    status: 201,
    category: 'configuration',
  }),
  // The Inbox's operator side: the environment's application identifier, subscriber preferences,
  // topics and their subscriptions, and the integration update that switches HMAC on.
  getCurrentEnvironment: route({
    name: 'getCurrentEnvironment',
    method: 'GET',
    path: '/v1/environments/me',
    summary: 'Retrieve the current environment',
    status: 200,
    category: 'global',
  }),
  updateIntegration: route({
    name: 'updateIntegration',
    method: 'PUT',
    path: '/v1/integrations/{integrationId}',
    summary: 'Update integration',
    status: 200,
    category: 'configuration',
  }),
  getSubscriberPreferences: route({
    name: 'getSubscriberPreferences',
    method: 'GET',
    path: '/v2/subscribers/{subscriberId}/preferences',
    summary: 'Retrieve subscriber preferences',
    status: 200,
    category: 'configuration',
  }),
  patchSubscriberPreferences: route({
    name: 'patchSubscriberPreferences',
    method: 'PATCH',
    path: '/v2/subscribers/{subscriberId}/preferences',
    summary: 'Update subscriber preferences',
    status: 200,
    category: 'configuration',
  }),
  bulkSubscriberPreferences: route({
    name: 'bulkSubscriberPreferences',
    method: 'PATCH',
    path: '/v2/subscribers/{subscriberId}/preferences/bulk',
    summary: 'Bulk update subscriber preferences',
    status: 200,
    category: 'configuration',
  }),
  listTopics: route({ name: 'listTopics', method: 'GET', path: '/v2/topics', summary: 'List topics', status: 200, category: 'configuration' }),
  createTopic: route({ name: 'createTopic', method: 'POST', path: '/v2/topics', summary: 'Create topic', status: 201, category: 'configuration' }),
  getTopic: route({ name: 'getTopic', method: 'GET', path: '/v2/topics/{topicKey}', summary: 'Retrieve topic', status: 200, category: 'configuration' }),
  updateTopic: route({ name: 'updateTopic', method: 'PATCH', path: '/v2/topics/{topicKey}', summary: 'Update topic', status: 200, category: 'configuration' }),
  deleteTopic: route({ name: 'deleteTopic', method: 'DELETE', path: '/v2/topics/{topicKey}', summary: 'Delete topic', status: 200, category: 'configuration' }),
  listTopicSubscriptions: route({
    name: 'listTopicSubscriptions',
    method: 'GET',
    path: '/v2/topics/{topicKey}/subscriptions',
    summary: 'List topic subscriptions',
    status: 200,
    category: 'configuration',
  }),
  createTopicSubscriptions: route({
    name: 'createTopicSubscriptions',
    method: 'POST',
    path: '/v2/topics/{topicKey}/subscriptions',
    summary: 'Subscribe subscribers to a topic',
    status: 201,
    category: 'configuration',
  }),
  deleteTopicSubscriptions: route({
    name: 'deleteTopicSubscriptions',
    method: 'DELETE',
    path: '/v2/topics/{topicKey}/subscriptions',
    summary: 'Unsubscribe subscribers from a topic',
    status: 200,
    category: 'configuration',
  }),
  generateChatOauthUrl: route({
    name: 'generateChatOauthUrl',
    method: 'POST',
    path: '/v1/integrations/chat/oauth',
    summary: 'Generate chat OAuth URL (deprecated)',
    status: 201,
    category: 'global',
  }),
  generateConnectOauthUrl: route({
    name: 'generateConnectOauthUrl',
    method: 'POST',
    path: '/v1/integrations/channel-connections/oauth',
    summary: 'Generate OAuth URL for a workspace/tenant connection',
    status: 201,
    category: 'global',
  }),
  generateLinkUserOauthUrl: route({
    name: 'generateLinkUserOauthUrl',
    method: 'POST',
    path: '/v1/integrations/channel-endpoints/oauth',
    summary: 'Generate OAuth URL to link a subscriber user identity',
    status: 201,
    category: 'global',
  }),
  // The rest of the contexts' lifecycle (openapi.json).
  listContexts: route({ name: 'listContexts', method: 'GET', path: '/v2/contexts', summary: 'List contexts', status: 200, category: 'global' }),
  getContext: route({ name: 'getContext', method: 'GET', path: '/v2/contexts/{type}/{id}', summary: 'Retrieve context', status: 200, category: 'global' }),
  updateContext: route({
    name: 'updateContext',
    method: 'PATCH',
    path: '/v2/contexts/{type}/{id}',
    summary: 'Update context',
    status: 200,
    category: 'global',
  }),
  deleteContext: route({
    name: 'deleteContext',
    method: 'DELETE',
    path: '/v2/contexts/{type}/{id}',
    summary: 'Delete context',
    status: 204,
    category: 'global',
  }),
  // Integration management beyond the active list (openapi.json).
  listIntegrations: route({
    name: 'listIntegrations',
    method: 'GET',
    path: '/v1/integrations',
    summary: 'List all integrations',
    status: 200,
    category: 'global',
  }),
  createIntegration: route({
    name: 'createIntegration',
    method: 'POST',
    path: '/v1/integrations',
    summary: 'Create an integration',
    status: 201,
    category: 'global',
  }),
  deleteIntegration: route({
    name: 'deleteIntegration',
    method: 'DELETE',
    path: '/v1/integrations/{integrationId}',
    summary: 'Delete an integration',
    status: 200,
    category: 'global',
  }),
  // Message deletion (openapi.json).
  deleteMessage: route({
    name: 'deleteMessage',
    method: 'DELETE',
    path: '/v1/messages/{messageId}',
    summary: 'Delete a message',
    status: 200,
    category: 'global',
  }),
  deleteMessagesByTransaction: route({
    name: 'deleteMessagesByTransaction',
    method: 'DELETE',
    path: '/v1/messages/transaction/{transactionId}',
    summary: 'Delete messages by transactionId',
    status: 204,
    category: 'global',
  }),
  // svc dev only (GET /v1/svc-dev names them): a message as soon as one that matches is stored, and one message by id.
  waitForMessage: route({
    name: 'waitForMessage',
    method: 'GET',
    path: '/v1/svc-dev/messages/wait',
    summary: 'Wait for a message (svc dev only)',
    status: 200,
    category: 'global',
  }),
  getMessage: route({
    name: 'getMessage',
    method: 'GET',
    path: '/v1/svc-dev/messages/{messageId}',
    summary: 'Retrieve a message (svc dev only)',
    status: 200,
    category: 'global',
  }),
} satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;

/** `GET /v1/notifications`: how help text names an operation. */
export function routeLabel(name: RouteName): string {
  const r = routes[name];
  return `${r.method} ${r.path}`;
}

/** Fills a path template; every value is URI-encoded. Throws on a missing parameter. */
export function buildPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === '') throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}

/** Names of the `{param}` placeholders of a path template, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The rate-limit category of any path, for operations outside the table (raw `svc api`). */
export function categoryOfPath(path: string): RateCategory {
  if (path.startsWith('/v1/events')) return 'trigger';
  if (/^\/v[12]\/(subscribers|workflows|channel-connections|channel-endpoints|topics)/.test(path)) return 'configuration';
  return 'global';
}

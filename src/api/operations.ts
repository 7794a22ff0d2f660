// The table of operations: one row per API operation with its method, path, schemas, success status and
// rate-limit category. The CLI's HTTP core builds requests from it and the local service registers its
// routes from it, so both sides read the same contract.
import { z } from 'zod';
import { cursorEnvelope, ObjectId, pageEnvelope } from './schemas/common.js';
import {
  ActivityNotification, ChannelConnection, ChannelEndpoint, Context, Integration, Message, Subscriber,
} from './schemas/resources.js';
import {
  BulkTriggerBody, CreateConnectionBody, CreateContextBody, CreateEndpointBody, GetWorkflowQuery, ListConnectionsQuery,
  ListEndpointsQuery, ListEventsQuery, ListMessagesQuery, MarkAsBody, OnlineStatusBody, SearchSubscribersQuery,
  TriggerBody, TriggerResult, UpdateConnectionBody, UpdateEndpointBody,
} from './schemas/requests.js';
import { CreateWorkflowBody, PreviewBody, PreviewResponse, Workflow } from './schemas/workflow.js';
import { CreateSubscriberBody, CreateSubscriberQuery, PatchSubscriberBody, RemoveSubscriberResult } from './schemas/requests.js';
import { ListWorkflowsQuery, ListWorkflowsResponse, PatchWorkflowBody, UpdateWorkflowBody } from './schemas/workflow.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
/** Rate-limit categories of the service (ground truth, "Rate limits"). */
export type RateCategory = 'trigger' | 'configuration' | 'global';

export interface Operation {
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
  /** Schemas of path parameters that are validated (others are any non-empty string). */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Response schema after the `{data}` envelope is removed; absent for 204. */
  response?: z.ZodType;
  /** Bulk calls cost this many tokens of the rate limit. */
  cost?: number;
}

const op = <T extends Operation>(o: T): T => o;

export const operations = {
  listChannelEndpoints: op({
    name: 'listChannelEndpoints', specNumber: 1, method: 'GET', path: '/v1/channel-endpoints',
    summary: 'List channel endpoints', status: 200, category: 'configuration',
    query: ListEndpointsQuery, response: cursorEnvelope(ChannelEndpoint),
  }),
  previewStep: op({
    name: 'previewStep', specNumber: 2, method: 'POST', path: '/v2/workflows/{workflowId}/step/{stepId}/preview',
    summary: 'Generate step preview', status: 201, category: 'configuration',
    body: PreviewBody, response: PreviewResponse,
  }),
  updateOnlineStatus: op({
    name: 'updateOnlineStatus', specNumber: 3, method: 'PATCH', path: '/v1/subscribers/{subscriberId}/online-status',
    summary: 'Update subscriber online status', status: 200, category: 'configuration',
    body: OnlineStatusBody, response: Subscriber,
  }),
  updateChannelConnection: op({
    name: 'updateChannelConnection', specNumber: 4, method: 'PATCH', path: '/v1/channel-connections/{identifier}',
    summary: 'Update channel connection', status: 200, category: 'configuration',
    body: UpdateConnectionBody, response: ChannelConnection,
  }),
  searchSubscribers: op({
    name: 'searchSubscribers', specNumber: 5, method: 'GET', path: '/v2/subscribers',
    summary: 'Search subscribers', status: 200, category: 'configuration',
    query: SearchSubscribersQuery, response: cursorEnvelope(Subscriber),
  }),
  listActiveIntegrations: op({
    name: 'listActiveIntegrations', specNumber: 6, method: 'GET', path: '/v1/integrations/active',
    summary: 'List active integrations', status: 200, category: 'global', response: z.array(Integration),
  }),
  markMessagesAs: op({
    name: 'markMessagesAs', specNumber: 7, method: 'POST', path: '/v1/subscribers/{subscriberId}/messages/mark-as',
    summary: 'Update notifications state', status: 201, category: 'configuration',
    body: MarkAsBody, response: z.array(Message),
  }),
  createContext: op({
    name: 'createContext', specNumber: 8, method: 'POST', path: '/v2/contexts',
    summary: 'Create context', status: 201, category: 'global', body: CreateContextBody, response: Context,
  }),
  createChannelConnection: op({
    name: 'createChannelConnection', specNumber: 9, method: 'POST', path: '/v1/channel-connections',
    summary: 'Create channel connection', status: 201, category: 'configuration',
    body: CreateConnectionBody, response: ChannelConnection,
  }),
  setPrimaryIntegration: op({
    name: 'setPrimaryIntegration', specNumber: 10, method: 'POST', path: '/v1/integrations/{integrationId}/set-primary',
    summary: 'Update integration as primary', status: 200, category: 'global', response: Integration,
  }),
  getWorkflow: op({
    name: 'getWorkflow', specNumber: 11, method: 'GET', path: '/v2/workflows/{workflowId}',
    summary: 'Retrieve workflow', status: 200, category: 'configuration', query: GetWorkflowQuery, response: Workflow,
  }),
  getEvent: op({
    name: 'getEvent', specNumber: 12, method: 'GET', path: '/v1/notifications/{notificationId}',
    summary: 'Retrieve event', status: 200, category: 'global',
    params: z.looseObject({ notificationId: ObjectId }), response: ActivityNotification,
  }),
  triggerEvent: op({
    name: 'triggerEvent', specNumber: 13, method: 'POST', path: '/v1/events/trigger',
    summary: 'Trigger event', status: 201, category: 'trigger', body: TriggerBody, response: TriggerResult,
  }),
  listEvents: op({
    name: 'listEvents', specNumber: 14, method: 'GET', path: '/v1/notifications',
    summary: 'List events', status: 200, category: 'global',
    query: ListEventsQuery, response: pageEnvelope(ActivityNotification),
  }),

  // Operations the ground truth lists that a user needs around the 14 above.
  triggerBulk: op({
    name: 'triggerBulk', method: 'POST', path: '/v1/events/trigger/bulk',
    summary: 'Bulk trigger events', status: 201, category: 'trigger', cost: 100,
    body: BulkTriggerBody, response: z.array(TriggerResult),
  }),
  listChannelConnections: op({
    name: 'listChannelConnections', method: 'GET', path: '/v1/channel-connections',
    summary: 'List channel connections', status: 200, category: 'configuration',
    query: ListConnectionsQuery, response: cursorEnvelope(ChannelConnection),
  }),
  getChannelConnection: op({
    name: 'getChannelConnection', method: 'GET', path: '/v1/channel-connections/{identifier}',
    summary: 'Retrieve channel connection', status: 200, category: 'configuration', response: ChannelConnection,
  }),
  deleteChannelConnection: op({
    name: 'deleteChannelConnection', method: 'DELETE', path: '/v1/channel-connections/{identifier}',
    summary: 'Delete channel connection', status: 204, category: 'configuration',
  }),
  createChannelEndpoint: op({
    name: 'createChannelEndpoint', method: 'POST', path: '/v1/channel-endpoints',
    summary: 'Create channel endpoint', status: 201, category: 'configuration',
    body: CreateEndpointBody, response: ChannelEndpoint,
  }),
  getChannelEndpoint: op({
    name: 'getChannelEndpoint', method: 'GET', path: '/v1/channel-endpoints/{identifier}',
    summary: 'Retrieve channel endpoint', status: 200, category: 'configuration', response: ChannelEndpoint,
  }),
  updateChannelEndpoint: op({
    name: 'updateChannelEndpoint', method: 'PATCH', path: '/v1/channel-endpoints/{identifier}',
    summary: 'Update channel endpoint', status: 200, category: 'configuration',
    body: UpdateEndpointBody, response: ChannelEndpoint,
  }),
  deleteChannelEndpoint: op({
    name: 'deleteChannelEndpoint', method: 'DELETE', path: '/v1/channel-endpoints/{identifier}',
    summary: 'Delete channel endpoint', status: 204, category: 'configuration',
  }),
  createWorkflow: op({
    name: 'createWorkflow', method: 'POST', path: '/v2/workflows',
    summary: 'Create workflow', status: 201, category: 'configuration', body: CreateWorkflowBody, response: Workflow,
  }),
  listMessages: op({
    name: 'listMessages', method: 'GET', path: '/v1/messages',
    summary: 'List messages', status: 200, category: 'global',
    query: ListMessagesQuery, response: pageEnvelope(Message).extend({ totalCount: z.number().optional() }),
  }),

  // Workflow and subscriber management a user reaches for first (openapi.json).
  listWorkflows: op({
    name: 'listWorkflows', method: 'GET', path: '/v2/workflows',
    summary: 'List workflows', status: 200, category: 'configuration', query: ListWorkflowsQuery, response: ListWorkflowsResponse,
  }),
  updateWorkflow: op({
    name: 'updateWorkflow', method: 'PUT', path: '/v2/workflows/{workflowId}',
    summary: 'Update workflow', status: 200, category: 'configuration', body: UpdateWorkflowBody, response: Workflow,
  }),
  patchWorkflow: op({
    name: 'patchWorkflow', method: 'PATCH', path: '/v2/workflows/{workflowId}',
    summary: 'Patch workflow (activate, deactivate, rename)', status: 200, category: 'configuration',
    body: PatchWorkflowBody, response: Workflow,
  }),
  deleteWorkflow: op({
    name: 'deleteWorkflow', method: 'DELETE', path: '/v2/workflows/{workflowId}',
    summary: 'Delete workflow', status: 204, category: 'configuration',
  }),
  createSubscriber: op({
    name: 'createSubscriber', method: 'POST', path: '/v2/subscribers',
    summary: 'Create subscriber', status: 201, category: 'configuration',
    query: CreateSubscriberQuery, body: CreateSubscriberBody, response: Subscriber,
  }),
  getSubscriber: op({
    name: 'getSubscriber', method: 'GET', path: '/v2/subscribers/{subscriberId}',
    summary: 'Retrieve subscriber', status: 200, category: 'configuration', response: Subscriber,
  }),
  patchSubscriber: op({
    name: 'patchSubscriber', method: 'PATCH', path: '/v2/subscribers/{subscriberId}',
    summary: 'Update subscriber', status: 200, category: 'configuration', body: PatchSubscriberBody, response: Subscriber,
  }),
  deleteSubscriber: op({
    name: 'deleteSubscriber', method: 'DELETE', path: '/v2/subscribers/{subscriberId}',
    summary: 'Delete subscriber', status: 200, category: 'configuration', response: RemoveSubscriberResult,
  }),
} satisfies Record<string, Operation>;

export type OperationName = keyof typeof operations;
export const operationList: Operation[] = Object.values(operations);

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

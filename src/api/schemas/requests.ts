// Request bodies and query parameters of the operations. The CLI validates with these before sending;
// the local service validates every incoming request with the same schemas.
import { z } from 'zod';
import { Channel, ChannelEndpointType, ChatPushProviderId, ConnectionMode, MarkAs, OrderDirection, ProviderId, Severity, TriggerStatus } from './enums.js';
import { ContextKey, ContextPart, ContextPayload, JsonObject, ObjectId, QueryBool, queryArray, queryInt, STATED_REFINEMENT } from './common.js';
import { ChannelCredentials, ConnectionAuth, ENDPOINT_SHAPES, Workspace } from './resources.js';
import { ENDPOINT_ORDER_BY, SUBSCRIBER_ORDER_BY } from '../enum-values.js';
import { EVENT_STATUSES } from '../../core/status.js';
import { EVENTS_MAX_LIMIT, MAX_BULK_EVENTS, MAX_RECIPIENTS } from '../limits.js';

export { MAX_BULK_EVENTS };
const MAX_TRIGGER_CONTEXTS = 5;

// --- trigger ---------------------------------------------------------------------------------------------

const nstr = z.string().nullable();
export const SubscriberRecipient = z.looseObject({
  subscriberId: z.string().min(1, 'must not be empty'),
  firstName: nstr.optional(),
  lastName: nstr.optional(),
  email: nstr.optional(),
  phone: nstr.optional(),
  avatar: nstr.optional(),
  locale: nstr.optional(),
  timezone: nstr.optional(),
  data: JsonObject.nullable().optional(),
  channels: z
    .array(
      z.looseObject({
        providerId: ChatPushProviderId,
        integrationIdentifier: z.string().optional(),
        credentials: ChannelCredentials,
      }),
    )
    .optional(),
});
export type SubscriberRecipient = z.infer<typeof SubscriberRecipient>;
export const TopicRecipient = z.looseObject({
  type: z.literal('Topic'),
  topicKey: z.string().min(1, 'must not be empty'),
  exclude: z.array(z.string()).optional(),
});
export type TopicRecipient = z.infer<typeof TopicRecipient>;
export const Recipient = z.union([z.string().min(1, 'must not be empty'), TopicRecipient, SubscriberRecipient]);
export type Recipient = z.infer<typeof Recipient>;

const TenantPayload = z.looseObject({
  identifier: z.string().optional(),
  name: z.string().optional(),
  data: JsonObject.optional(),
});

/**
 * `overrides` (openapi.json `TriggerOverrides`: `steps`, `channels`, `providers`, the deprecated
 * `email`/`sms`/`push`/`chat` and `layoutIdentifier`, and `severity`). The service checks only that it
 * is an object, so its members are kept as sent; only `severity` is checked, since it becomes the
 * event's severity, a field the service's own answers (and the official SDK) hold to the enum.
 */
const TriggerOverrides = z.looseObject({
  severity: Severity.optional(),
});

export const TriggerBody = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  payload: JsonObject.optional(),
  overrides: TriggerOverrides.optional(),
  to: z.union([z.array(Recipient).min(1, 'needs at least one recipient').max(MAX_RECIPIENTS, `must have at most ${MAX_RECIPIENTS} recipients`), Recipient]),
  transactionId: z.string().min(1, 'must not be empty').optional(),
  actor: z.union([z.string().min(1), SubscriberRecipient]).optional(),
  tenant: z.union([z.string().min(1), TenantPayload]).optional(),
  context: ContextPayload.refine((c) => Object.keys(c).length <= MAX_TRIGGER_CONTEXTS, {
    message: `must have at most ${MAX_TRIGGER_CONTEXTS} entries`,
  })
    .meta({ ...STATED_REFINEMENT, maxProperties: MAX_TRIGGER_CONTEXTS })
    .optional(),
});
export type TriggerBody = z.infer<typeof TriggerBody>;

export const TriggerResult = z.looseObject({
  acknowledged: z.boolean(),
  status: TriggerStatus,
  error: z.array(z.string()).optional(),
  transactionId: z.string().optional(),
  activityFeedLink: z.string().optional(),
  jobData: JsonObject.optional(),
});
export type TriggerResult = z.infer<typeof TriggerResult>;

export const BulkTriggerBody = z.looseObject({
  events: z.array(TriggerBody).min(1, 'needs at least one event').max(MAX_BULK_EVENTS, `must have at most ${MAX_BULK_EVENTS} events`),
});
export type BulkTriggerBody = z.infer<typeof BulkTriggerBody>;

// --- subscribers, messages, integrations, contexts --------------------------------------------------------

export const OnlineStatusBody = z.looseObject({ isOnline: z.boolean({ error: 'must be true or false' }) });

// `messageId` is optional here only so that the local service can answer its absence as the service
// does (400 "messageId is required", not a validation 422); the handler requires it.
export const MarkAsBody = z.looseObject({
  messageId: z.union([ObjectId, z.array(ObjectId)]).optional(),
  markAs: MarkAs,
});
export type MarkAsBody = z.infer<typeof MarkAsBody>;

/** POST /v2/subscribers: creates the subscriber, or (unless `failIfExists`) updates the fields sent. */
const subscriberFields = {
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  locale: z.string().nullable().optional(),
  timezone: z.string().nullable().optional(),
  data: JsonObject.nullable().optional(),
};
export const CreateSubscriberBody = z.looseObject({ subscriberId: z.string().min(1, 'must not be empty'), ...subscriberFields });
export type CreateSubscriberBody = z.infer<typeof CreateSubscriberBody>;
export const CreateSubscriberQuery = z.looseObject({ failIfExists: QueryBool.optional() });
/** PATCH /v2/subscribers/{subscriberId}: only the fields sent change. */
export const PatchSubscriberBody = z.looseObject(subscriberFields);
export type PatchSubscriberBody = z.infer<typeof PatchSubscriberBody>;
export const RemoveSubscriberResult = z.looseObject({ acknowledged: z.boolean(), status: z.string() });

export const CreateContextBody = z.looseObject({ type: ContextPart, id: ContextPart, data: JsonObject.optional() });
export type CreateContextBody = z.infer<typeof CreateContextBody>;

// --- channel connections and endpoints -----------------------------------------------------------------

export const CreateConnectionBody = z.looseObject({
  identifier: z.string().min(1).optional(),
  subscriberId: z.string().min(1).optional(),
  context: ContextPayload.optional(),
  connectionMode: ConnectionMode.optional(),
  integrationIdentifier: z.string().min(1, 'must not be empty'),
  workspace: Workspace,
  auth: ConnectionAuth,
});
export type CreateConnectionBody = z.infer<typeof CreateConnectionBody>;

export const UpdateConnectionBody = z.looseObject({ workspace: Workspace, auth: ConnectionAuth });
export type UpdateConnectionBody = z.infer<typeof UpdateConnectionBody>;

export const CreateEndpointBody = z
  .looseObject({
    identifier: z.string().min(1).optional(),
    subscriberId: z.string().min(1, 'must not be empty'),
    context: ContextPayload.optional(),
    integrationIdentifier: z.string().min(1, 'must not be empty'),
    connectionIdentifier: z.string().min(1).optional(),
    type: ChannelEndpointType,
    endpoint: JsonObject,
  })
  .superRefine((body, ctx) => {
    const shape = ENDPOINT_SHAPES[body.type];
    const r = shape.safeParse(body.endpoint);
    if (!r.success) {
      for (const issue of r.error.issues) {
        ctx.addIssue({ code: 'custom', path: ['endpoint', ...issue.path], message: issue.message });
      }
    }
  });
export type CreateEndpointBody = z.infer<typeof CreateEndpointBody>;

export const UpdateEndpointBody = z.looseObject({ endpoint: JsonObject });

// --- queries ---------------------------------------------------------------------------------------------------

const cursorQuery = {
  after: z.string().optional(),
  before: z.string().optional(),
  orderDirection: OrderDirection.optional(),
  includeCursor: QueryBool.optional(),
};

export const ListEndpointsQuery = z.looseObject({
  ...cursorQuery,
  limit: queryInt({ min: 1, max: 100 }).optional(),
  orderBy: z.enum(ENDPOINT_ORDER_BY).optional(),
  subscriberId: z.string().optional(),
  contextKeys: queryArray(ContextKey).optional(),
  channel: Channel.optional(),
  providerId: ProviderId.optional(),
  integrationIdentifier: z.string().optional(),
  connectionIdentifier: z.string().optional(),
});
export type ListEndpointsQuery = z.infer<typeof ListEndpointsQuery>;

export const ListConnectionsQuery = z.looseObject({
  ...cursorQuery,
  limit: queryInt({ min: 1, max: 100 }).optional(),
  orderBy: z.enum(ENDPOINT_ORDER_BY).optional(),
  subscriberId: z.string().optional(),
  channel: Channel.optional(),
  providerId: ProviderId.optional(),
  integrationIdentifier: z.string().optional(),
  contextKeys: queryArray(ContextKey).optional(),
});
export type ListConnectionsQuery = z.infer<typeof ListConnectionsQuery>;

export const SearchSubscribersQuery = z.looseObject({
  ...cursorQuery,
  limit: queryInt({ min: 1 }).optional(),
  orderBy: z.enum(SUBSCRIBER_ORDER_BY).optional(),
  email: z.string().optional(),
  name: z.string().optional(),
  phone: z.string().optional(),
  subscriberId: z.string().optional(),
});
export type SearchSubscribersQuery = z.infer<typeof SearchSubscribersQuery>;

export const ListEventsQuery = z.looseObject({
  channels: queryArray(Channel).optional(),
  templates: queryArray(z.string()).optional(),
  emails: queryArray(z.string()).optional(),
  search: z.string().optional(),
  subscriberIds: queryArray(z.string()).optional(),
  severity: queryArray(Severity).optional(),
  page: queryInt({ min: 0 }).optional(),
  limit: queryInt({ min: 1, max: EVENTS_MAX_LIMIT }).optional(),
  transactionId: z.string().optional(),
  topicKey: z.string().optional(),
  subscriptionId: z.string().optional(),
  contextKeys: queryArray(ContextKey).optional(),
  after: z.string().optional(),
  before: z.string().optional(),
  /**
   * svc dev only (the CLI sends it only to svc dev: GET /v1/svc-dev answers): events of these derived
   * statuses (core/status.ts), judged over `channels`' steps when given. The hosted service's
   * validation keeps unknown query parameters and its handler never reads them: there it is ignored.
   */
  svcStatus: queryArray(z.enum(EVENT_STATUSES)).optional(),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

const MESSAGES_MAX_LIMIT = 1000;
export const ListMessagesQuery = z.looseObject({
  channel: Channel.optional(),
  subscriberId: z.string().optional(),
  transactionId: queryArray(z.string()).optional(),
  contextKeys: queryArray(ContextKey).optional(),
  page: queryInt({ min: 0 }).optional(),
  limit: queryInt({ min: 1, max: MESSAGES_MAX_LIMIT }).optional(),
});
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const GetWorkflowQuery = z.looseObject({ environmentId: z.string().optional() });

// --- contexts (list, update) -----------------------------------------------------------------------------

const CONTEXT_ORDER_BY = ['createdAt', 'updatedAt'] as const;
export const ListContextsQuery = z.looseObject({
  ...cursorQuery,
  limit: queryInt({ min: 1, max: 100 }).optional(),
  orderBy: z.enum(CONTEXT_ORDER_BY).optional(),
  /** Exact context id. */
  id: z.string().optional(),
  /** Part of the type or the id. */
  search: z.string().optional(),
});
export type ListContextsQuery = z.infer<typeof ListContextsQuery>;

/** `data` replaces the context's data as a whole. */
export const UpdateContextBody = z.looseObject({ data: JsonObject });
export type UpdateContextBody = z.infer<typeof UpdateContextBody>;

// --- messages (delete) -----------------------------------------------------------------------------------

/** openapi.json DeleteMessageResponseDto. */
export const DeleteMessageResult = z.looseObject({ acknowledged: z.boolean(), status: z.literal('deleted') });
export const DeleteMessagesByTransactionQuery = z.looseObject({ channel: Channel.optional() });
export type DeleteMessagesByTransactionQuery = z.infer<typeof DeleteMessagesByTransactionQuery>;

/**
 * svc dev only (GET /v1/svc-dev names `messages.wait`): the oldest message created at or after `since`
 * (default: now) that matches, answered as soon as one is stored; `null` when none is within `holdMs`
 * (default 0: one look).
 */
const MAX_MESSAGE_HOLD_MS = 60_000;
export const WaitForMessageQuery = z.looseObject({
  subscriberId: z.string().optional(),
  workflowId: z.string().optional(),
  channel: Channel.optional(),
  transactionId: z.string().optional(),
  /** Part of the subject, title or text, in any case. */
  contains: z.string().optional(),
  since: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a valid ISO 8601 date string')
    .optional(),
  holdMs: queryInt({ min: 0, max: MAX_MESSAGE_HOLD_MS }).optional(),
});
export type WaitForMessageQuery = z.infer<typeof WaitForMessageQuery>;

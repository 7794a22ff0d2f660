// The API's resources as the service returns them (api-spec.md, "Resources and their fields").
// Response schemas are loose objects: fields the spec does not name are kept, never stripped.
import { z } from 'zod';
import {
  Channel,
  ChannelEndpointType,
  ChatPushProviderId,
  ExecutionDetailSource,
  ExecutionDetailStatus,
  FilterOperator,
  IntegrationKind,
  MessageStatus,
  Origin,
  ProviderId,
  Severity,
  StepType,
  TimeUnit,
} from './enums.js';
import { IsoDate, JsonObject } from './common.js';

const nstr = z.string().nullable();

// --- subscribers -------------------------------------------------------------------------------------

export const ChannelCredentials = z.looseObject({
  webhookUrl: z.string().optional(),
  channel: z.string().optional(),
  deviceTokens: z.array(z.string()).optional(),
  alertUid: z.string().optional(),
  title: z.string().optional(),
  imageUrl: z.string().optional(),
  state: z.string().optional(),
  externalUrl: z.string().optional(),
});

export const ChannelSettings = z.looseObject({
  providerId: ChatPushProviderId,
  integrationIdentifier: z.string().optional(),
  credentials: ChannelCredentials,
  _integrationId: z.string(),
});

export const Subscriber = z.looseObject({
  _id: z.string().optional(),
  firstName: nstr.optional(),
  lastName: nstr.optional(),
  email: nstr.optional(),
  phone: nstr.optional(),
  avatar: nstr.optional(),
  locale: nstr.optional(),
  channels: z.array(ChannelSettings).optional(),
  topics: z.array(z.string()).optional(),
  isOnline: z.boolean().nullable().optional(),
  lastOnlineAt: nstr.optional(),
  __v: z.number().optional(),
  data: JsonObject.nullable().optional(),
  timezone: nstr.optional(),
  subscriberId: z.string(),
  _organizationId: z.string(),
  _environmentId: z.string(),
  deleted: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Subscriber = z.infer<typeof Subscriber>;

/** The partial subscriber of previews: `_id` through `timezone`, all optional. */
export const PartialSubscriber = Subscriber.pick({
  _id: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  avatar: true,
  locale: true,
  channels: true,
  topics: true,
  isOnline: true,
  lastOnlineAt: true,
  __v: true,
  data: true,
  timezone: true,
}).partial();

// --- filters, integrations ---------------------------------------------------------------------------

const FieldFilterPart = z.looseObject({
  field: z.string(),
  value: z.string(),
  operator: FilterOperator,
  on: z.enum(['subscriber', 'payload']),
});
export const StepFilter = z.looseObject({
  isNegated: z.boolean().optional(),
  type: z.enum(['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP']).optional(),
  value: z.enum(['AND', 'OR']).optional(),
  children: z.array(FieldFilterPart).optional(),
});
export type StepFilter = z.infer<typeof StepFilter>;

/** Integration credentials: secrets and provider settings, returned only to dashboard callers. */
const Credentials = z.looseObject({});

export const Integration = z.looseObject({
  _id: z.string().optional(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  name: z.string(),
  identifier: z.string(),
  providerId: z.string(),
  channel: Channel.optional(),
  kind: IntegrationKind.optional(),
  credentials: Credentials.optional(),
  configurations: z.looseObject({ inboundWebhookEnabled: z.boolean().optional(), inboundWebhookSigningKey: z.string().optional() }).optional(),
  active: z.boolean(),
  deleted: z.boolean(),
  deletedAt: z.string().optional(),
  deletedBy: z.string().optional(),
  primary: z.boolean(),
  conditions: z.array(StepFilter).optional(),
});
export type Integration = z.infer<typeof Integration>;

// --- contexts, channel connections and endpoints -----------------------------------------------------

export const Context = z.looseObject({
  type: z.string(),
  id: z.string(),
  data: JsonObject,
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Context = z.infer<typeof Context>;

export const Workspace = z.looseObject({ id: z.string().min(1, 'must not be empty'), name: z.string().optional() });
export const ConnectionAuth = z.looseObject({ accessToken: z.string().min(1, 'must not be empty') });

export const ChannelConnection = z.looseObject({
  identifier: z.string(),
  channel: Channel.nullable(),
  providerId: ProviderId.nullable(),
  integrationIdentifier: nstr,
  subscriberId: nstr,
  contextKeys: z.array(z.string()),
  workspace: Workspace,
  auth: ConnectionAuth,
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ChannelConnection = z.infer<typeof ChannelConnection>;

const SlackChannelEndpoint = z.looseObject({ channelId: z.string().min(1) });
const SlackUserEndpoint = z.looseObject({ userId: z.string().min(1) });
const WebhookEndpoint = z.looseObject({ url: z.string().min(1), channel: z.string().optional() });
const E164_RE = /^\+[1-9]\d{1,14}$/;
const PhoneEndpoint = z.looseObject({
  phoneNumber: z.string().regex(E164_RE, 'must be a phone number in E.164 format, e.g. +15551234567'),
});
const MsTeamsChannelEndpoint = z.looseObject({ teamId: z.string().min(1), channelId: z.string().min(1) });
const MsTeamsUserEndpoint = z.looseObject({ userId: z.string().min(1) });
/** Which endpoint shape goes with which type (ground truth). */
export const ENDPOINT_SHAPES = {
  slack_channel: SlackChannelEndpoint,
  slack_user: SlackUserEndpoint,
  webhook: WebhookEndpoint,
  phone: PhoneEndpoint,
  ms_teams_channel: MsTeamsChannelEndpoint,
  ms_teams_user: MsTeamsUserEndpoint,
} as const;

export const ChannelEndpoint = z.looseObject({
  identifier: z.string(),
  channel: Channel.nullable(),
  providerId: ProviderId.nullable(),
  integrationIdentifier: nstr,
  connectionIdentifier: nstr,
  subscriberId: nstr,
  contextKeys: z.array(z.string()),
  type: ChannelEndpointType,
  endpoint: z.looseObject({}),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ChannelEndpoint = z.infer<typeof ChannelEndpoint>;

// --- messages -----------------------------------------------------------------------------------------

const EmailBlock = z.looseObject({
  type: z.enum(['button', 'text']),
  content: z.string(),
  url: z.string().optional(),
  styles: z.looseObject({ textAlign: z.enum(['center', 'left', 'right']).optional() }).optional(),
});
const MessageButton = z.looseObject({
  type: z.enum(['primary', 'secondary']),
  content: z.string(),
  resultContent: z.string().optional(),
  /** Where the button leads (an in-app step's action redirect). */
  url: z.string().optional(),
  target: z.string().optional(),
});
const MessageCTA = z.looseObject({
  type: z.enum(['redirect']).optional(),
  data: z.looseObject({ url: z.string().optional(), target: z.string().optional() }).optional(),
  action: z
    .looseObject({
      status: z.enum(['pending', 'done']).optional(),
      buttons: z.array(MessageButton).optional(),
      result: z.looseObject({ payload: JsonObject.optional(), type: z.enum(['primary', 'secondary']).optional() }).optional(),
    })
    .optional(),
});

export const Message = z.looseObject({
  _id: z.string().optional(),
  _templateId: nstr.optional(),
  _environmentId: z.string(),
  _messageTemplateId: nstr.optional(),
  _organizationId: z.string(),
  _notificationId: z.string(),
  _subscriberId: z.string(),
  subscriber: Subscriber.optional(),
  template: z.looseObject({}).optional(),
  templateIdentifier: z.string().optional(),
  createdAt: IsoDate,
  deliveredAt: z.array(z.string()).optional(),
  lastSeenDate: z.string().optional(),
  lastReadDate: z.string().optional(),
  content: z.union([z.array(EmailBlock), z.string()]).optional(),
  transactionId: z.string(),
  subject: z.string().optional(),
  channel: Channel,
  read: z.boolean(),
  seen: z.boolean(),
  snoozedUntil: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  directWebhookUrl: z.string().optional(),
  providerId: z.string().optional(),
  deviceTokens: z.array(z.string()).optional(),
  title: z.string().optional(),
  cta: MessageCTA,
  _feedId: nstr.optional(),
  status: MessageStatus,
  errorId: z.string().optional(),
  errorText: z.string().optional(),
  payload: JsonObject.optional(),
  overrides: JsonObject.optional(),
  contextKeys: z.array(z.string()).optional(),
});
export type Message = z.infer<typeof Message>;

// --- activity feed ------------------------------------------------------------------------------------

export const ExecutionDetail = z.looseObject({
  _id: z.string(),
  createdAt: z.string().optional(),
  status: ExecutionDetailStatus,
  detail: z.string(),
  isRetry: z.boolean(),
  isTest: z.boolean(),
  providerId: ProviderId.optional(),
  raw: z.string().nullable().optional(),
  source: ExecutionDetailSource,
});
export type ExecutionDetail = z.infer<typeof ExecutionDetail>;

const DigestMetadata = z.looseObject({
  digestKey: z.string().optional(),
  amount: z.number().optional(),
  unit: TimeUnit.optional(),
  type: z.enum(['regular', 'backoff', 'timed']),
  events: z.array(JsonObject).optional(),
  backoff: z.boolean().optional(),
  backoffAmount: z.number().optional(),
  backoffUnit: TimeUnit.optional(),
  updateMode: z.boolean().optional(),
  timed: z.looseObject({}).optional(),
});

const JobStep = z.looseObject({
  _id: z.string(),
  active: z.boolean(),
  replyCallback: z.looseObject({}).optional(),
  controlVariables: z.looseObject({}).optional(),
  metadata: z.looseObject({}).optional(),
  issues: z.looseObject({}).optional(),
  filters: z.array(StepFilter),
  template: z.looseObject({}).optional(),
  variants: z.array(z.looseObject({})).optional(),
  _templateId: z.string(),
  name: z.string().optional(),
  _parentId: z.string().nullable().optional(),
});

export const Job = z.looseObject({
  _id: z.string(),
  type: StepType,
  digest: DigestMetadata.optional(),
  executionDetails: z.array(ExecutionDetail),
  step: JobStep,
  overrides: JsonObject.optional(),
  payload: JsonObject.optional(),
  providerId: z.string().nullable(),
  status: z.string(),
  updatedAt: z.string().optional(),
  scheduleExtensionsCount: z.number().optional(),
});
export type Job = z.infer<typeof Job>;

const TriggerDef = z.looseObject({
  type: z.literal('event'),
  identifier: z.string(),
  variables: z.array(z.looseObject({ name: z.string() })),
  subscriberVariables: z.array(z.looseObject({ name: z.string() })).optional(),
});

export const ActivityNotification = z.looseObject({
  _id: z.string().optional(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _subscriberId: z.string(),
  transactionId: z.string(),
  _templateId: z.string().optional(),
  _digestedNotificationId: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  channels: z.array(StepType).optional(),
  subscriber: z
    .looseObject({
      firstName: nstr.optional(),
      subscriberId: z.string(),
      _id: z.string(),
      lastName: nstr.optional(),
      email: nstr.optional(),
      phone: nstr.optional(),
    })
    .optional(),
  template: z.looseObject({ _id: z.string().optional(), name: z.string(), origin: Origin.optional(), triggers: z.array(TriggerDef) }).optional(),
  jobs: z.array(Job).optional(),
  payload: JsonObject.optional(),
  tags: z.array(z.string()).optional(),
  controls: JsonObject.optional(),
  to: z.unknown().optional(),
  topics: z.array(z.looseObject({ _topicId: z.string(), topicKey: z.string() })).optional(),
  severity: Severity.optional(),
  critical: z.boolean().optional(),
  contextKeys: z.array(z.string()).optional(),
});
export type ActivityNotification = z.infer<typeof ActivityNotification>;

/**
 * GET /v1/svc-dev: how a client knows it talks to svc dev (the hosted service has no such path and
 * answers 404), and which of svc dev's own extensions it serves (`listEvents.svcStatus`).
 */
export const LocalServiceInfo = z.looseObject({ service: z.literal('svc dev'), version: z.string(), extensions: z.array(z.string()) });
export type LocalServiceInfo = z.infer<typeof LocalServiceInfo>;

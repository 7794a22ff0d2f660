// The in-app Inbox's front-end API (what the service's `@novu/js` client calls with a subscriber's
// session token): the session, the notifications with their filters, their state changes, and the
// subscriber's preferences. The local service validates with these and the tests read answers with them.
import { z } from 'zod';
import { OBJECT_ID_RE } from '../enum-values.js';
import { INBOX_SEVERITIES, TOPIC_KEY_RE } from '../inbox-values.js';
import { JsonObject } from './common.js';

const SubscriberPayload = z.looseObject({
  subscriberId: z.string().min(1, 'must not be empty').max(256),
  firstName: z.string().nullish(),
  lastName: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  avatar: z.string().nullish(),
  locale: z.string().nullish(),
  timezone: z.string().nullish(),
  data: JsonObject.nullish(),
});

export const InboxSessionBody = z.looseObject({
  applicationIdentifier: z.string().min(1, 'must not be empty').optional(),
  subscriberId: z.string().min(1, 'must not be empty').max(256).optional(),
  subscriber: z.union([z.string().min(1).max(256), SubscriberPayload]).optional(),
  subscriberHash: z.string().optional(),
  context: JsonObject.optional(),
  contextHash: z.string().optional(),
  defaultSchedule: JsonObject.optional(),
});
export type InboxSessionBody = z.infer<typeof InboxSessionBody>;

const UnreadCount = z.object({
  total: z.number(),
  severity: z.object({ high: z.number(), medium: z.number(), low: z.number(), none: z.number() }),
});

export const InboxSession = z.object({
  token: z.string(),
  totalUnreadCount: z.number(),
  unreadCount: UnreadCount,
  removeNovuBranding: z.boolean(),
  maxSnoozeDurationHours: z.number(),
  isDevelopmentMode: z.boolean(),
  applicationIdentifier: z.string(),
});

/** The service's bounds on a tags filter: OR-groups of at most 100 tags, at most 30 of them, 200 tags in all. */
const MAX_TAGS_PER_GROUP = 100;
const MAX_TAG_GROUPS = 30;
const MAX_TAGS_IN_ALL = 200;
/** A data filter is held to the same bounds: at most 100 values for a key, 200 in all. */
const MAX_DATA_VALUES_PER_KEY = MAX_TAGS_PER_GROUP;
const MAX_DATA_VALUES_IN_ALL = MAX_TAGS_IN_ALL;

const OrGroup = z.array(z.string()).max(MAX_TAGS_PER_GROUP, `must hold at most ${MAX_TAGS_PER_GROUP} tags in one OR-group`);
/** AND of OR-groups, within the service's bounds. */
const TagGroups = z
  .array(OrGroup)
  .max(MAX_TAG_GROUPS, `must hold at most ${MAX_TAG_GROUPS} tag groups`)
  .refine((groups) => groups.reduce((n, g) => n + g.length, 0) <= MAX_TAGS_IN_ALL, `must hold at most ${MAX_TAGS_IN_ALL} tag values in all`);

/** A tags filter: one OR-group (`["a", "b"]` or `{or: [...]}`), or an AND of OR-groups. */
const TagsFilter = z.union([
  OrGroup,
  z.object({ or: OrGroup }),
  z.object({
    and: z
      .array(z.object({ or: OrGroup.min(1, 'each tag group must hold at least one tag') }))
      .max(MAX_TAG_GROUPS, `must hold at most ${MAX_TAG_GROUPS} tag groups`)
      .refine((groups) => groups.reduce((n, g) => n + g.or.length, 0) <= MAX_TAGS_IN_ALL, `must hold at most ${MAX_TAGS_IN_ALL} tag values in all`),
  }),
]);

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const valuesOf = (v: unknown) => (Array.isArray(v) ? v : v !== null && typeof v === 'object' ? (v as { or: unknown[] }).or : [v]);
const DataValue = z
  .union([Scalar, z.array(Scalar), z.object({ or: z.array(Scalar) })])
  .refine((v) => valuesOf(v).length <= MAX_DATA_VALUES_PER_KEY, `must hold at most ${MAX_DATA_VALUES_PER_KEY} values`);
const valuesIn = (v: unknown): number =>
  Array.isArray(v) ? v.length : v !== null && typeof v === 'object' ? Object.values(v).reduce((n: number, x) => n + valuesIn(x), 0) : 1;
/** `data`: key → a value, any of a list, or (one level down) an object of such keys. */
export const InboxDataFilter = z
  .record(z.string(), z.union([DataValue, z.record(z.string(), DataValue)]))
  .refine((f) => valuesIn(f) <= MAX_DATA_VALUES_IN_ALL, `must hold at most ${MAX_DATA_VALUES_IN_ALL} values in all`);

/** One filter of `GET /v1/inbox/notifications/count?filters=[...]`. */
const Bool = z.boolean({ error: 'must be a boolean' });
const Severity = z.enum(INBOX_SEVERITIES, { error: `must be one of: ${INBOX_SEVERITIES.join(', ')}` });
const Millis = z.number({ error: 'must be a number (milliseconds since 1970)' });
export const InboxCountFilter = z.strictObject({
  tags: TagsFilter.optional(),
  read: Bool.optional(),
  archived: Bool.optional(),
  snoozed: Bool.optional(),
  seen: Bool.optional(),
  data: InboxDataFilter.optional(),
  severity: z.union([Severity, z.array(Severity)]).optional(),
  createdGte: Millis.optional(),
  createdLte: Millis.optional(),
});
export type InboxCountFilter = z.infer<typeof InboxCountFilter>;
export const InboxCountFilters = z.array(InboxCountFilter).max(30, 'must contain at most 30 filters');

const BoolText = z.enum(['true', 'false'], { error: 'must be one of: true, false' }).transform((v) => v === 'true');
const NumberText = z
  .string()
  .regex(/^\d+$/, 'must be a whole number')
  .transform((v) => Number(v));

/** The list's query, once repeated `tags[]`/`severity[]` keys are gathered (server side). */
export const InboxNotificationsQuery = z.strictObject({
  limit: NumberText.pipe(z.number().min(1, 'must not be less than 1').max(100, 'must not be greater than 100')).optional(),
  after: z.string().regex(OBJECT_ID_RE, 'must be a mongodb id').optional(),
  offset: NumberText.optional(),
  tags: TagGroups.optional(),
  read: BoolText.optional(),
  archived: BoolText.optional(),
  snoozed: BoolText.optional(),
  seen: BoolText.optional(),
  data: z.string().optional(),
  severity: z.array(Severity).optional(),
  createdGte: NumberText.optional(),
  createdLte: NumberText.optional(),
});

export const InboxSnoozeBody = z.looseObject({ snoozeUntil: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be a valid ISO 8601 date string') });
export const InboxActionBody = z.looseObject({ actionType: z.enum(['primary', 'secondary']) });
/** Bulk marks: `data` is a JSON text of an InboxDataFilter, as the client sends it. */
export const InboxBulkBody = z.looseObject({ tags: TagsFilter.optional(), data: z.string().optional() }).optional();
export const InboxSeenBody = z.looseObject({
  notificationIds: z.array(z.string().regex(OBJECT_ID_RE, 'each value in notificationIds must be a mongodb id')).max(100).optional(),
  tags: TagsFilter.optional(),
  data: z.string().optional(),
});

const Redirect = z.looseObject({ url: z.string(), target: z.string().optional() });
const Action = z.looseObject({ label: z.string(), isCompleted: z.boolean(), redirect: Redirect.optional() });
const InboxWorkflow = z.looseObject({
  id: z.string(),
  identifier: z.string(),
  name: z.string(),
  critical: z.boolean(),
  tags: z.array(z.string()).optional(),
  severity: z.enum(INBOX_SEVERITIES),
});

export const InboxNotification = z.looseObject({
  id: z.string(),
  transactionId: z.string(),
  subject: z.string().optional(),
  body: z.string(),
  to: z.looseObject({ id: z.string().optional(), subscriberId: z.string() }),
  isRead: z.boolean(),
  isSeen: z.boolean(),
  isArchived: z.boolean(),
  isSnoozed: z.boolean(),
  snoozedUntil: z.string().nullish(),
  deliveredAt: z.array(z.string()).optional(),
  createdAt: z.string(),
  readAt: z.string().nullish(),
  firstSeenAt: z.string().nullish(),
  archivedAt: z.string().nullish(),
  avatar: z.string().optional(),
  primaryAction: Action.optional(),
  secondaryAction: Action.optional(),
  channelType: z.literal('in_app'),
  tags: z.array(z.string()).optional(),
  data: JsonObject.optional(),
  redirect: Redirect.optional(),
  workflow: InboxWorkflow.optional(),
  severity: z.enum(INBOX_SEVERITIES),
});
export type InboxNotification = z.infer<typeof InboxNotification>;

export const InboxNotificationsPage = z.object({
  data: z.array(InboxNotification),
  hasMore: z.boolean(),
  filter: JsonObject,
});
export const InboxCounts = z.object({ data: z.array(z.object({ count: z.number(), filter: JsonObject })) });

// --- preferences ------------------------------------------------------------------------------

const ChannelSwitches = {
  in_app: z.boolean().optional(),
  email: z.boolean().optional(),
  sms: z.boolean().optional(),
  chat: z.boolean().optional(),
  push: z.boolean().optional(),
};
const ChannelPreferences = z.object(ChannelSwitches);

const TimeRange = z.object({ start: z.string(), end: z.string() });
const DaySchedule = z.object({ isEnabled: z.boolean(), hours: z.array(TimeRange).optional() });
const PreferenceSchedule = z.object({
  isEnabled: z.boolean(),
  weeklySchedule: z.record(z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']), DaySchedule).optional(),
});

/** `PATCH /v1/inbox/preferences` and `…/preferences/:workflow`: the channels to switch (and the global schedule). */
export const InboxPreferenceBody = z.strictObject({ ...ChannelSwitches, schedule: PreferenceSchedule.optional() });
/** A topic subscription's preference for a workflow: on or off, or a JSON Logic condition (or `true`). */
const Condition = z.union([z.boolean(), z.record(z.string(), z.unknown())], { error: 'must be a JSON Logic object or a boolean' });
export const InboxBulkPreferenceBody = z.strictObject({
  preferences: z
    .array(
      z.strictObject({
        workflowId: z.string().min(1),
        /** A topic subscription of the subscriber's: the item sets that subscription's preference. */
        subscriptionIdentifier: z.string().min(1).optional(),
        enabled: z.boolean().optional(),
        condition: Condition.optional(),
        ...ChannelSwitches,
      }),
    )
    .min(1, 'must contain at least 1 element')
    .max(100, 'must contain at most 100 elements'),
});

// --- topic subscriptions (the Inbox's own) ----------------------------------------------------------

/** The service's longest subscription identifier. */
const MAX_SUBSCRIPTION_IDENTIFIER = 512;
/** How many subscriptions of one topic a subscriber may hold. */
export const MAX_SUBSCRIPTIONS_PER_TOPIC = 10;

/** A subscription's preferences as given: a workflow id or identifier, one with a switch, or a group. */
const SubscriptionPreferenceInput = z.union([
  z.string().min(1),
  z.strictObject({ workflowId: z.string().min(1), enabled: z.boolean().optional(), condition: Condition.optional() }),
  z.strictObject({
    filter: z.strictObject({ workflowIds: z.array(z.string()).max(100).optional(), tags: z.array(z.string()).max(100).optional() }),
    enabled: z.boolean().optional(),
    condition: Condition.optional(),
  }),
]);
const SubscriptionPreferencesInput = z.array(SubscriptionPreferenceInput).max(100, 'must contain at most 100 elements');

export const CreateInboxSubscriptionBody = z.looseObject({
  identifier: z.string().max(MAX_SUBSCRIPTION_IDENTIFIER, `Subscription identifier must not exceed ${MAX_SUBSCRIPTION_IDENTIFIER} characters`).optional(),
  name: z.string().max(256).optional(),
  topic: z.looseObject({ name: z.string().max(100).optional() }).optional(),
  preferences: SubscriptionPreferencesInput.optional(),
});
export const UpdateInboxSubscriptionBody = z.looseObject({
  name: z.string().max(256).optional(),
  preferences: SubscriptionPreferencesInput.optional(),
});
/** `PATCH /v1/inbox/subscriptions/:identifier/preferences/:workflow`. */
export const InboxSubscriptionPreferenceBody = z.strictObject({ ...ChannelSwitches, enabled: z.boolean().optional(), condition: Condition.optional() });

const SubscriptionWorkflow = InboxWorkflow.extend({ data: JsonObject.optional() });
const InboxSubscriptionPreference = z.looseObject({
  workflow: SubscriptionWorkflow.optional(),
  subscriptionId: z.string(),
  enabled: z.boolean(),
  condition: z.unknown().optional(),
});
export const InboxSubscription = z.looseObject({
  id: z.string(),
  identifier: z.string(),
  name: z.string().nullish(),
  preferences: z.array(InboxSubscriptionPreference).optional(),
});

/** `POST /v1/inbox/events`: the keyless demo's trigger (refused outside a keyless environment). */
export const InboxEventBody = z.looseObject({ name: z.string(), to: z.unknown(), payload: JsonObject.optional() });

export const InboxPreference = z.looseObject({
  level: z.enum(['global', 'template']),
  enabled: z.boolean(),
  channels: ChannelPreferences,
  workflow: InboxWorkflow.optional(),
  schedule: PreferenceSchedule.optional(),
});
export type InboxPreference = z.infer<typeof InboxPreference>;

// --- operator API: the environment, subscriber preferences, topics, integration update ---------

export const CurrentEnvironment = z.looseObject({
  _id: z.string(),
  name: z.string(),
  _organizationId: z.string(),
  identifier: z.string(),
  _parentId: z.string().nullable().optional(),
});

const OperatorChannels = z.strictObject(ChannelSwitches);

const PreferenceWorkflowRef = z.looseObject({ slug: z.string(), identifier: z.string(), name: z.string(), updatedAt: z.string().optional() });
export const WorkflowPreferenceView = z.looseObject({
  enabled: z.boolean(),
  channels: ChannelPreferences,
  overrides: z.array(z.looseObject({ channel: z.string(), source: z.string() })).optional(),
  workflow: PreferenceWorkflowRef,
});
export const SubscriberPreferencesView = z.looseObject({
  global: z.looseObject({ enabled: z.boolean(), channels: ChannelPreferences, schedule: PreferenceSchedule.optional() }),
  workflows: z.array(WorkflowPreferenceView),
});
export const PatchSubscriberPreferencesBody = z.strictObject({
  channels: OperatorChannels.optional(),
  workflowId: z.string().min(1).optional(),
  schedule: PreferenceSchedule.optional(),
});
export const BulkSubscriberPreferencesBody = z.strictObject({
  preferences: z
    .array(z.strictObject({ workflowId: z.string().min(1), channels: OperatorChannels }))
    .min(1, 'must contain at least 1 element')
    .max(100, 'must contain at most 100 elements'),
});

export const TopicKey = z.string().min(1).max(100).regex(TOPIC_KEY_RE, 'must contain only letters, digits, "_", "-" and ":"');
export const Topic = z.looseObject({
  _id: z.string(),
  key: z.string(),
  name: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export const CreateTopicBody = z.strictObject({ key: TopicKey, name: z.string().max(100).optional() });
export const CreateTopicQuery = z.looseObject({ failIfExists: z.enum(['true', 'false']).optional() });
export const UpdateTopicBody = z.strictObject({ name: z.string().min(1).max(100) });
export const ListTopicsQuery = z.looseObject({
  key: z.string().optional(),
  name: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z.string().optional(),
  before: z.string().optional(),
});
export const TopicSubscription = z.looseObject({
  _id: z.string(),
  topic: z.looseObject({ _id: z.string(), key: z.string(), name: z.string().nullable().optional() }),
  subscriber: z.looseObject({ _id: z.string(), subscriberId: z.string() }).passthrough(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const ListTopicSubscriptionsQuery = z.looseObject({
  subscriberId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  after: z.string().optional(),
  before: z.string().optional(),
});
export const TopicSubscriptionsBody = z.strictObject({
  subscriberIds: z.array(z.string().min(1)).min(1, 'must contain at least 1 element').max(100, 'must contain at most 100 elements'),
});
export const TopicSubscriptionsResult = z.looseObject({
  data: z.array(TopicSubscription),
  meta: z.looseObject({ totalCount: z.number(), successful: z.number(), failed: z.number() }),
  errors: z.array(z.looseObject({ subscriberId: z.string(), code: z.string(), message: z.string() })),
});
export const DeleteTopicResult = z.looseObject({ acknowledged: z.boolean() });

export const UpdateIntegrationBody = z.strictObject({
  name: z.string().min(1).optional(),
  identifier: z.string().min(1).optional(),
  active: z.boolean().optional(),
  credentials: z.record(z.string(), z.unknown()).optional(),
  check: z.boolean().optional(),
  conditions: z.array(z.unknown()).optional(),
  configurations: z.record(z.string(), z.unknown()).optional(),
});

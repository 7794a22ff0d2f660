// Triggers and subscribers beyond the first set: the broadcast trigger, bulk subscriber creation, a
// subscriber's provider credentials (device tokens, chat webhook URLs), and topic subscriptions read
// from either side (the subscriber's, one by identifier, the v1 membership check).
import { z } from 'zod';
import { ContextKey, JsonObject, queryArray, QueryBool } from './common.js';
import { ChatPushProviderId, OrderDirection } from './enums.js';
import { CreateSubscriberBody, SubscriberRecipient, TriggerBody } from './requests.js';
import { ChannelCredentials } from './resources.js';

/** A JSON Logic condition or a boolean, as the Inbox's subscription preferences take it. */
const Condition = z.union([z.boolean(), z.record(z.string(), z.unknown())], { error: 'must be a JSON Logic object or a boolean' });

/** The service's limit of one bulk create (its DTO's `@ArrayMaxSize(500)`). */
const MAX_BULK_SUBSCRIBERS = 500;

/** POST /v1/events/trigger/broadcast: a trigger without `to` (every subscriber of the environment). */
export const BroadcastBody = TriggerBody.omit({ to: true }).extend({ payload: JsonObject });
export type BroadcastBody = z.infer<typeof BroadcastBody>;

/** PUT and PATCH /v1/subscribers/{subscriberId}/credentials. */
export const SubscriberCredentialsBody = z.looseObject({
  providerId: ChatPushProviderId,
  integrationIdentifier: z.string().min(1, 'must not be empty').optional(),
  credentials: ChannelCredentials,
});
export type SubscriberCredentialsBody = z.infer<typeof SubscriberCredentialsBody>;

/** POST /v1/subscribers/bulk: each item a subscriber as the create body has it, with its channels. */
export const BulkCreateSubscribersBody = z.looseObject({
  subscribers: z
    .array(CreateSubscriberBody.extend({ channels: SubscriberRecipient.shape.channels }))
    .min(1, 'subscribers should not be empty')
    .max(MAX_BULK_SUBSCRIBERS, `subscribers must contain no more than ${MAX_BULK_SUBSCRIBERS} elements`),
});
export type BulkCreateSubscribersBody = z.infer<typeof BulkCreateSubscribersBody>;

export const BulkCreateSubscribersResult = z.looseObject({
  updated: z.array(z.looseObject({ subscriberId: z.string() })),
  created: z.array(z.looseObject({ subscriberId: z.string() })),
  failed: z.array(z.looseObject({ message: z.string().optional(), subscriberId: z.string().optional() })),
});

/** GET /v1/topics/{topicKey}/subscribers/{externalSubscriberId}: the subscriber's membership. */
export const TopicMembership = z.looseObject({
  _organizationId: z.string(),
  _environmentId: z.string(),
  _subscriberId: z.string(),
  _topicId: z.string(),
  topicKey: z.string(),
  externalSubscriberId: z.string(),
});

/** GET /v2/subscribers/{subscriberId}/subscriptions. */
export const ListSubscriberSubscriptionsQuery = z.looseObject({
  after: z.string().optional(),
  before: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  orderDirection: OrderDirection.optional(),
  orderBy: z.string().optional(),
  includeCursor: QueryBool.optional(),
  key: z.string().optional(),
  contextKeys: queryArray(ContextKey).optional(),
});

const SubscriptionTopic = z.looseObject({ _id: z.string(), key: z.string(), name: z.string().nullable().optional() });
const SubscriptionSubscriber = z.looseObject({ _id: z.string(), subscriberId: z.string() });

/** One subscription of a subscriber's list (TopicSubscriptionResponseDto). */
export const SubscriberSubscription = z.looseObject({
  _id: z.string(),
  identifier: z.string(),
  createdAt: z.string(),
  topic: SubscriptionTopic,
  subscriber: SubscriptionSubscriber,
  contextKeys: z.array(z.string()).optional(),
});

const SubscriptionPreference = z.looseObject({ subscriptionId: z.string(), enabled: z.boolean(), condition: z.unknown().optional() });
/** GET /v2/topics/{topicKey}/subscriptions/{identifier}: the subscription and its preferences. */
export const SubscriptionDetails = z.looseObject({
  id: z.string(),
  identifier: z.string().optional(),
  name: z.string().optional(),
  preferences: z.array(SubscriptionPreference).optional(),
  contextKeys: z.array(z.string()).optional(),
});

/** PATCH /v2/topics/{topicKey}/subscriptions/{identifier}: the subscription with its topic and subscriber. */
export const SubscriptionView = z.looseObject({
  _id: z.string(),
  identifier: z.string().optional(),
  name: z.string().optional(),
  topic: SubscriptionTopic,
  subscriber: SubscriptionSubscriber.nullable(),
  preferences: z.array(SubscriptionPreference).optional(),
  contextKeys: z.array(z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const PreferenceGroup = z.looseObject({
  filter: z.looseObject({ workflowIds: z.array(z.string()).optional(), tags: z.array(z.string()).optional() }),
  enabled: z.boolean().optional(),
  condition: Condition.optional(),
});
const WorkflowPreferenceInput = z.looseObject({ workflowId: z.string().min(1), enabled: z.boolean().optional(), condition: Condition.optional() });
/** PATCH /v2/topics/{topicKey}/subscriptions/{identifier}: a new name, and preferences that replace the kept ones. */
export const UpdateTopicSubscriptionBody = z.looseObject({
  name: z.string().max(256).optional(),
  preferences: z.array(z.union([z.string().min(1), WorkflowPreferenceInput, PreferenceGroup])).optional(),
});
export type UpdateTopicSubscriptionBody = z.infer<typeof UpdateTopicSubscriptionBody>;

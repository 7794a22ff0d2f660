// A subscriber's in-app notifications through the operator API (API key): the `/v2/subscribers/{id}/
// notifications` family, which reads and changes the same messages as the Inbox with the Inbox's
// filters, and the v1 feed, unseen count, mark-all and message actions.
import { z } from 'zod';
import { INBOX_SEVERITIES } from '../inbox-values.js';
import { ContextKey, JsonObject, ObjectId, QueryBool, queryArray, queryInt } from './common.js';
import { MarkAs } from './enums.js';
import { InboxBulkBody, InboxCountFilter, InboxSeenBody, InboxSnoozeBody } from './inbox.js';
import { Message } from './resources.js';

const Severity = z.enum(INBOX_SEVERITIES, { error: `must be one of: ${INBOX_SEVERITIES.join(', ')}` });

/**
 * `tags` in a query string: repeated plain values are one OR-group; one value that is JSON (`["a"]`,
 * `{"and": [{"or": [...]}]}`) is read as the Inbox's tags filter.
 */
const QueryTags = z.preprocess((v) => {
  if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }
  return v === undefined || Array.isArray(v) ? v : [v];
}, InboxCountFilter.shape.tags);

/** `GET /v2/subscribers/{subscriberId}/notifications`: the Inbox's list filters and its cursor (`after`, a notification id). */
export const SubscriberNotificationsQuery = z.looseObject({
  limit: queryInt({ min: 1, max: 100 }).optional(),
  after: ObjectId.optional(),
  offset: queryInt({ min: 0 }).optional(),
  tags: QueryTags,
  read: QueryBool.optional(),
  archived: QueryBool.optional(),
  snoozed: QueryBool.optional(),
  seen: QueryBool.optional(),
  /** A JSON object of key → value(s), as the Inbox sends it. */
  data: z.string().optional(),
  severity: queryArray(Severity).optional(),
  createdGte: queryInt({ min: 0 }).optional(),
  createdLte: queryInt({ min: 0 }).optional(),
  contextKeys: queryArray(ContextKey).optional(),
});

/** `filters`: a JSON array of at most 30 of the Inbox's count filters (parsed by the handler, 400 when malformed). */
export const SubscriberNotificationsCountQuery = z.looseObject({ filters: z.string().optional() });

export const ContextKeysQuery = z.looseObject({ contextKeys: queryArray(ContextKey).optional() });

export const NotificationActionParams = z.looseObject({
  actionType: z.enum(['primary', 'secondary'], { error: 'must be one of the following values: primary, secondary' }),
});

export const SnoozeNotificationBody = InboxSnoozeBody;
/** Bulk read, archive, read-archive and delete: the Inbox's `{tags, data}` and the context keys. */
export const UpdateAllNotificationsBody = InboxBulkBody.unwrap()
  .extend({ contextKeys: z.array(ContextKey).optional() })
  .optional();
export const MarkNotificationsSeenBody = InboxSeenBody.extend({ contextKeys: z.array(ContextKey).optional() }).optional();

export const NotificationCount = z.looseObject({ count: z.number(), filter: JsonObject });

// --- v1 ------------------------------------------------------------------------------------------------

export const NotificationsFeedQuery = z.looseObject({
  page: queryInt({ min: 0 }).optional(),
  limit: queryInt({ min: 1, max: 100 }).optional(),
  read: QueryBool.optional(),
  seen: QueryBool.optional(),
  /** Base64 of a partial payload JSON object: the feed keeps the messages whose event payload holds it. */
  payload: z.string().optional(),
});

export const FeedItem = Message.extend({ archived: z.boolean() });

export const UnseenCountQuery = z.looseObject({
  seen: QueryBool.optional(),
  limit: queryInt({ min: 1 }).optional(),
});

export const MarkAllMessagesBody = z.looseObject({
  feedIdentifier: z.union([z.string(), z.array(z.string())]).optional(),
  markAs: MarkAs,
});

export const MessageActionParams = z.looseObject({
  type: z.enum(['primary', 'secondary'], { error: 'must be one of the following values: primary, secondary' }),
});
export const MessageActionBody = z.looseObject({
  status: z.enum(['pending', 'done'], { error: 'must be one of the following values: pending, done' }),
  payload: JsonObject.optional(),
});

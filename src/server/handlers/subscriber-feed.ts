// The v1 side of a subscriber's in-app notifications: the paged feed, the unseen count, mark-all and a
// message's action. The same messages as the Inbox; read and seen changes go through the store's
// mark-as, as the operator's mark-as does (the step's state, the timeline, the Inbox's sockets).
import type { z } from 'zod';
import type { FeedItem } from '../../api/schemas/subscriber-notifications.js';
import { badRequest, notFound } from '../errors.js';
import { recordReadState } from '../read-state.js';
import type { InboxFilter, InboxMessage } from '../store/inbox.js';
import type { Environment, Store } from '../store/index.js';
import { messageViews } from '../views.js';
import { subscriberOf } from './subscriber-notifications.js';
import type { Route } from './types.js';

// The v1 use cases word an unknown subscriber their own way: the feed and its count with a 400, mark-all with a 404.
const unknownToFeed = (id: string) =>
  badRequest(`Subscriber not found for this environment with the id: ${id}. Make sure to create a subscriber before fetching the feed.`);
const unknownToCount = (env: Environment) => (id: string) =>
  badRequest(`Subscriber ${id} is not exist in environment ${env.id}, please provide a valid subscriber identifier`);
const unknownToMarkAll = (env: Environment) => (id: string) =>
  notFound(`Subscriber ${id} does not exist in environment ${env.id}, please provide a valid subscriber identifier`);

/** `payload`: base64 of a partial payload object; the feed keeps messages whose event payload holds each of its values. */
function payloadFilter(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
  } catch {
    throw badRequest('Invalid payload, the JSON object should be encoded to base64 string.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw badRequest('Invalid payload, the JSON object should be encoded to base64 string.');
  return parsed as Record<string, unknown>;
}

function feedItems(store: Store, rows: InboxMessage[]): z.input<typeof FeedItem>[] {
  const views = messageViews(store, rows);
  return rows.map((m, i) => {
    const { subscriber, ...doc } = views[i]!;
    return {
      ...doc,
      archived: m.archived,
      ...(m.tags.length > 0 && { tags: m.tags }),
      ...(subscriber && {
        subscriber: {
          _id: subscriber._id,
          subscriberId: subscriber.subscriberId,
          ...(subscriber.firstName && { firstName: subscriber.firstName }),
          ...(subscriber.lastName && { lastName: subscriber.lastName }),
          ...(subscriber.avatar && { avatar: subscriber.avatar }),
        },
      }),
    } as z.input<typeof FeedItem>;
  });
}

export const getNotificationsFeed: Route<'getNotificationsFeed'> = {
  envelope: 'raw',
  handle({ svc, env, params, query: q }) {
    const { store } = svc;
    const s = subscriberOf(svc, env, params.subscriberId!, unknownToFeed);
    const page = q.page ?? 0;
    const limit = q.limit ?? 10;
    const filter: InboxFilter = { read: q.read, seen: q.seen, payload: payloadFilter(q.payload) };
    const rows = store.inbox.list(s._id, filter, { limit, offset: page * limit });
    // The service counts at most one page and one more from the page's start, and answers that count
    // capped at the page size: `totalCount` is this page's length, `hasMore` whether another follows.
    return { data: feedItems(store, rows.rows), totalCount: rows.rows.length, hasMore: rows.hasMore, pageSize: limit, page };
  },
};

/** Unseen (or, with `seen=true`, seen) in-app messages neither archived nor snoozed, counted up to `limit` (100). */
export const getUnseenCount: Route<'getUnseenCount'> = {
  envelope: 'data',
  handle({ svc, env, params, query: q }) {
    const s = subscriberOf(svc, env, params.subscriberId!, unknownToCount(env));
    const count = svc.store.inbox.count(s._id, { seen: q.seen ?? false, archived: false, snoozed: false });
    return { count: Math.min(count, q.limit ?? 100) };
  },
};

/** What each mark-all changes: the messages whose flag differs from what it sets. */
const MARK_ALL: Record<'read' | 'seen' | 'unread' | 'unseen', InboxFilter> = {
  read: { read: false },
  seen: { seen: false },
  unread: { read: true },
  unseen: { seen: true },
};

/**
 * Every in-app message of the subscriber marked at once; how many changed. svc dev keeps no feeds: a
 * `feedIdentifier` names none of its messages, so nothing changes.
 */
export const markAllMessages: Route<'markAllMessages'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const s = subscriberOf(svc, env, params.subscriberId!, unknownToMarkAll(env));
      const feeds = body.feedIdentifier === undefined ? [] : [body.feedIdentifier].flat();
      if (feeds.length > 0) return 0;
      const ids = store.inbox.matching(s._id, MARK_ALL[body.markAs]);
      const changed = store.messages.markAs(s._id, ids, body.markAs);
      recordReadState(store, changed, body.markAs);
      return changed.length;
    });
  },
};

/** A message's action (primary or secondary) done or pending again, with what the caller sent as its result. */
export const markMessageAction: Route<'markMessageAction'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    const id = params.messageId!;
    return store.tx(() => {
      const s = subscriberOf(svc, env, params.subscriberId!);
      const m = store.inbox.setActionResult(s._id, id, body.status, params.type as 'primary' | 'secondary', body.payload);
      if (!m) throw notFound(`Message with id ${id} not found`);
      store.messages.announce({ kind: 'changed', subscriberDbId: s._id, messageId: m.id, channel: 'in_app' });
      return messageViews(store, [m])[0]!;
    });
  },
};

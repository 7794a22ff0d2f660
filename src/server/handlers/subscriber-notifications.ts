// A subscriber's in-app notifications through the operator API (`/v2/subscribers/{id}/notifications`):
// the same messages, filters and rules as the Inbox (the service runs its Inbox use cases behind these
// routes), found by the subscriber's own id with an API key. Every change tells the subscriber's
// connected Inboxes (notification-state.ts).
import type { Subscriber } from '../../api/schemas/resources.js';
import { InboxCountFilter } from '../../api/schemas/inbox.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { bulkFilter, fromCountFilter, parseCountFilters } from '../inbox/filters.js';
import { toInboxNotification, workflowInfo } from '../inbox/notification.js';
import { type BulkMark, bulkMark, changeNotification, markSeen, removeNotification, snoozeChange, wakeSnoozed } from '../notification-state.js';
import type { InboxChange, InboxMessage } from '../store/inbox.js';
import type { Environment } from '../store/index.js';
import { contextKeySet } from '../store/repo.js';
import type { Call, Route, Service } from './types.js';

type Found = Subscriber & { _id: string };

/**
 * The subscriber of the environment with that id (the service's GetSubscriber words its 404 so), its
 * ended snoozes woken first: what is read next is what the service would show at this time.
 */
export function subscriberOf(
  svc: Service,
  env: Environment,
  subscriberId: string,
  missing: (id: string) => HttpError = (id) => notFound(`Subscriber not found for id ${id}`),
): Found {
  const s = svc.store.subscribers.find(env.id, subscriberId);
  if (!s?._id) throw missing(subscriberId);
  wakeSnoozed(svc.store, s._id, svc.clock.now());
  return s as Found;
}

const notificationNotFound = (id: string) => notFound(`Notification with id: ${id} is not found.`);
const notSnoozed = (id: string) =>
  notFound(`Could not find a snoozed notification with id '${id}'. The notification may not exist or may not be in a snoozed state.`);

/**
 * One of the subscriber's notifications, within the context keys given (a notification of another
 * context is not found, as an Inbox of that context does not see it).
 */
function ownNotification(svc: Service, s: Found, id: string, contextKeys: string[] | undefined): InboxMessage {
  const m = svc.store.inbox.get(s._id, id);
  const outside = contextKeys !== undefined && m !== undefined && contextKeySet(m.doc.contextKeys) !== contextKeySet(contextKeys);
  if (!m || outside) throw notificationNotFound(id);
  return m;
}

function notificationView(svc: Service, s: Found, id: string) {
  const m = svc.store.inbox.get(s._id, id);
  if (!m) throw notificationNotFound(id);
  return toInboxNotification(m, s, workflowInfo(svc.store, m), svc.clock.now());
}

/** `data`: a JSON object of the Inbox's data filter; 400 when it is not one, as the service answers. */
function parseData(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON format for data parameter');
  }
}

export const listSubscriberNotifications: Route<'listSubscriberNotifications'> = {
  envelope: 'raw',
  handle({ svc, env, params, query: q }) {
    const { store, clock } = svc;
    const s = subscriberOf(svc, env, params.subscriberId!);
    if (q.read === false && q.archived === true) throw badRequest('Filtering for unread and archived notifications is not supported.');
    const given = {
      tags: q.tags,
      read: q.read,
      archived: q.archived,
      snoozed: q.snoozed,
      seen: q.seen,
      data: parseData(q.data),
      severity: q.severity,
      createdGte: q.createdGte,
      createdLte: q.createdLte,
    };
    const checked = InboxCountFilter.safeParse(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)));
    if (!checked.success) {
      const i = checked.error.issues[0]!;
      throw badRequest(`Invalid ${i.path.map(String).join('.')}: ${i.message}`);
    }
    const page = store.inbox.list(
      s._id,
      { ...fromCountFilter(checked.data), contextKeys: q.contextKeys },
      {
        limit: q.limit ?? 10,
        ...(q.offset !== undefined && { offset: q.offset }),
        ...(q.after !== undefined && { after: q.after.toLowerCase() }),
      },
    );
    const now = clock.now();
    const workflows = new Map<string, ReturnType<typeof workflowInfo>>();
    const data = page.rows.map((m) => {
      if (!workflows.has(m.workflowDbId)) workflows.set(m.workflowDbId, workflowInfo(store, m));
      return toInboxNotification(m, s, workflows.get(m.workflowDbId), now);
    });
    const { createdGte: _gte, createdLte: _lte, ...filter } = checked.data;
    return { data, hasMore: page.hasMore, filter };
  },
};

export const countSubscriberNotifications: Route<'countSubscriberNotifications'> = {
  envelope: 'data',
  handle({ svc, env, params, query }) {
    const s = subscriberOf(svc, env, params.subscriberId!);
    const { given, filters } = parseCountFilters(query.filters);
    return filters.map((f, i) => ({ count: svc.store.inbox.count(s._id, f), filter: given[i]! }));
  },
};

export const deleteSubscriberNotification: Route<'deleteSubscriberNotification'> = {
  envelope: 'none',
  handle({ svc, env, params, query }) {
    const { store } = svc;
    store.tx(() => {
      const s = subscriberOf(svc, env, params.subscriberId!);
      const m = ownNotification(svc, s, params.notificationId!, query.contextKeys);
      removeNotification(store, s._id, m.id);
    });
  },
};

type OneNotification = keyof typeof changes | 'snoozeSubscriberNotification' | 'completeSubscriberNotificationAction' | 'revertSubscriberNotificationAction';

/** One change to one notification; the notification as it now is. */
function changeOne(call: Call<OneNotification>, change: InboxChange | ((now: number) => InboxChange)) {
  const { svc, env, params, query } = call;
  const { store, clock } = svc;
  const id = params.notificationId!;
  return store.tx(() => {
    const s = subscriberOf(svc, env, params.subscriberId!);
    const m = ownNotification(svc, s, id, query.contextKeys);
    if (typeof change !== 'function' && change.kind === 'unsnooze' && m.snoozedUntil === null) throw notSnoozed(id);
    changeNotification(store, s._id, id, typeof change === 'function' ? change(clock.now()) : change);
    return notificationView(svc, s, id);
  });
}

const changes = {
  markSubscriberNotificationRead: { kind: 'read' },
  markSubscriberNotificationUnread: { kind: 'unread' },
  archiveSubscriberNotification: { kind: 'archive' },
  unarchiveSubscriberNotification: { kind: 'unarchive' },
  unsnoozeSubscriberNotification: { kind: 'unsnooze' },
} as const satisfies Record<string, InboxChange>;

export const markSubscriberNotificationRead: Route<'markSubscriberNotificationRead'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, changes.markSubscriberNotificationRead),
};
export const markSubscriberNotificationUnread: Route<'markSubscriberNotificationUnread'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, changes.markSubscriberNotificationUnread),
};
export const archiveSubscriberNotification: Route<'archiveSubscriberNotification'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, changes.archiveSubscriberNotification),
};
export const unarchiveSubscriberNotification: Route<'unarchiveSubscriberNotification'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, changes.unarchiveSubscriberNotification),
};
export const unsnoozeSubscriberNotification: Route<'unsnoozeSubscriberNotification'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, changes.unsnoozeSubscriberNotification),
};
/** Until `snoozeUntil`, in service time: hidden from the unsnoozed list and counts, announced again when it ends. */
export const snoozeSubscriberNotification: Route<'snoozeSubscriberNotification'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, (now) => snoozeChange(call.body.snoozeUntil, now)),
};

const actionType = (call: Call<'completeSubscriberNotificationAction' | 'revertSubscriberNotificationAction'>) => {
  const t = call.params.actionType;
  if (t !== 'primary' && t !== 'secondary') throw new HttpError(400, 'actionType must be one of the following values: primary, secondary');
  return t;
};
export const completeSubscriberNotificationAction: Route<'completeSubscriberNotificationAction'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, { kind: 'action', status: 'done', button: actionType(call) }),
};
export const revertSubscriberNotificationAction: Route<'revertSubscriberNotificationAction'> = {
  envelope: 'data',
  handle: (call) => changeOne(call, { kind: 'action', status: 'pending', button: actionType(call) }),
};

export const markSubscriberNotificationsSeen: Route<'markSubscriberNotificationsSeen'> = {
  envelope: 'none',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    store.tx(() => {
      const s = subscriberOf(svc, env, params.subscriberId!);
      markSeen(store, s._id, { ...bulkFilter(body), contextKeys: body?.contextKeys }, body?.notificationIds);
    });
  },
};

type BulkOp =
  | 'markAllSubscriberNotificationsRead'
  | 'archiveAllSubscriberNotifications'
  | 'archiveReadSubscriberNotifications'
  | 'deleteAllSubscriberNotifications';

function bulkRoute<K extends BulkOp>(mark: BulkMark): Route<K> {
  return {
    envelope: 'none',
    handle({ svc, env, params, body }: Call<BulkOp>) {
      const { store } = svc;
      store.tx(() => {
        const s = subscriberOf(svc, env, params.subscriberId!);
        bulkMark(store, s._id, mark, { ...bulkFilter(body), contextKeys: body?.contextKeys });
      });
    },
  };
}

export const markAllSubscriberNotificationsRead = bulkRoute<'markAllSubscriberNotificationsRead'>('read');
export const archiveAllSubscriberNotifications = bulkRoute<'archiveAllSubscriberNotifications'>('archive');
export const archiveReadSubscriberNotifications = bulkRoute<'archiveReadSubscriberNotifications'>('read-archive');
export const deleteAllSubscriberNotifications = bulkRoute<'deleteAllSubscriberNotifications'>('delete');

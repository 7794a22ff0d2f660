// The Inbox's route handlers (the rows of `inboxRoutes` in src/api/routes.ts): a subscriber's session,
// the notification list and its counts, the marks on one message and in bulk, and the subscriber's own
// preferences. Loaded when the first Inbox request comes; app.ts authenticates, limits and commits.
import { InboxActionBody, InboxBulkBody, InboxPreferenceBody, InboxSeenBody, InboxSessionBody, InboxSnoozeBody } from '../../api/schemas/inbox.js';
import type { InboxRouteName } from '../../api/inbox-routes.js';
import { HttpError, unprocessable } from '../errors.js';
import type { Service } from '../handlers/types.js';
import { BULK_MARKS, type BulkMark, bulkMark, changeNotification, MAX_SNOOZE_HOURS, markSeen, snoozeChange, wakeSnoozed } from '../notification-state.js';
import type { InboxChange } from '../store/inbox.js';
import { bulkFilter, parseCountFilters, parseListQuery } from './filters.js';
import { type InboxRoute, inboxSessionEnv, type SessionRoute, subscriberRoute, validate, type Who } from './http.js';
import { issueToken, subscriberHashMatches } from './jwt.js';
import { toInboxNotification, workflowInfo, type WorkflowInfo } from './notification.js';
import { globalPreference, listPreferences, setPreference, workflowPreference } from './preference-views.js';

function notificationOf(svc: Service, w: Who, id: string) {
  const m = svc.store.inbox.get(w.subscriber._id, id);
  if (!m) throw new HttpError(404, `Notification with id: ${id} is not found.`);
  return toInboxNotification(m, w.subscriber, workflowInfo(svc.store, m), svc.clock.now());
}

/** `POST /v1/inbox/session`: a subscriber's session token, for the environment's application identifier. */
const inboxSession: SessionRoute = {
  auth: 'session',
  handle: (req, { svc }) => {
    const { store, clock } = svc;
    const body = validate(InboxSessionBody, req.body ?? {});
    const env = inboxSessionEnv(body, svc);
    if (!body.applicationIdentifier || !env) throw new HttpError(400, 'Please provide a valid application identifier');
    const profile = typeof body.subscriber === 'object' ? body.subscriber : undefined;
    const subscriberId = profile?.subscriberId ?? (typeof body.subscriber === 'string' ? body.subscriber : body.subscriberId);
    if (!subscriberId) throw unprocessable('Validation Error', { subscriberId: { messages: ['subscriberId is required'] } });
    const inApp = store.integrations.forChannel(env.id, 'in_app');
    if (!inApp) throw new HttpError(404, 'The active in-app integration could not be found');
    const hashOk = body.subscriberHash !== undefined && subscriberHashMatches(env.apiKey, subscriberId, body.subscriberHash);
    if ((inApp.credentials as { hmac?: unknown } | undefined)?.hmac === true && !hashOk) throw new HttpError(400, 'Please provide a valid HMAC hash');
    const existing = store.subscribers.find(env.id, subscriberId);
    const { subscriberId: _, ...fields } = profile ?? {};
    // Profile fields from the browser change a subscriber that exists only with a valid hash.
    const subscriber =
      existing && !(profile && hashOk)
        ? existing
        : store.subscribers.upsert(env, subscriberId, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    wakeSnoozed(store, subscriber._id!, clock.now());
    const unreadCount = store.inbox.unreadCounts(subscriber._id!);
    const token = issueToken(
      {
        _id: subscriber._id!,
        subscriberId,
        environmentId: env.id,
        organizationId: env.orgId,
        firstName: subscriber.firstName,
        lastName: subscriber.lastName,
        email: subscriber.email,
      },
      store.inbox.settings(env.id).secret,
      clock.now(),
    );
    const data = {
      token,
      totalUnreadCount: unreadCount.total,
      unreadCount,
      removeNovuBranding: true,
      maxSnoozeDurationHours: MAX_SNOOZE_HOURS,
      isDevelopmentMode: env.name !== 'Production',
      applicationIdentifier: body.applicationIdentifier,
    };
    return { status: 201, body: { data } };
  },
};

/** The list and its counts. */
const listInboxNotifications = subscriberRoute((req, w, { svc: { store, clock } }) => {
  const q = parseListQuery(req.query ?? {});
  // Snoozes that ended with no timer to bring them back (svc dev was stopped meanwhile).
  wakeSnoozed(store, w.subscriber._id, clock.now());
  const page = store.inbox.list(w.subscriber._id, q.filter, { limit: q.limit, offset: q.offset, ...(q.after !== undefined && { after: q.after }) });
  const workflows = new Map<string, WorkflowInfo | undefined>();
  const now = clock.now();
  const data = page.rows.map((m) => {
    if (!workflows.has(m.workflowDbId)) workflows.set(m.workflowDbId, workflowInfo(store, m));
    return toInboxNotification(m, w.subscriber, workflows.get(m.workflowDbId), now);
  });
  return { status: 200, body: { data, hasMore: page.hasMore, filter: q.echo } };
});

const countInboxNotifications = subscriberRoute((req, w, { svc: { store, clock } }) => {
  const { given, filters } = parseCountFilters(req.query.filters);
  wakeSnoozed(store, w.subscriber._id, clock.now());
  return { status: 200, body: { data: filters.map((f, i) => ({ count: store.inbox.count(w.subscriber._id, f), filter: given[i] })) } };
});

/** What each `PATCH /v1/inbox/notifications/:id/:action` changes (`now`: service time). */
const changes: Record<string, (body: unknown, now: number) => InboxChange> = {
  read: () => ({ kind: 'read' }),
  unread: () => ({ kind: 'unread' }),
  archive: () => ({ kind: 'archive' }),
  unarchive: () => ({ kind: 'unarchive' }),
  unsnooze: () => ({ kind: 'unsnooze' }),
  snooze: (body, now) => snoozeChange(validate(InboxSnoozeBody, body ?? {}).snoozeUntil, now),
  complete: (body) => ({ kind: 'action', status: 'done', button: validate(InboxActionBody, body ?? {}).actionType }),
  revert: (body) => ({ kind: 'action', status: 'pending', button: validate(InboxActionBody, body ?? {}).actionType }),
};

/** The state changes: one message's, and the bulk marks. */
const changeInboxNotification = subscriberRoute<{ id: string; action: string }>((req, w, { svc, realtime }) => {
  const { store, clock } = svc;
  const make = Object.hasOwn(changes, req.params.action) ? changes[req.params.action] : undefined;
  if (!make) throw new HttpError(404, `Cannot PATCH ${req.url.split('?')[0]}`);
  const change = make(req.body, clock.now());
  const { id } = req.params;
  const done = changeNotification(store, w.subscriber._id, id, change);
  if (!done) throw new HttpError(404, `Notification with id: ${id} is not found.`);
  return {
    status: 200,
    body: { data: notificationOf(svc, w, id) },
    after: () => {
      if (change.kind === 'snooze') realtime.snoozed(w.subscriber._id, done.id, change.until);
      if (change.kind === 'unsnooze') realtime.unsnoozed(done.id);
      realtime.queue(w.subscriber._id);
    },
  };
});

const deleteInboxNotification = subscriberRoute<{ id: string }>((req, w, { svc: { store }, realtime }) => {
  if (!store.inbox.remove(w.subscriber._id, req.params.id)) throw new HttpError(404, `Notification with id: ${req.params.id} is not found.`);
  return {
    status: 204,
    after: () => {
      realtime.unsnoozed(req.params.id.toLowerCase());
      realtime.queue(w.subscriber._id);
    },
  };
});

/** A bulk mark (notification-state.ts's BULK_MARKS): the subscriber's messages that match the body's filter. */
const bulkMarkRoute = (name: BulkMark) =>
  subscriberRoute((req, w, { svc: { store }, realtime }) => {
    const ids = bulkMark(store, w.subscriber._id, name, bulkFilter(validate(InboxBulkBody, req.body)));
    return {
      status: 204,
      after: () => {
        if (BULK_MARKS[name].change === 'delete') for (const id of ids) realtime.unsnoozed(id);
        realtime.queue(w.subscriber._id);
      },
    };
  });

const markInboxNotificationsSeen = subscriberRoute((req, w, { svc: { store }, realtime }) => {
  const body = validate(InboxSeenBody, req.body ?? {});
  markSeen(store, w.subscriber._id, bulkFilter(body), body.notificationIds);
  return { status: 204, after: () => realtime.queue(w.subscriber._id) };
});

/** The subscriber's own preferences: global, per workflow, in bulk. */
const listInboxPreferences = subscriberRoute((req, w, { svc: { store } }) => {
  const q = req.query;
  const tags = [q['tags[]'], q.tags].flat().filter((t): t is string => typeof t === 'string');
  const criticality = typeof q.criticality === 'string' ? q.criticality : 'nonCritical';
  if (!['critical', 'nonCritical', 'all'].includes(criticality)) throw new HttpError(400, 'criticality must be one of: critical, nonCritical, all');
  const data = listPreferences(store, w.env, w.subscriber._id, { tags, criticality: criticality as 'critical' | 'nonCritical' | 'all' });
  return { status: 200, body: { data } };
});

const getInboxGlobalPreference = subscriberRoute((_req, w, { svc: { store } }) => ({ status: 200, body: { data: globalPreference(store, w.subscriber._id) } }));

const updateInboxGlobalPreference = subscriberRoute((req, w, { svc: { store } }) => {
  const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
  setPreference(store, w.env, w.subscriber._id, undefined, channels, schedule);
  return { status: 200, body: { data: globalPreference(store, w.subscriber._id) } };
});

const updateInboxWorkflowPreference = subscriberRoute<{ workflow: string }>((req, w, { svc: { store } }) => {
  const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
  if (schedule !== undefined) throw new HttpError(400, 'schedule is a global preference: PATCH /v1/inbox/preferences');
  const id = setPreference(store, w.env, w.subscriber._id, req.params.workflow, channels);
  return { status: 200, body: { data: workflowPreference(store, w.env, w.subscriber._id, id) } };
});

export const inboxHandlers = {
  inboxSession,
  listInboxNotifications,
  countInboxNotifications,
  changeInboxNotification,
  deleteInboxNotification,
  readAllInboxNotifications: bulkMarkRoute('read'),
  archiveAllInboxNotifications: bulkMarkRoute('archive'),
  archiveReadInboxNotifications: bulkMarkRoute('read-archive'),
  deleteAllInboxNotifications: bulkMarkRoute('delete'),
  markInboxNotificationsSeen,
  listInboxPreferences,
  getInboxGlobalPreference,
  updateInboxGlobalPreference,
  updateInboxWorkflowPreference,
} satisfies Partial<Record<InboxRouteName, InboxRoute>>;

// The in-app Inbox's front-end API, `/v1/inbox/*`: what the service's `@novu/js`, `@novu/react` and
// `@novu/nextjs` clients call with a subscriber's session token (Bearer), and the realtime socket
// beside it. Only these routes answer cross-origin requests, and only from the pages origins.ts lets
// in (an app served from another local origin calls them); the operator API keeps no CORS.
import type { FastifyInstance } from 'fastify';
import { InboxActionBody, InboxBulkBody, InboxPreferenceBody, InboxSeenBody, InboxSessionBody, InboxSnoozeBody } from '../../api/schemas/inbox.js';
import { HttpError, unprocessable } from '../errors.js';
import type { Service } from '../handlers/types.js';
import type { RateLimiter } from '../rate-limit.js';
import { BULK_MARKS, type BulkMark, bulkMark, changeNotification, MAX_SNOOZE_HOURS, markSeen, snoozeChange, wakeSnoozed } from '../notification-state.js';
import type { InboxChange } from '../store/inbox.js';
import { bulkFilter, parseCountFilters, parseListQuery } from './filters.js';
import { InboxHttp, validate, type Who } from './http.js';
import { issueToken, subscriberHashMatches, verifyToken, type SubscriberClaims } from './jwt.js';
import { toInboxNotification, workflowInfo, type WorkflowInfo } from './notification.js';
import { InboxOrigins } from './origins.js';
import { globalPreference, listPreferences, setPreference, workflowPreference } from './preference-views.js';
import { Realtime } from './realtime.js';
import { bulkPreferences, registerSubscriptions } from './subscriptions.js';

export { INBOX_PREFIX } from './http.js';
export { MAX_SNOOZE_HOURS };

export interface InboxOptions {
  /** Origins let in besides loopback ones (`svc dev --inbox-origin`). */
  origins?: readonly string[] | undefined;
  limiter?: RateLimiter | undefined;
  /** A page of an origin not let in asked (once per origin). */
  onRefusedOrigin?: ((origin: string) => void) | undefined;
}

export function registerInbox(app: FastifyInstance, svc: Service, opts: InboxOptions = {}): Realtime {
  const { store, clock } = svc;
  const secretOf = (envId: string) => (store.environments.findById(envId) ? store.inbox.settings(envId).secret : undefined);
  const authenticate = (token: string): SubscriberClaims | undefined => verifyToken(token, secretOf, clock.now());
  const origins = new InboxOrigins(opts.origins);
  const realtime = new Realtime(app.server, svc, authenticate, origins);
  app.addHook('preClose', async () => realtime.close());
  const http = new InboxHttp(app, svc, { origins, limiter: opts.limiter, onRefusedOrigin: opts.onRefusedOrigin }, authenticate);
  registerSession(http, svc);
  registerNotifications(http, svc);
  registerMarks(http, svc, realtime);
  registerPreferences(http, svc);
  registerSubscriptions(http, svc);
  return realtime;
}

function notificationOf(svc: Service, w: Who, id: string) {
  const m = svc.store.inbox.get(w.subscriber._id, id);
  if (!m) throw new HttpError(404, `Notification with id: ${id} is not found.`);
  return toInboxNotification(m, w.subscriber, workflowInfo(svc.store, m), svc.clock.now());
}

/** `POST /v1/inbox/session`: a subscriber's session token, for the environment's application identifier. */
function registerSession(http: InboxHttp, svc: Service): void {
  const { store, clock } = svc;
  const sessionEnv = (body: unknown) => {
    const id = (body as { applicationIdentifier?: unknown } | undefined)?.applicationIdentifier;
    return typeof id === 'string' && id !== '' ? store.inbox.environmentOf(id, (e) => store.environments.findById(e)) : undefined;
  };
  http.open(
    'POST',
    '/v1/inbox/session',
    (req) => sessionEnv(req.body),
    (req) => {
      const body = validate(InboxSessionBody, req.body ?? {});
      const env = sessionEnv(body);
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
  );
}

/** The list and its counts. */
function registerNotifications(http: InboxHttp, svc: Service): void {
  const { store, clock } = svc;
  http.route('GET', '/v1/inbox/notifications', (req, w) => {
    const q = parseListQuery((req.query ?? {}) as Record<string, unknown>);
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

  http.route('GET', '/v1/inbox/notifications/count', (req, w) => {
    const { given, filters } = parseCountFilters((req.query as Record<string, unknown>).filters);
    wakeSnoozed(store, w.subscriber._id, clock.now());
    return { status: 200, body: { data: filters.map((f, i) => ({ count: store.inbox.count(w.subscriber._id, f), filter: given[i] })) } };
  });
}

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
function registerMarks(http: InboxHttp, svc: Service, realtime: Realtime): void {
  const { store, clock } = svc;
  http.route<{ id: string; action: string }>('PATCH', '/v1/inbox/notifications/:id/:action', (req, w) => {
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

  http.route<{ id: string }>('DELETE', '/v1/inbox/notifications/:id/delete', (req, w) => {
    if (!store.inbox.remove(w.subscriber._id, req.params.id)) throw new HttpError(404, `Notification with id: ${req.params.id} is not found.`);
    return {
      status: 204,
      after: () => {
        realtime.unsnoozed(req.params.id.toLowerCase());
        realtime.queue(w.subscriber._id);
      },
    };
  });

  for (const [name, b] of Object.entries(BULK_MARKS) as [BulkMark, (typeof BULK_MARKS)[BulkMark]][]) {
    http.route('POST', `/v1/inbox/notifications/${name}`, (req, w) => {
      const ids = bulkMark(store, w.subscriber._id, name, bulkFilter(validate(InboxBulkBody, req.body)));
      return {
        status: 204,
        after: () => {
          if (b.change === 'delete') for (const id of ids) realtime.unsnoozed(id);
          realtime.queue(w.subscriber._id);
        },
      };
    });
  }

  http.route('POST', '/v1/inbox/notifications/seen', (req, w) => {
    const body = validate(InboxSeenBody, req.body ?? {});
    markSeen(store, w.subscriber._id, bulkFilter(body), body.notificationIds);
    return { status: 204, after: () => realtime.queue(w.subscriber._id) };
  });
}

/** The subscriber's own preferences: global, per workflow, in bulk. */
function registerPreferences(http: InboxHttp, svc: Service): void {
  const { store } = svc;
  http.route('GET', '/v1/inbox/preferences', (req, w) => {
    const q = req.query as Record<string, unknown>;
    const tags = [q['tags[]'], q.tags].flat().filter((t): t is string => typeof t === 'string');
    const criticality = typeof q.criticality === 'string' ? q.criticality : 'nonCritical';
    if (!['critical', 'nonCritical', 'all'].includes(criticality)) throw new HttpError(400, 'criticality must be one of: critical, nonCritical, all');
    const data = listPreferences(store, w.env, w.subscriber._id, { tags, criticality: criticality as 'critical' | 'nonCritical' | 'all' });
    return { status: 200, body: { data } };
  });

  http.route('GET', '/v1/inbox/preferences/global', (_req, w) => ({ status: 200, body: { data: globalPreference(store, w.subscriber._id) } }));

  http.route('PATCH', '/v1/inbox/preferences', (req, w) => {
    const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
    setPreference(store, w.env, w.subscriber._id, undefined, channels, schedule);
    return { status: 200, body: { data: globalPreference(store, w.subscriber._id) } };
  });

  // A workflow's switches, or a topic subscription's (items naming a subscriptionIdentifier).
  http.route('PATCH', '/v1/inbox/preferences/bulk', (req, w) => ({ status: 200, body: { data: bulkPreferences(store, w, req.body) } }));

  http.route<{ workflow: string }>('PATCH', '/v1/inbox/preferences/:workflow', (req, w) => {
    const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
    if (schedule !== undefined) throw new HttpError(400, 'schedule is a global preference: PATCH /v1/inbox/preferences');
    const id = setPreference(store, w.env, w.subscriber._id, req.params.workflow, channels);
    return { status: 200, body: { data: workflowPreference(store, w.env, w.subscriber._id, id) } };
  });
}

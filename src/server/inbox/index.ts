// The in-app Inbox's front-end API, `/v1/inbox/*`: what the service's `@novu/js`, `@novu/react` and
// `@novu/nextjs` clients call with a subscriber's session token (Bearer), and the realtime socket
// beside it. Only these routes answer cross-origin requests (an app served from another local origin
// calls them); the operator API keeps no CORS.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  InboxActionBody,
  InboxBulkBody,
  InboxBulkPreferenceBody,
  InboxPreferenceBody,
  InboxSeenBody,
  InboxSessionBody,
  InboxSnoozeBody,
} from '../../api/schemas/inbox.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import { fieldErrors, HttpError, unprocessable } from '../errors.js';
import type { Service } from '../handlers/types.js';
import type { InboxChange, InboxFilter } from '../store/inbox.js';
import type { Environment } from '../store/index.js';
import { bulkFilter, parseCountFilters, parseListQuery } from './filters.js';
import { issueToken, subscriberHashMatches, verifyToken, type SubscriberClaims } from './jwt.js';
import { toInboxNotification, workflowInfo, type WorkflowInfo } from './notification.js';
import { globalPreference, listPreferences, setPreference, workflowPreference } from './preferences.js';
import { Realtime } from './realtime.js';
import { recordReadState } from '../read-state.js';

export const INBOX_PREFIX = '/v1/inbox/';
/** The Inbox's snooze limit, in hours (the service's paid plans: 90 days). */
export const MAX_SNOOZE_HOURS = 90 * 24;

interface Who {
  env: Environment;
  subscriber: Subscriber & { _id: string };
}

const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

function cors(req: FastifyRequest, reply: FastifyReply): void {
  const origin = req.headers.origin;
  reply.header('Access-Control-Allow-Origin', origin ?? '*');
  if (origin) {
    reply.header('Vary', 'Origin');
    reply.header('Access-Control-Allow-Credentials', 'true');
  }
}

function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw unprocessable('Validation Error', fieldErrors(r.error, input));
  return r.data;
}

export function registerInbox(app: FastifyInstance, svc: Service): Realtime {
  const { store, clock } = svc;
  const secretOf = (envId: string) => (store.environments.findById(envId) ? store.inbox.settings(envId).secret : undefined);
  const authenticate = (token: string): SubscriberClaims | undefined => verifyToken(token, secretOf, clock.now());
  const realtime = new Realtime(app.server, svc, authenticate);
  app.addHook('preClose', async () => realtime.close());

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith(INBOX_PREFIX)) cors(req, reply);
  });
  app.options('/v1/inbox/*', async (req, reply) => {
    reply.header('Access-Control-Allow-Methods', CORS_METHODS);
    const wanted = req.headers['access-control-request-headers'];
    reply.header('Access-Control-Allow-Headers', wanted ?? 'Authorization,Content-Type,Novu-API-Version,Novu-Client-Version');
    reply.header('Access-Control-Max-Age', '86400');
    return reply.code(204).send();
  });

  /** The subscriber of the request's session token; 401 in the service's shape otherwise. */
  function who(req: FastifyRequest): Who {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const claims = token ? authenticate(token) : undefined;
    const env = claims ? store.environments.findById(claims.environmentId) : undefined;
    const subscriber = claims && env ? store.subscribers.findById(claims._id) : undefined;
    if (!claims || !env || !subscriber || subscriber._environmentId !== env.id) throw new HttpError(401, 'Unauthorized');
    return { env, subscriber: subscriber as Subscriber & { _id: string } };
  }

  /** Runs a write in the request group-commit batch and waits for its COMMIT before answering. */
  async function write<T>(fn: () => T): Promise<T> {
    const { value, committed } = store.grouped(fn);
    await committed;
    return value;
  }

  const json = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));

  function notificationOf(w: Who, id: string, workflows = new Map<string, WorkflowInfo | undefined>()) {
    const m = store.inbox.get(w.subscriber._id, id);
    if (!m) throw new HttpError(404, `Notification with id: ${id} is not found.`);
    if (!workflows.has(m.workflowDbId)) workflows.set(m.workflowDbId, workflowInfo(store, m));
    return toInboxNotification(m, w.subscriber, workflows.get(m.workflowDbId), clock.now());
  }

  // --- session -------------------------------------------------------------------------------------

  app.post('/v1/inbox/session', async (req, reply) => {
    const body = validate(InboxSessionBody, req.body ?? {});
    if (!body.applicationIdentifier) throw new HttpError(400, 'Please provide a valid application identifier');
    const env = store.inbox.environmentOf(body.applicationIdentifier, (id) => store.environments.findById(id));
    if (!env) throw new HttpError(400, 'Please provide a valid application identifier');
    const profile = typeof body.subscriber === 'object' ? body.subscriber : undefined;
    const subscriberId = profile?.subscriberId ?? (typeof body.subscriber === 'string' ? body.subscriber : body.subscriberId);
    if (!subscriberId) throw unprocessable('Validation Error', { subscriberId: { messages: ['subscriberId is required'] } });
    const inApp = store.integrations.forChannel(env.id, 'in_app');
    if (!inApp) throw new HttpError(404, 'The active in-app integration could not be found');
    const hashOk = body.subscriberHash !== undefined && subscriberHashMatches(env.apiKey, subscriberId, body.subscriberHash);
    if ((inApp.credentials as { hmac?: unknown } | undefined)?.hmac === true && !hashOk) throw new HttpError(400, 'Please provide a valid HMAC hash');
    const subscriber = await write(() => {
      const existing = store.subscribers.find(env.id, subscriberId);
      // Profile fields from the browser change a subscriber that exists only with a valid hash.
      if (existing && !(profile && hashOk)) return existing;
      const { subscriberId: _, ...fields } = profile ?? {};
      return store.subscribers.upsert(env, subscriberId, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    });
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
    return json(reply, 201, {
      data: {
        token,
        totalUnreadCount: unreadCount.total,
        unreadCount,
        removeNovuBranding: true,
        maxSnoozeDurationHours: MAX_SNOOZE_HOURS,
        isDevelopmentMode: env.name !== 'Production',
        applicationIdentifier: body.applicationIdentifier,
      },
    });
  });

  // --- notifications ---------------------------------------------------------------------------------

  app.get('/v1/inbox/notifications', async (req, reply) => {
    const w = who(req);
    const q = parseListQuery((req.query ?? {}) as Record<string, unknown>);
    const page = store.inbox.list(w.subscriber._id, q.filter, { limit: q.limit, offset: q.offset, ...(q.after !== undefined && { after: q.after }) });
    const workflows = new Map<string, WorkflowInfo | undefined>();
    const now = clock.now();
    const data = page.rows.map((m) => {
      if (!workflows.has(m.workflowDbId)) workflows.set(m.workflowDbId, workflowInfo(store, m));
      return toInboxNotification(m, w.subscriber, workflows.get(m.workflowDbId), now);
    });
    return json(reply, 200, { data, hasMore: page.hasMore, filter: q.echo });
  });

  app.get('/v1/inbox/notifications/count', async (req, reply) => {
    const w = who(req);
    const { given, filters } = parseCountFilters((req.query as Record<string, unknown>).filters);
    return json(reply, 200, { data: filters.map((f, i) => ({ count: store.inbox.count(w.subscriber._id, f), filter: given[i] })) });
  });

  /**
   * One change to one of the subscriber's messages, and what a read or a view changes beyond it, as the
   * operator's mark-as does: the step's state for later steps, and the timeline's ReadConfirmation.
   */
  function changeOne(subscriberDbId: string, id: string, change: InboxChange) {
    const before = store.inbox.get(subscriberDbId, id);
    const after = store.inbox.change(subscriberDbId, id, change);
    if (!before || !after) return after;
    const became = (key: 'read' | 'seen', value: boolean) => before.doc[key] !== value && after.doc[key] === value;
    if (became('read', true)) recordReadState(store, [after], 'read');
    else if (became('seen', true)) recordReadState(store, [after], 'seen');
    else if (became('read', false)) recordReadState(store, [after], 'unread');
    return after;
  }

  const changes: Record<string, (body: unknown) => InboxChange> = {
    read: () => ({ kind: 'read' }),
    unread: () => ({ kind: 'unread' }),
    archive: () => ({ kind: 'archive' }),
    unarchive: () => ({ kind: 'unarchive' }),
    unsnooze: () => ({ kind: 'unsnooze' }),
    snooze: (body) => {
      const until = Date.parse(validate(InboxSnoozeBody, body ?? {}).snoozeUntil);
      const now = clock.now();
      if (until <= now) throw new HttpError(400, 'Snooze time must be in the future');
      if (until - now > MAX_SNOOZE_HOURS * 3_600_000) throw new HttpError(400, `Snooze time must be at most ${MAX_SNOOZE_HOURS} hours from now`);
      return { kind: 'snooze', until };
    },
    complete: (body) => ({ kind: 'action', status: 'done', button: validate(InboxActionBody, body ?? {}).actionType }),
    revert: (body) => ({ kind: 'action', status: 'pending', button: validate(InboxActionBody, body ?? {}).actionType }),
  };

  app.patch<{ Params: { id: string; action: string } }>('/v1/inbox/notifications/:id/:action', async (req, reply) => {
    const w = who(req);
    const make = Object.hasOwn(changes, req.params.action) ? changes[req.params.action] : undefined;
    if (!make) throw new HttpError(404, `Cannot PATCH ${req.url.split('?')[0]}`);
    const change = make(req.body);
    const { id } = req.params;
    const done = await write(() => changeOne(w.subscriber._id, id, change));
    if (!done) throw new HttpError(404, `Notification with id: ${id} is not found.`);
    if (change.kind === 'snooze') realtime.snoozed(w.subscriber._id, done.id, change.until);
    if (change.kind === 'unsnooze') realtime.unsnoozed(done.id);
    realtime.queue(w.subscriber._id);
    return json(reply, 200, { data: notificationOf(w, id) });
  });

  app.delete<{ Params: { id: string } }>('/v1/inbox/notifications/:id/delete', async (req, reply) => {
    const w = who(req);
    const removed = await write(() => store.inbox.remove(w.subscriber._id, req.params.id));
    if (!removed) throw new HttpError(404, `Notification with id: ${req.params.id} is not found.`);
    realtime.unsnoozed(req.params.id.toLowerCase());
    realtime.queue(w.subscriber._id);
    return reply.code(204).send();
  });

  const bulk: Record<string, { filter: InboxFilter; change: InboxChange | 'delete' }> = {
    read: { filter: { read: false }, change: { kind: 'read' } },
    archive: { filter: { archived: false }, change: { kind: 'archive' } },
    'read-archive': { filter: { read: true, archived: false }, change: { kind: 'archive' } },
    delete: { filter: {}, change: 'delete' },
  };
  for (const [name, b] of Object.entries(bulk)) {
    app.post(`/v1/inbox/notifications/${name}`, async (req, reply) => {
      const w = who(req);
      const filter = { ...bulkFilter(validate(InboxBulkBody, req.body)), ...b.filter };
      await write(() => {
        if (b.change !== 'delete') {
          for (const id of store.inbox.matching(w.subscriber._id, filter)) changeOne(w.subscriber._id, id, b.change);
          return;
        }
        for (const id of store.inbox.matching(w.subscriber._id, filter)) {
          store.inbox.remove(w.subscriber._id, id);
          realtime.unsnoozed(id);
        }
      });
      realtime.queue(w.subscriber._id);
      return reply.code(204).send();
    });
  }

  app.post('/v1/inbox/notifications/seen', async (req, reply) => {
    const w = who(req);
    const body = validate(InboxSeenBody, req.body ?? {});
    const filter = { ...bulkFilter(body), seen: false };
    await write(() => {
      for (const id of store.inbox.matching(w.subscriber._id, filter, body.notificationIds)) changeOne(w.subscriber._id, id, { kind: 'seen' });
    });
    realtime.queue(w.subscriber._id);
    return reply.code(204).send();
  });

  // --- preferences --------------------------------------------------------------------------------------

  app.get('/v1/inbox/preferences', async (req, reply) => {
    const w = who(req);
    const q = req.query as Record<string, unknown>;
    const tags = [q['tags[]'], q.tags].flat().filter((t): t is string => typeof t === 'string');
    const criticality = typeof q.criticality === 'string' ? q.criticality : 'nonCritical';
    if (!['critical', 'nonCritical', 'all'].includes(criticality)) throw new HttpError(400, 'criticality must be one of: critical, nonCritical, all');
    return json(reply, 200, {
      data: listPreferences(store, w.env, w.subscriber._id, { tags, criticality: criticality as 'critical' | 'nonCritical' | 'all' }),
    });
  });

  app.get('/v1/inbox/preferences/global', async (req, reply) => {
    const w = who(req);
    return json(reply, 200, { data: globalPreference(store, w.subscriber._id) });
  });

  app.patch('/v1/inbox/preferences', async (req, reply) => {
    const w = who(req);
    const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
    await write(() => setPreference(store, w.env, w.subscriber._id, undefined, channels, schedule));
    return json(reply, 200, { data: globalPreference(store, w.subscriber._id) });
  });

  app.patch('/v1/inbox/preferences/bulk', async (req, reply) => {
    const w = who(req);
    const { preferences } = validate(InboxBulkPreferenceBody, req.body ?? {});
    const ids = await write(() => preferences.map(({ workflowId, ...channels }) => setPreference(store, w.env, w.subscriber._id, workflowId, channels)));
    return json(reply, 200, { data: ids.map((id) => workflowPreference(store, w.env, w.subscriber._id, id)) });
  });

  app.patch<{ Params: { workflow: string } }>('/v1/inbox/preferences/:workflow', async (req, reply) => {
    const w = who(req);
    const { schedule, ...channels } = validate(InboxPreferenceBody, req.body ?? {});
    if (schedule !== undefined) throw new HttpError(400, 'schedule is a global preference: PATCH /v1/inbox/preferences');
    const id = await write(() => setPreference(store, w.env, w.subscriber._id, req.params.workflow, channels));
    return json(reply, 200, { data: workflowPreference(store, w.env, w.subscriber._id, id) });
  });

  return realtime;
}

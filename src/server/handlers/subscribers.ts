// Subscribers (search, create, retrieve, update, delete, online status) and their messages (list, mark-as).
import { badRequest, conflict, HttpError, notFound } from '../errors.js';
import { recordReadState } from '../read-state.js';
import { messageViews } from '../views.js';
import { cursorArgs, type Route } from './types.js';

export const searchSubscribers: Route<'searchSubscribers'> = {
  envelope: 'raw',
  handle: ({ svc, env, query: q }) =>
    svc.store.subscribers.search(env.id, {
      ...cursorArgs(q),
      orderBy: q.orderBy ?? '_id',
      email: q.email,
      phone: q.phone,
      name: q.name,
      subscriberId: q.subscriberId,
    }),
};

// Each of the service's v2 subscriber use cases words its "not found" its own way; these are its.
const subscriberNotFound = (id: string) => notFound(`Subscriber: ${id} was not found`);
const patchNotFound = (id: string) => notFound(`Subscriber ${id} was not found`);
/** The delete use case's 404 carries the id beside the message (`externalSubscriberId`, also in ctx). */
const deleteNotFound = (id: string) =>
  new HttpError(404, 'Subscriber was not found', { ctx: { error: 'Not Found', statusCode: 404, externalSubscriberId: id } });

/** Creates the subscriber; an existing one gets the fields sent, unless `failIfExists` (then 409). */
export const createSubscriber: Route<'createSubscriber'> = {
  envelope: 'data',
  handle({ svc, env, body, query }) {
    const { subscriberId, ...fields } = body;
    return svc.store.tx(() => {
      if (query.failIfExists === true && svc.store.subscribers.find(env.id, subscriberId)) {
        throw conflict(`Subscriber: ${subscriberId} already exists`);
      }
      return svc.store.subscribers.upsert(env, subscriberId, pickSubscriberFields(fields));
    });
  },
};

export const getSubscriber: Route<'getSubscriber'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const sub = svc.store.subscribers.find(env.id, params.subscriberId!);
    if (!sub) throw subscriberNotFound(params.subscriberId!);
    return sub;
  },
};

export const patchSubscriber: Route<'patchSubscriber'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const id = params.subscriberId!;
    return svc.store.tx(() => {
      if (!svc.store.subscribers.find(env.id, id)) throw patchNotFound(id);
      return svc.store.subscribers.upsert(env, id, pickSubscriberFields(body));
    });
  },
};

export const deleteSubscriber: Route<'deleteSubscriber'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const id = params.subscriberId!;
    if (!svc.store.tx(() => svc.store.subscribers.remove(env.id, id))) throw deleteNotFound(id);
    return { acknowledged: true, status: 'deleted' };
  },
};

/** The profile fields a create or patch body may set (unknown members of the body are ignored). */
function pickSubscriberFields(b: Record<string, unknown>) {
  const keys = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;
  return Object.fromEntries(keys.filter((k) => b[k] !== undefined).map((k) => [k, b[k]])) as Record<(typeof keys)[number], never>;
}

export const updateOnlineStatus: Route<'updateOnlineStatus'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const id = params.subscriberId!;
    return svc.store.tx(() => {
      const sub = svc.store.subscribers.find(env.id, id);
      if (!sub) throw notFound('Subscriber not found');
      const now = new Date(svc.clock.now()).toISOString();
      return svc.store.subscribers.update({ ...sub, isOnline: body.isOnline, ...(!body.isOnline && { lastOnlineAt: now }) });
    });
  },
};

export const markMessagesAs: Route<'markMessagesAs'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    // The service answers a missing messageId, or an empty list of them, with its own 400, before
    // any validation.
    if (body.messageId === undefined || body.messageId === null) throw badRequest('messageId is required');
    const ids = Array.isArray(body.messageId) ? body.messageId : [body.messageId];
    if (ids.length === 0) throw badRequest('messageId is required');
    const id = params.subscriberId!;
    const { store } = svc;
    return store.tx(() => {
      const sub = store.subscribers.find(env.id, id);
      if (!sub) throw notFound(`Subscriber ${id} not found`);
      const changed = store.messages.markAs(sub._id!, ids, body.markAs);
      recordReadState(store, changed, body.markAs);
      return messageViews(store, changed);
    });
  },
};

export const listMessages: Route<'listMessages'> = {
  envelope: 'raw',
  handle({ svc, env, query: q }) {
    const page = q.page ?? 0;
    const limit = q.limit ?? 10;
    let subscriberDbId: string | undefined;
    if (q.subscriberId !== undefined) {
      // An unknown subscriber has no messages: an empty page, not an error.
      subscriberDbId = svc.store.subscribers.find(env.id, q.subscriberId)?._id ?? '-';
    }
    const { totalCount, hasMore, rows } = svc.store.messages.list(
      env.id,
      { channel: q.channel, subscriberDbId, transactionIds: q.transactionId, contextKeys: q.contextKeys },
      page,
      limit,
    );
    return { totalCount, hasMore, data: messageViews(svc.store, rows), pageSize: limit, page };
  },
};

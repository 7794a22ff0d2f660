// Trigger, bulk trigger and the activity feed.
import type { TriggerResult } from '../../api/schemas/requests.js';
import { HttpError, notFound, unprocessable } from '../errors.js';
import { trigger } from '../trigger.js';
import { notificationViews } from '../views.js';
import type { Call, Route, Service } from './types.js';

const deps = (svc: Service) => ({ store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() });

export const triggerEvent: Route<'triggerEvent'> = {
  envelope: 'data',
  handle: ({ svc, env, body, baseUrl }) => trigger(deps(svc), env, body, baseUrl),
};

/** Each event on its own: a failing one answers `status: "error"` and the others still go through. */
export const triggerBulk: Route<'triggerBulk'> = {
  envelope: 'data',
  handle: ({ svc, env, body, baseUrl }) =>
    body.events.map((event): TriggerResult => {
      try {
        return trigger(deps(svc), env, event, baseUrl);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        return { acknowledged: true, status: 'error', error: [e.message], ...(event.transactionId && { transactionId: event.transactionId }) };
      }
    }),
};

function dateParam(name: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) {
    throw unprocessable('Validation Error', { [name]: { messages: [`${name} must be a valid ISO 8601 date string`], value: v } });
  }
  return new Date(t).toISOString();
}

export const listEvents: Route<'listEvents'> = {
  envelope: 'raw',
  handle({ svc, env, query: q }: Call<'listEvents'>) {
    const page = q.page ?? 0;
    const limit = q.limit ?? 10;
    const emails = q.emails;
    const { hasMore, rows } = svc.store.activity.listNotifications(
      env.id,
      {
        channels: q.channels,
        templates: q.templates,
        subscriberIds: q.subscriberIds,
        subscriberDbIds: emails ? svc.store.subscribers.emailsToIds(env.id, emails) : undefined,
        severity: q.severity,
        transactionId: q.transactionId,
        topicKey: q.topicKey,
        subscriptionId: q.subscriptionId,
        contextKeys: q.contextKeys,
        after: dateParam('after', q.after),
        before: dateParam('before', q.before),
      },
      page,
      limit,
    );
    return { hasMore, data: notificationViews(svc.store, rows), pageSize: limit, page };
  },
};

export const getEvent: Route<'getEvent'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const n = svc.store.activity.notification(env.id, params.notificationId!);
    if (!n) throw notFound('Notification not found');
    return notificationViews(svc.store, [n])[0];
  },
};

// Trigger, bulk trigger and the activity feed.
import { z } from 'zod';
import { MAX_BULK_EVENTS, TriggerBody, type TriggerResult } from '../../api/schemas/requests.js';
import { statusesFor } from '../../core/status.js';
import { fieldErrors, HttpError, notFound, unprocessable } from '../errors.js';
import { cancelTransaction } from '../runner/cancel.js';
import { trigger } from '../trigger.js';
import { notificationViews } from '../views.js';
import type { Call, Route, Service } from './types.js';

const deps = (svc: Service) => ({ store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() });

export const triggerEvent: Route<'triggerEvent'> = {
  envelope: 'data',
  // The route's group-commit savepoint (app.ts) is the trigger's: a throw rolls back its writes.
  handle: ({ svc, env, body, baseUrl }) => trigger(deps(svc), env, body, baseUrl, true),
};

/**
 * Each event on its own: an event that fails, its own validation included, answers `status: "error"`
 * with the reason and the others still go through. Only the envelope can fail the request: `events`
 * missing, empty, or longer than 100 (422, in the service's validator wording).
 */
const BulkEnvelope = z.looseObject({
  events: z
    .array(z.unknown(), { error: 'events must be an array' })
    .min(1, 'events should not be empty')
    .max(MAX_BULK_EVENTS, `events must contain no more than ${MAX_BULK_EVENTS} elements`),
});

export const triggerBulk: Route<'triggerBulk'> & { parseBody(input: unknown): unknown } = {
  envelope: 'data',
  parseBody(input) {
    const r = BulkEnvelope.safeParse(input);
    if (r.success) return r.data;
    const errors = fieldErrors(r.error, input);
    // The limits' messages already name the field ("events must contain ...").
    for (const e of Object.values(errors)) e.messages = e.messages.map((m) => m.replace(/^events (events )/, '$1'));
    throw unprocessable('Validation Error', errors);
  },
  handle: ({ svc, env, body, baseUrl }) =>
    (body.events as unknown[]).map((raw): TriggerResult => {
      const parsed = TriggerBody.safeParse(raw);
      const transactionId =
        typeof (raw as { transactionId?: unknown })?.transactionId === 'string' ? (raw as { transactionId: string }).transactionId : undefined;
      const failed = (error: string[]): TriggerResult => ({ acknowledged: true, status: 'error', error, ...(transactionId && { transactionId }) });
      if (!parsed.success) return failed(Object.values(fieldErrors(parsed.error, raw)).flatMap((e) => e.messages));
      try {
        // trigger() writes in its own savepoint: a failing event's writes roll back, the others' stay.
        return trigger(deps(svc), env, parsed.data, baseUrl);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        return failed([e.message]);
      }
    }),
};

/** The execution detail of a job canceled through the API. */
export const CANCELED_BY_API = 'Step canceled: the event was canceled through the API (DELETE /v1/events/trigger/{transactionId})';

/**
 * Cancels what the transaction's events have not run yet (runner/cancel.ts): true when a job
 * was canceled, false when none was (an unknown transactionId too, as the service answers: no 404).
 */
export const cancelEvent: Route<'cancelEvent'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const { canceled, events } = cancelTransaction(svc.store, env.id, params.transactionId!, {
      status: 'Warning',
      detail: CANCELED_BY_API,
      source: 'Internal',
    });
    // The events changed (their feed order and `updatedAt`), as when the runner settles a job of theirs.
    for (const id of events) svc.store.activity.touchNotification(id);
    return canceled > 0;
  },
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
        // svc dev's own extension (GET /v1/svc-dev names it): `completed` stands for every finished status.
        statuses: q.svcStatus ? [...new Set(q.svcStatus.flatMap(statusesFor))] : undefined,
      },
      page,
      limit,
    );
    return { hasMore, data: notificationViews(svc.store, rows), pageSize: limit, page };
  },
};

/** svc dev's own extensions of the API, named by GET /v1/svc-dev so that a client uses them only here. */
const LOCAL_EXTENSIONS = ['listEvents.svcStatus', 'messages.wait', 'messages.get', 'clock', 'reset', 'snapshot'] as const;

/** GET /v1/svc-dev: this is svc dev (the hosted service answers 404), and what it adds to the API. */
export const getLocalService: Route<'getLocalService'> = {
  envelope: 'data',
  handle: () => ({ service: 'svc dev' as const, version: typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : 'dev', extensions: [...LOCAL_EXTENSIONS] }),
};

export const getEvent: Route<'getEvent'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const n = svc.store.activity.notification(env.id, params.notificationId!);
    if (!n) throw notFound('Notification not found');
    return notificationViews(svc.store, [n])[0];
  },
};

// svc dev's own message routes, named by GET /v1/svc-dev so that the CLI uses them only here:
// waiting for a message (answered as soon as one that matches is stored, rather than polled for) and
// reading one message by id, with its email's sender (the hosted service has no such route: the CLI
// pages GET /v1/messages).
import { notFound } from '../errors.js';
import { firstMatching, messageById, senders } from '../outbox/query.js';
import { messageWaits } from '../outbox/waiters.js';
import type { MessageRecord } from '../store/messages.js';
import { messageViews } from '../views.js';
import type { Call, Route } from './types.js';

/** Without `holdMs` the route looks once: a caller says how long it is ready to wait. */
const DEFAULT_HOLD_MS = 0;

type WaitCall = Call<'waitForMessage'> & { prepared?: MessageRecord | undefined };

export const waitForMessage: Route<'waitForMessage'> & { prepare(call: WaitCall): Promise<MessageRecord | undefined> } = {
  envelope: 'data',
  prepare({ svc, env, query: q }) {
    const match = {
      subscriberId: q.subscriberId,
      workflowId: q.workflowId,
      channel: q.channel,
      transactionId: q.transactionId,
      contains: q.contains,
      // No `since`: what is stored from now on.
      sinceMs: q.since !== undefined ? Date.parse(q.since) : svc.clock.now(),
    };
    const hold = q.holdMs ?? DEFAULT_HOLD_MS;
    // Nothing waits when nothing is held: a plain look needs no listener.
    if (hold === 0) return Promise.resolve(firstMatching(svc.store, env.id, match));
    return messageWaits(svc).wait(env.id, match, hold);
  },
  handle({ svc, prepared }: WaitCall) {
    return prepared ? messageViews(svc.store, [prepared])[0] : null;
  },
};

export const getMessage: Route<'getMessage'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const found = messageById(svc.store, params.messageId!, env.id);
    if (!found) throw notFound(`Message with id ${params.messageId} not found`);
    const view = messageViews(svc.store, [found])[0]!;
    // An email's sender is its integration's `from` credential, which no answer carries: given here
    // alone, so that the message is shown with the From a recipient sees.
    const sender = found.doc.channel === 'email' ? senders(svc.store)(env.id, found.doc.providerId) : undefined;
    return sender ? { ...view, sender } : view;
  },
};

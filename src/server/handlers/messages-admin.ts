// Messages removed through the API: one by id, or all of a transaction (of one channel when given).
// The service's words for what it cannot find; the Inbox's counts follow.
import { OBJECT_ID_RE } from '../../core/object-id.js';
import { notFound, unprocessable } from '../errors.js';
import type { Route } from './types.js';

export const deleteMessage: Route<'deleteMessage'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const id = params.messageId!;
    // The id is validated as a database id before any lookup, as the service's parameters are.
    if (!OBJECT_ID_RE.test(id)) {
      const messages = ['messageId must be a mongodb id'];
      throw unprocessable(`Validation failed for deleteMessage: messageId: ${messages[0]}`, { messageId: { messages, value: id } });
    }
    if (!svc.store.tx(() => svc.store.messages.removeById(env.id, id))) throw notFound(`Message with id ${id} not found`);
    return { acknowledged: true, status: 'deleted' as const };
  },
};

export const deleteMessagesByTransaction: Route<'deleteMessagesByTransaction'> = {
  envelope: 'none',
  handle({ svc, env, params, query }) {
    const removed = svc.store.tx(() => svc.store.messages.removeByTransaction(env.id, params.transactionId!, query.channel));
    if (removed === 0) throw notFound('Invalid transactionId or channel');
  },
};

// POST /v1/events/trigger/broadcast: the trigger sent to every subscriber of the environment (and only
// that environment), in subscriberId order as the service walks them. Each subscriber gets an event of
// its own under the one transactionId, exactly as a trigger naming them all would: the same checks
// (workflow, tenant, activity), the same answer, the actor included like any other subscriber.
import { HttpError } from '../errors.js';
import { trigger } from '../trigger.js';
import { uuidv7 } from '../trigger.js';
import type { Route } from './types.js';

export const triggerBroadcast: Route<'triggerBroadcast'> = {
  envelope: 'data',
  handle({ svc, env, body, baseUrl }) {
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const to = svc.store.subscribers.idsOf(env.id);
    if (to.length > 0) return trigger(deps, env, { ...body, to }, baseUrl, true);
    // No subscriber yet: nothing to send, but the request is still the service's to accept or refuse.
    if (!svc.store.workflows.findByTrigger(env.id, body.name)) throw new HttpError(422, 'workflow_not_found');
    const transactionId = body.transactionId ?? uuidv7(svc.clock.now());
    return {
      acknowledged: true,
      status: 'processed' as const,
      transactionId,
      activityFeedLink: `${baseUrl}/v1/notifications?transactionId=${encodeURIComponent(transactionId)}`,
    };
  },
};

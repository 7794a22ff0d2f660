// The Liquid scope of one job, from what the trigger stored: the subscriber, the payload, the actor
// and tenant records, the contexts with their data, and the outputs of the notification's earlier steps
// (a digest's events, an in-app message's read state, a custom step's values, an http_request's answer).
import { buildScope, type JsonRecord, type TemplateScope } from '../engine/index.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { NotificationRecord } from '../store/activity.js';
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';

/** `withSteps` false: the step reads no earlier output, so the notification's jobs are not loaded. */
export function jobScope(store: Store, n: NotificationRecord, subscriber: Subscriber, job: JobRecord, withSteps = true): Required<TemplateScope> {
  const steps: JsonRecord = {};
  if (withSteps && job.stepIndex > 0) {
    for (const earlier of store.jobs.jobsOf([n.id])) {
      if (earlier.stepIndex >= job.stepIndex) continue;
      const output = earlier.state.output;
      if (output !== undefined && output !== null) steps[earlier.step.stepId] = output;
    }
  }
  const context: Record<string, { id: string; data: JsonRecord }> = {};
  for (const key of n.doc.contextKeys) {
    const i = key.indexOf(':');
    const type = key.slice(0, i);
    const id = key.slice(i + 1);
    context[type] = { id, data: store.contexts.find(n.envId, type, id)?.data ?? {} };
  }
  const actor = n.doc.actorId !== undefined ? store.subscribers.findById(n.doc.actorId) : undefined;
  const tenant = n.doc.tenant !== undefined ? store.tenants.find(n.envId, n.doc.tenant) : undefined;
  return buildScope({
    subscriber: subscriber as unknown as JsonRecord,
    payload: n.doc.payload,
    actor: (actor as unknown as JsonRecord | undefined) ?? null,
    tenant: (tenant as unknown as JsonRecord | undefined) ?? n.doc.tenant ?? null,
    context,
    steps,
    // `{{env.KEY}}`: the organisation's environment variables, as valued for the job's environment.
    env: store.environmentVariables.valuesFor(n.envId),
  });
}

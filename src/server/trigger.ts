// The trigger (ground truth, "Trigger"): find the workflow, check tenant and activity, resolve the
// recipients, and for each one store an activity notification with one job per step, all in one
// transaction. The reply goes out before the jobs run; the runner is only told to look.
import { randomBytes } from 'node:crypto';
import type { JsonObject } from '../api/schemas/common.js';
import { CHANNELS, type Channel } from '../api/schemas/enums.js';
import type { TriggerBody, TriggerResult } from '../api/schemas/requests.js';
import { contextKeysOf, type ContextPayload } from './context-keys.js';
import { validatePayload } from './engine/index.js';
import { HttpError } from './errors.js';
import { resolveRecipients, upsertSubscriber } from './recipients.js';
import { STEP_QUEUED } from './runner/queue.js';
import type { Environment, Store } from './store/index.js';
import { SERVICE_PROVIDER } from './store/integrations.js';
import type { NotificationRecord } from './store/activity.js';
import type { StoredWorkflow } from './store/workflows.js';

const CHANNEL_TYPES = new Set<string>(CHANNELS);

interface TriggerDeps {
  store: Store;
  now(): number;
  /** Tells the runner new jobs are due. */
  kick(): void;
}

/**
 * `inCallerSavepoint`: the caller already runs this in a savepoint of its own that rolls back if it
 * throws (a route's group-commit savepoint), so no second one is opened (a SAVEPOINT/RELEASE pair per
 * request). Bulk triggers leave it off: each event rolls back alone.
 */
export function trigger(deps: TriggerDeps, env: Environment, body: TriggerBody, baseUrl: string, inCallerSavepoint = false): TriggerResult {
  const { store } = deps;
  const workflow = store.workflows.findByTrigger(env.id, body.name);
  if (!workflow) throw new HttpError(422, 'workflow_not_found');
  if (body.transactionId !== undefined) {
    const earlier = store.activity.acceptedTrigger(env.id, body.transactionId);
    if (earlier === 'processed') return processedResult(body.transactionId, baseUrl);
    if (earlier) return earlier as TriggerResult;
  }
  checkPayload(workflow, body.payload ?? {});

  const run = (): TriggerResult => {
    let tenant: string | undefined;
    if (body.tenant !== undefined) {
      const t = typeof body.tenant === 'string' ? { identifier: body.tenant } : body.tenant;
      const found = t.identifier !== undefined ? store.tenants.find(env.id, t.identifier) : undefined;
      if (!found || t.identifier === undefined) {
        return { acknowledged: true, status: 'no_tenant_found', error: [`Tenant with identifier '${t.identifier ?? ''}' could not be found`] };
      }
      if (typeof body.tenant !== 'string' && (t.name !== undefined || t.data !== undefined)) store.tenants.upsert(env, { ...t, identifier: t.identifier });
      tenant = t.identifier;
    }
    if (!workflow.active) return { acknowledged: true, status: 'trigger_not_active', error: [`Workflow '${workflow.workflowId}' is not active`] };
    if (workflow.steps.length === 0) {
      return { acknowledged: true, status: 'no_workflow_steps_defined', error: [`Workflow '${workflow.workflowId}' has no steps`] };
    }

    const actor =
      body.actor === undefined ? undefined : upsertSubscriber(store, env, typeof body.actor === 'string' ? { subscriberId: body.actor } : body.actor);
    const scope = { workflowDbId: workflow._id, payload: body.payload ?? {} };
    const { recipients, topicsOf, problems, filtered } = resolveRecipients(store, env, body.to, actor?.subscriberId, scope);
    // Reached, but each one's topic subscriptions turned this workflow off: accepted, and nobody gets it.
    if (recipients.length === 0 && filtered > 0) return processedResult(body.transactionId ?? uuidv7(deps.now()), baseUrl);
    if (recipients.length === 0) {
      return { acknowledged: true, status: 'invalid_recipients', error: problems.length ? problems : ['No valid recipients'] };
    }

    const contextKeys = contextKeysOf(store, env, body.context as ContextPayload | undefined);

    const payload = storedPayload(body.payload ?? {});
    const now = deps.now();
    const transactionId = body.transactionId ?? uuidv7(now);
    const channels = [...new Set(workflow.steps.map((s) => s.type))];
    // Every job names a provider from the start (the API requires one): the integration its channel
    // would deliver through, else the service itself; delivery records the one actually used.
    const providers = workflow.steps.map((s) =>
      CHANNEL_TYPES.has(s.type) && s.type !== 'in_app'
        ? (store.integrations.forChannel(env.id, s.type as Channel)?.providerId ?? SERVICE_PROVIDER)
        : SERVICE_PROVIDER,
    );
    const stepRefs = store.jobs.saveSteps(workflow);
    for (const r of recipients) {
      // Only read from here on (its id, and the runner's scope): the store's shared copy will do.
      const subscriber = upsertSubscriber(store, env, r, true);
      const notification = store.activity.createNotification({
        envId: env.id,
        orgId: env.orgId,
        transactionId,
        workflowId: workflow._id,
        subscriberId: subscriber._id!,
        channels,
        severity: body.overrides?.severity ?? workflow.severity,
        doc: {
          payload,
          overrides: body.overrides ?? {},
          tags: workflow.tags,
          to: r,
          topics: topicsOf.get(r.subscriberId) ?? [],
          critical: workflow.critical,
          contextKeys,
          actorId: actor?._id,
          tenant,
        },
      });
      createJobs(store, workflow, notification, { now, providers, stepRefs });
    }
    store.workflows.markTriggered(workflow._id);
    // The events themselves (indexed by transactionId) record that this transactionId was accepted.
    return processedResult(transactionId, baseUrl);
  };
  const result = inCallerSavepoint ? run() : store.tx(run);
  if (result.status === 'processed') deps.kick();
  return result;
}

/** The event's jobs, one per step of its workflow: the first due now, each later one pending. */
function createJobs(store: Store, workflow: StoredWorkflow, event: NotificationRecord, plan: { now: number; providers: string[]; stepRefs: string[] }): void {
  workflow.steps.forEach((step, stepIndex) => {
    store.jobs.createJob(
      {
        envId: event.envId,
        orgId: event.orgId,
        notificationId: event.id,
        subscriberId: event.subscriberId,
        workflowId: workflow._id,
        stepIndex,
        type: step.type,
        // Each later one is queued when the one before it finishes.
        status: stepIndex === 0 ? 'queued' : 'pending',
        runAt: plan.now,
        providerId: plan.providers[stepIndex]!,
        state: {},
        step,
      },
      plan.stepRefs[stepIndex]!,
      stepIndex === 0 ? STEP_QUEUED : undefined,
    );
  });
}

function processedResult(transactionId: string, baseUrl: string): TriggerResult {
  return {
    acknowledged: true,
    status: 'processed',
    transactionId,
    activityFeedLink: `${baseUrl}/v1/notifications?transactionId=${encodeURIComponent(transactionId)}`,
  };
}

/**
 * A generated transactionId: a UUID version 7 (RFC 9562), time-ordered, so that the transactionId
 * index grows at its end instead of taking random inserts all over (pages written per commit).
 */
let pool = Buffer.alloc(0);
let poolAt = 0;

export function uuidv7(ms: number): string {
  if (poolAt + 16 > pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  const b = Buffer.from(pool.subarray(poolAt, (poolAt += 16)));
  const t = Math.max(0, Math.floor(ms));
  b[0] = Math.floor(t / 2 ** 40) & 0xff;
  b[1] = Math.floor(t / 2 ** 32) & 0xff;
  b[2] = (t >>> 24) & 0xff;
  b[3] = (t >>> 16) & 0xff;
  b[4] = (t >>> 8) & 0xff;
  b[5] = t & 0xff;
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The payload as it is kept (and copied into messages): as the hosted service does, attachments lose
 * their `file` content (base64, often large), keeping name, mime and the rest.
 */
function storedPayload(payload: JsonObject): JsonObject {
  const attachments = payload.attachments;
  if (!Array.isArray(attachments)) return payload;
  return {
    ...payload,
    attachments: attachments.map((a) => {
      if (a === null || typeof a !== 'object' || Array.isArray(a) || !('file' in a)) return a;
      const { file: _file, ...rest } = a as JsonObject;
      return rest;
    }),
  };
}

/** `validatePayload` with a payload schema: 400 PAYLOAD_VALIDATION_ERROR listing each failing field. */
function checkPayload(workflow: StoredWorkflow, payload: JsonObject): void {
  if (!workflow.validatePayload || !workflow.payloadSchema) return;
  const result = validatePayload(workflow.payloadSchema, payload);
  if (result.valid) return;
  throw new HttpError(400, 'Payload validation failed', { fields: { type: 'PAYLOAD_VALIDATION_ERROR' }, errors: result.errors });
}

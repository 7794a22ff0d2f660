// What a job's outcome writes: one transition per result its handler returns, in the job's
// transaction, with the details its run recorded. A job that completes or is skipped queues its
// event's next step; one that fails does too, unless its failure stops the workflow; a delay waits;
// merged, canceled or a `rest` end the event's remaining steps.
import type { JsonObject } from '../../api/schemas/common.js';
import type { Store } from '../store/index.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import { queueJob, STEP_QUEUED } from './queue.js';
import type { RestOutcome, StepResult } from './types.js';

/** What a run of a job recorded besides its result (an Attempt's fields). */
interface RunRecord {
  details: readonly DetailInput[];
  providerId?: string | undefined;
  state?: JsonObject | undefined;
  output?: JsonObject | undefined;
  /** The job was handed over still pending by the step before it (chaining): it is queued now, in this write. */
  queuedNow?: boolean | undefined;
}

/** A job that could not run (or whose handler threw: its run's writes were rolled back): nothing recorded. */
export const NOTHING_RECORDED: RunRecord = { details: [] };

/**
 * Writes the job's outcome. The event's next step is queued, or with `handOver`, returned still
 * pending for the caller to run at once (or queue) in the same transaction.
 */
export function recordOutcome(store: Store, job: JobRecord, run: RunRecord, result: StepResult, handOver = false): JobRecord | undefined {
  const jobs = store.jobs;
  const details = run.queuedNow ? [STEP_QUEUED, ...run.details] : [...run.details];
  const state = run.output !== undefined ? { ...(run.state ?? job.state), output: run.output } : run.state;
  const common = { providerId: run.providerId, state, runAt: run.queuedNow ? store.clock.now() : undefined };
  let next: JobRecord | undefined;
  switch (result.status) {
    case 'completed':
    case 'skipped':
      jobs.settleJob(job, { ...common, status: result.status }, details);
      if (result.status === 'completed' && result.rest) endRest(store, job, result.rest);
      else next = nextStep(store, job, handOver);
      break;
    case 'failed': {
      details.push({ status: 'Failed', detail: result.error, source: result.source ?? 'Internal', providerId: run.providerId, raw: result.raw });
      jobs.settleJob(job, { ...common, status: 'failed' }, details);
      const stop = result.stop === true || (job.step as { shouldStopOnFail?: boolean }).shouldStopOnFail === true;
      if (stop) {
        const detail = `Step canceled: step '${job.step.stepId}' failed, and its failure stops the workflow`;
        endRest(store, job, result.rest ?? { status: 'canceled', detail });
      } else next = nextStep(store, job, handOver);
      break;
    }
    case 'delayed':
      jobs.settleJob(job, { ...common, status: 'delayed', runAt: result.until }, details);
      break;
    case 'merged':
    case 'canceled':
      jobs.settleJob(job, { ...common, status: result.status }, details);
      endRest(store, job, result.rest ?? { status: result.status, detail: `Step ${result.status}: step '${job.step.stepId}' ended this event's run` });
      break;
  }
  // The event changed when one of its jobs did (not when a message is read: that is the job's).
  store.activity.touchNotification(job.notificationId);
  return next;
}

/** The handler threw: the job fails with its message (its run's writes were rolled back with it). */
export function recordFailure(store: Store, job: JobRecord, e: unknown, queuedNow = false): void {
  const run = queuedNow ? { ...NOTHING_RECORDED, queuedNow } : NOTHING_RECORDED;
  recordOutcome(store, job, run, { status: 'failed', error: `Step failed: ${(e as Error)?.message ?? String(e)}` });
}

function nextStep(store: Store, job: JobRecord, handOver: boolean): JobRecord | undefined {
  const next = store.jobs.nextPending(job);
  if (next && !handOver) queueJob(store, next, store.clock.now());
  return handOver ? next : undefined;
}

function endRest(store: Store, job: JobRecord, rest: RestOutcome): void {
  for (const j of store.jobs.pendingAfter(job.notificationId, job.stepIndex)) {
    store.jobs.settleJob(j, { status: rest.status }, [{ status: 'Warning', detail: rest.detail, source: 'Internal' }]);
  }
}

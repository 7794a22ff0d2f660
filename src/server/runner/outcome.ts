// What a job's outcome writes: one transition per result its handler returns, in the job's
// transaction, with the details its run recorded. A job that completes or is skipped queues its
// event's next step; one that fails does too, unless its failure stops the workflow; a delay waits;
// merged, canceled or a `rest` end the event's remaining steps.
import type { JsonObject } from '../../api/schemas/common.js';
import type { Store } from '../store/index.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import { queueJob } from './queue.js';
import type { RestOutcome, StepResult } from './types.js';

/** What a run of a job recorded besides its result (an Attempt's fields). */
export interface RunRecord {
  details: readonly DetailInput[];
  providerId?: string | undefined;
  state?: JsonObject | undefined;
  output?: JsonObject | undefined;
}

/** A job that could not run (or whose handler threw: its run's writes were rolled back): nothing recorded. */
export const NOTHING_RECORDED: RunRecord = { details: [] };

/** Writes the job's outcome; returns the event's next job when this queued it (due now). */
export function recordOutcome(store: Store, job: JobRecord, run: RunRecord, result: StepResult): JobRecord | undefined {
  const jobs = store.jobs;
  const details = [...run.details];
  const state = run.output !== undefined ? { ...(run.state ?? job.state), output: run.output } : run.state;
  const common = { providerId: run.providerId, state };
  let next: JobRecord | undefined;
  switch (result.status) {
    case 'completed':
    case 'skipped':
      jobs.settleJob(job, { status: result.status, ...common }, details);
      if (result.status === 'completed' && result.rest) endRest(store, job, result.rest);
      else next = queueNext(store, job);
      break;
    case 'failed': {
      details.push({ status: 'Failed', detail: result.error, source: result.source ?? 'Internal', providerId: run.providerId, raw: result.raw });
      jobs.settleJob(job, { status: 'failed', ...common }, details);
      const stop = result.stop === true || (job.step as { shouldStopOnFail?: boolean }).shouldStopOnFail === true;
      if (stop) {
        const detail = `Step canceled: step '${job.step.stepId}' failed, and its failure stops the workflow`;
        endRest(store, job, result.rest ?? { status: 'canceled', detail });
      } else next = queueNext(store, job);
      break;
    }
    case 'delayed':
      jobs.settleJob(job, { status: 'delayed', ...common, runAt: result.until }, details);
      break;
    case 'merged':
    case 'canceled':
      jobs.settleJob(job, { status: result.status, ...common }, details);
      endRest(store, job, result.rest ?? { status: result.status, detail: `Step ${result.status}: step '${job.step.stepId}' ended this event's run` });
      break;
  }
  // The event changed when one of its jobs did (not when a message is read: that is the job's).
  store.activity.touchNotification(job.notificationId);
  return next;
}

/** The handler threw: the job fails with its message (its run's writes were rolled back with it). */
export function recordFailure(store: Store, job: JobRecord, e: unknown): JobRecord | undefined {
  return recordOutcome(store, job, NOTHING_RECORDED, { status: 'failed', error: `Step failed: ${(e as Error)?.message ?? String(e)}` });
}

function queueNext(store: Store, job: JobRecord): JobRecord | undefined {
  const next = store.jobs.nextPending(job);
  if (!next) return undefined;
  const now = store.clock.now();
  queueJob(store, next, now);
  return { ...next, status: 'queued', runAt: now };
}

function endRest(store: Store, job: JobRecord, rest: RestOutcome): void {
  for (const j of store.jobs.pendingAfter(job.notificationId, job.stepIndex)) {
    store.jobs.settleJob(j, { status: rest.status }, [{ status: 'Warning', detail: rest.detail, source: 'Internal' }]);
  }
}

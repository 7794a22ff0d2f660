// Putting a job in line to run, and the timeline words of a job's life in the runner. Shared by the
// trigger (first step of each notification) and the runner (the next step after one finishes), so
// both record "Step queued" the same way.
import type { Store } from '../store/index.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';

export const STEP_QUEUED: DetailInput = { status: 'Pending', detail: 'Step queued', source: 'Internal' };
/** A job with network work: its call begins (the job is `running` until its outcome is written). */
export const STEP_RUNNING: DetailInput = { status: 'Pending', detail: 'Step running', source: 'Internal' };
/** A job that was `running` when the process stopped runs again at the next start. */
export const STEP_REQUEUED: DetailInput = { status: 'Pending', detail: 'Step queued again: the service stopped while it was running', source: 'Internal' };

export function queueJob(store: Store, job: Pick<JobRecord, 'id' | 'createdAt'>, runAt: number): void {
  store.jobs.settleJob(job, { status: 'queued', runAt }, [STEP_QUEUED]);
}

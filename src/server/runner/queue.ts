// Putting a job in line to run. Shared by the trigger (first step of each notification) and the
// runner (the next step after one finishes), so both record "Step queued" the same way.
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';

export function queueJob(store: Store, job: Pick<JobRecord, 'id' | 'notificationId'>, runAt: number): void {
  store.jobs.updateJob(job.id, { status: 'queued', runAt });
  store.jobs.addDetail(job, { status: 'Pending', detail: 'Step queued', source: 'Internal' });
}

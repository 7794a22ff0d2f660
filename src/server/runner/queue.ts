// Putting a job in line to run. Shared by the trigger (first step of each notification) and the
// runner (the next step after one finishes), so both record "Step queued" the same way.
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';

export function queueJob(store: Store, job: Pick<JobRecord, 'id' | 'notificationId' | 'createdAt'>, runAt: number): void {
  store.jobs.settleJob(job, { status: 'queued', runAt }, [{ status: 'Pending', detail: 'Step queued', source: 'Internal' }]);
}

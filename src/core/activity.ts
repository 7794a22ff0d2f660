// Reading the activity feed: the overall state of a notification from its jobs. Used by the tables,
// `events get`, and `trigger --wait`.
import { TERMINAL_JOB_STATUSES } from '../api/enum-values.js';

export interface JobLike {
  _id?: string;
  type?: string;
  status?: string;
  providerId?: string | null;
  executionDetails?: { status?: string; detail?: string; createdAt?: string }[];
  step?: { name?: string; stepId?: string };
}

export type Outcome = 'delivered' | 'merged' | 'failed' | 'pending' | 'empty';

const TERMINAL = new Set<string>(TERMINAL_JOB_STATUSES);

export function isTerminal(status: string | undefined): boolean {
  return status !== undefined && TERMINAL.has(status);
}

/**
 * failed if any job failed; pending while any job can still change; merged when its steps were merged
 * into an earlier digest of the same window (they go out with it: nothing more happens here);
 * delivered once all are done.
 */
export function outcomeOf(jobs: JobLike[] | undefined): Outcome {
  if (!jobs || jobs.length === 0) return 'empty';
  if (jobs.some((j) => j.status === 'failed')) return 'failed';
  if (jobs.some((j) => !isTerminal(j.status))) return 'pending';
  if (jobs.some((j) => j.status === 'merged')) return 'merged';
  return 'delivered';
}

/** A one-word status for a notification row. */
export function statusOf(jobs: JobLike[] | undefined): string {
  if (!jobs || jobs.length === 0) return '-';
  if (jobs.some((j) => j.status === 'failed')) return 'failed';
  const open = jobs.find((j) => !isTerminal(j.status));
  if (open) return open.status ?? 'pending';
  return 'completed';
}

export function lastDetail(job: JobLike): { status?: string; detail?: string; createdAt?: string } | undefined {
  const d = job.executionDetails;
  return d?.length ? d[d.length - 1] : undefined;
}

// The overall status of one event (a notification) from its jobs, as support staff need to read it:
// did anything go out, and if not, why. A notification whose every channel step was skipped, throttled
// or merged into a digest is not "completed": nothing was sent for it. Pure; used by the tables,
// `events get`, `events list --status`, `events browse` and `trigger --wait`.
import { CHANNELS, TERMINAL_JOB_STATUSES } from '../api/enum-values.js';

export interface StatusJob {
  type?: string;
  status?: string;
  executionDetails?: { status?: string; detail?: string; createdAt?: string; raw?: string }[];
  step?: { name?: string; stepId?: string };
}

/**
 * - `failed`     a step failed
 * - `pending`    a step can still change (queued, running, waiting in a delay or a digest window)
 * - `delivered`  at least one channel step (in_app, email, sms, chat, push) was sent
 * - `merged`     no channel step was sent: they were merged into an earlier digest (they go out with it)
 * - `throttled`  no channel step was sent: a throttle step held them back
 * - `skipped`    no channel step was sent: skip conditions, step filters or preferences
 * - `canceled`   the steps were canceled
 * - `completed`  every step completed and the workflow has no channel step (action steps only)
 * - `none`       no jobs recorded
 */
export const EVENT_STATUSES = ['delivered', 'failed', 'pending', 'merged', 'throttled', 'skipped', 'canceled', 'completed', 'none'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** The step types that send something (the rest are actions: delay, digest, throttle, custom, ...). */
export const CHANNEL_STEPS: ReadonlySet<string> = new Set<string>(CHANNELS);
const CHANNEL = CHANNEL_STEPS;
const TERMINAL = new Set<string>(TERMINAL_JOB_STATUSES);

export const isChannelStep = (job: StatusJob): boolean => job.type !== undefined && CHANNEL.has(job.type);
const last = (job: StatusJob) => {
  const d = job.executionDetails;
  return d && d.length ? d[d.length - 1] : undefined;
};
const throttledBy = (job: StatusJob) =>
  (job.type === 'throttle' && /^throttled\b/i.test(last(job)?.detail ?? '')) || (job.status === 'skipped' && /\bthrottled by\b/i.test(last(job)?.detail ?? ''));

export function eventStatus(jobs: readonly StatusJob[] | undefined): EventStatus {
  if (!jobs || jobs.length === 0) return 'none';
  if (jobs.some((j) => j.status === 'failed')) return 'failed';
  if (jobs.some((j) => j.status === undefined || !TERMINAL.has(j.status))) return 'pending';
  const channel = jobs.filter(isChannelStep);
  if (channel.some((j) => j.status === 'completed')) return 'delivered';
  if (channel.length === 0) {
    if (jobs.every((j) => j.status === 'completed')) return 'completed';
  }
  if (jobs.some((j) => j.status === 'merged')) return 'merged';
  if (jobs.some(throttledBy)) return 'throttled';
  if (jobs.some((j) => j.status === 'skipped')) return 'skipped';
  if (jobs.some((j) => j.status === 'canceled')) return 'canceled';
  return 'completed';
}

/** Nothing went out for this event and nothing more will happen to it (merged goes out with its digest). */
export const nothingDelivered = (s: EventStatus): boolean => s === 'skipped' || s === 'throttled' || s === 'canceled';

/**
 * What `--status` accepts: every overall status, plus `completed` meaning every step finished
 * (delivered, merged, skipped, throttled or completed).
 */
export function matchesStatus(status: EventStatus, wanted: string): boolean {
  if (wanted === status) return true;
  if (wanted === 'completed') return status === 'delivered' || status === 'merged' || status === 'skipped' || status === 'throttled';
  return false;
}

export const STATUS_FILTERS: readonly string[] = EVENT_STATUSES;

/** The first failure of an event as one line: "chat: Subscriber has no chat destination for slack…". */
export function firstFailure(jobs: readonly StatusJob[] | undefined): string | undefined {
  const job = jobs?.find((j) => j.status === 'failed');
  if (!job) return undefined;
  const detail = [...(job.executionDetails ?? [])].reverse().find((d) => /fail|error/i.test(d.status ?? ''))?.detail ?? last(job)?.detail;
  return `${job.type ?? 'step'}: ${(detail ?? 'failed').replace(/\s+/g, ' ')}`;
}

/** Why nothing went out (skipped, throttled, merged), as one line, or the first failure. */
export function reasonOf(jobs: readonly StatusJob[] | undefined): string | undefined {
  const failure = firstFailure(jobs);
  if (failure) return failure;
  const s = eventStatus(jobs);
  if (s === 'throttled') return (jobs ?? []).map(last).find((d) => /^throttled\b/i.test(d?.detail ?? ''))?.detail;
  if (s === 'merged' || s === 'skipped') {
    const job = (jobs ?? []).find((j) => isChannelStep(j) && j.status === s) ?? (jobs ?? []).find((j) => j.status === s);
    return job ? last(job)?.detail : undefined;
  }
  return undefined;
}

// Reading the activity feed: the outcome of a notification for `trigger --wait`, and the link a person
// opens. The rules are core/status.ts's (skipped, throttled and merged events are not "completed":
// nothing went out for them; an event with a channel skipped beside a delivered one is `partial`).
import { eventStatus, isSettled, type StatusJob } from './status.js';

export interface JobLike extends StatusJob {
  _id?: string;
}

/**
 * A recipient's outcome in `trigger --wait`; partial: something was delivered and another channel was
 * not; skipped, throttled and canceled mean nothing was delivered.
 */
export type Outcome = 'delivered' | 'partial' | 'merged' | 'failed' | 'pending' | 'empty' | 'skipped' | 'throttled' | 'canceled';

export const isTerminal = isSettled;

/**
 * failed if any job failed; pending while any job can still change; delivered once every channel step
 * was sent (or, for a workflow of action steps only, once all completed); partial when one was sent and
 * another skipped; merged when its steps were merged into an earlier digest of the same window (they go
 * out with it); skipped, throttled or canceled when nothing was sent.
 */
export function outcomeOf(jobs: JobLike[] | undefined): Outcome {
  const s = eventStatus(jobs);
  if (s === 'none') return 'empty';
  if (s === 'completed') return 'delivered';
  return s;
}

/** A one-word status for a notification row: delivered, failed, pending, merged, throttled, skipped... */
export function statusOf(jobs: JobLike[] | undefined): string {
  const s = eventStatus(jobs);
  return s === 'none' ? '-' : s;
}

export function lastDetail(job: JobLike): { status?: string; detail?: string; createdAt?: string } | undefined {
  const d = job.executionDetails;
  return d?.length ? d[d.length - 1] : undefined;
}

/** Where `svc dev` serves its web console (the server's CONSOLE_PATH), and its activity page's route. */
const CONSOLE_ACTIVITY = '/console/#/activity';

/**
 * The activity link a person can open: the service's link when it is a page, but a raw API URL
 * (`…/v1/notifications?transactionId=…`, which a browser is refused without the key) becomes the local
 * console's page of that transaction, served beside the API by `svc dev`.
 */
export function browserActivityLink(link: string, transactionId: string | undefined): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return link;
  }
  if (!/\/v1\/notifications\/?$/.test(url.pathname)) return link;
  const txn = transactionId ?? url.searchParams.get('transactionId') ?? undefined;
  const base = `${url.origin}${url.pathname.replace(/\/v1\/notifications\/?$/, '')}`;
  return `${base}${CONSOLE_ACTIVITY}${txn ? `?transaction=${encodeURIComponent(txn)}` : ''}`;
}

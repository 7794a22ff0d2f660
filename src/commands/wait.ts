// trigger --wait: follows a transaction's activity until every job of every recipient has finished (or
// the wait times out), then reports each recipient's outcome, step by step. On a terminal, each step's
// state is shown on stderr as it changes. When nothing went out (every channel step skipped or
// throttled), the outcome says so and the exit code is 10 (cli.md, README).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from '../api/session.js';
import { isTerminal, lastDetail, outcomeOf, type JobLike, type Outcome } from '../core/activity.js';
import { isChannelStep, judge, stepReason } from '../core/status.js';
import { formatDuration } from '../core/duration.js';
import { InterruptedError, SvcError, WaitOutcomeError } from '../core/errors.js';
import type { Deps } from '../deps.js';
import { stepChanges } from '../io/timeline.js';

interface StepOutcome {
  type: string;
  status: string;
  /** A channel step's own outcome (core/status.ts): delivered, skipped, throttled, failed, ...; null for an action step. */
  outcome: string | null;
  providerId: string | null;
  /** The step's last execution detail. */
  detail: string | null;
  /** Why the step was skipped, failed, canceled or merged (its execution details), else null. */
  reason: string | null;
}
interface RecipientOutcome {
  subscriberId: string | null;
  notificationId: string | null;
  outcome: Outcome;
  /** Why: the failure, the channel not delivered and why, or why nothing went out. */
  reason: string | null;
  steps: StepOutcome[];
}
interface WaitResult {
  transactionId: string;
  /** partial: delivered on some channel, not on another (exit 0); skipped, throttled, canceled: nothing was delivered (exit 10). */
  outcome: 'delivered' | 'partial' | 'merged' | 'failed' | 'pending' | 'skipped' | 'throttled' | 'canceled';
  waitedMs: number;
  recipients: RecipientOutcome[];
}

interface Notification {
  _id?: string;
  subscriber?: { subscriberId?: string };
  _subscriberId?: string;
  jobs?: JobLike[];
}

/** Waits between polls; the timer and its abort listener go with the wait (one listener per poll piled up before). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (e) {
    if (signal.aborted) throw new InterruptedError();
    throw e;
  }
}

async function fetchAll(api: Api, transactionId: string): Promise<Notification[]> {
  const out: Notification[] = [];
  for (let page = 0; page < 100; page++) {
    const res = await api.call<{ data: Notification[]; hasMore?: boolean }>('listEvents', { query: { transactionId, page, limit: 50 } });
    if (!res) break;
    out.push(...res.data.data);
    if (!res.data.hasMore || res.data.data.length === 0) break;
  }
  // The list may leave jobs out; the detail always has them.
  for (const n of out) {
    if (!Array.isArray(n.jobs) && n._id) {
      const d = await api.call<Notification>('getEvent', { params: { notificationId: n._id } });
      n.jobs = d?.data.jobs ?? [];
    }
  }
  return out;
}

function recipientOutcome(n: Notification): RecipientOutcome {
  const jobs = n.jobs ?? [];
  const judged = judge(jobs);
  let channel = 0;
  return {
    subscriberId: n.subscriber?.subscriberId ?? n._subscriberId ?? null,
    notificationId: n._id ?? null,
    outcome: outcomeOf(jobs),
    reason: judged.reason ?? null,
    steps: jobs.map((j) => {
      const settledOtherwise = isTerminal(j.status) && j.status !== 'completed';
      return {
        type: j.type ?? '?',
        status: j.status ?? '?',
        outcome: isChannelStep(j) ? (judged.channels[channel++]?.outcome ?? null) : null,
        providerId: j.providerId ?? null,
        detail: lastDetail(j)?.detail ?? null,
        reason: settledOtherwise ? (stepReason(j) ?? null) : null,
      };
    }),
  };
}

/**
 * Polls the activity of a transaction: first every 250 ms, slowing to every 2 s. `expected` is the
 * number of recipients when it is known (no topics): the wait also covers notifications that the
 * service has not created yet.
 */
export async function waitForTransaction(deps: Deps, transactionId: string, expected: number | undefined, timeoutMs: number): Promise<WaitResult> {
  const api = await deps.client();
  const started = deps.now();
  // Each step's state as it changes, for a person watching (stderr on a terminal, not with --quiet).
  const progress = deps.io.stderr.isTTY === true && !deps.globals.quiet;
  const seen = new Map<string, string>();
  let interval = 250;
  let stableRounds = 0;
  let lastCount = -1;
  for (;;) {
    const notifications = await fetchAll(api, transactionId);
    const allDone = notifications.length > 0 && notifications.every((n) => (n.jobs ?? []).every((j) => isTerminal(j.status)));
    const enough = expected !== undefined ? notifications.length >= expected : (stableRounds = notifications.length === lastCount ? stableRounds + 1 : 0) >= 1;
    lastCount = notifications.length;
    const waited = deps.now() - started;
    if (progress) for (const line of stepChanges(seen, notifications.map(recipientOutcome))) deps.io.stderr.write(`${line}\n`);
    if ((allDone && enough) || waited >= timeoutMs) {
      const recipients = notifications.map(recipientOutcome);
      return { transactionId, outcome: overall(recipients, allDone && enough), waitedMs: waited, recipients };
    }
    await pause(Math.min(interval, Math.max(0, timeoutMs - waited)), deps.signal);
    interval = Math.min(2000, Math.round(interval * 1.5));
  }
}

/** The transaction's outcome: failed, pending, delivered to someone, merged, or nothing delivered and why. */
function overall(recipients: RecipientOutcome[], finished: boolean): WaitResult['outcome'] {
  if (recipients.some((r) => r.outcome === 'failed')) return 'failed';
  if (!finished) return 'pending';
  if (recipients.some((r) => r.outcome === 'partial')) return 'partial';
  if (recipients.some((r) => r.outcome === 'delivered')) return 'delivered';
  if (recipients.some((r) => r.outcome === 'merged')) return 'merged';
  if (recipients.some((r) => r.outcome === 'throttled')) return 'throttled';
  if (recipients.some((r) => r.outcome === 'skipped')) return 'skipped';
  if (recipients.some((r) => r.outcome === 'canceled')) return 'canceled';
  return 'delivered';
}

/** `trigger --wait`: every job finished and nothing was delivered (every channel step skipped or throttled). */
const EXIT_NOTHING_DELIVERED = 10;

class NothingDeliveredError extends SvcError {
  constructor(message: string) {
    super(message, 'nothing_delivered', EXIT_NOTHING_DELIVERED);
  }
}

/** Exit 9 when a job failed, 8 when some are still pending, 10 when nothing was delivered (cli.md, README). */
export function checkOutcome(r: WaitResult, timeoutMs: number): void {
  if (r.outcome === 'failed') {
    const failed = r.recipients.filter((x) => x.outcome === 'failed');
    const first = failed[0]?.steps.find((s) => s.status === 'failed');
    throw new WaitOutcomeError(
      'failed',
      `delivery failed for ${failed.length} of ${r.recipients.length} recipient(s)${first ? `: ${first.type}: ${first.reason ?? first.detail ?? 'failed'}` : ''}`,
    );
  }
  if (r.outcome === 'pending') {
    const n = r.recipients.filter((x) => x.outcome === 'pending' || x.outcome === 'empty').length;
    throw new WaitOutcomeError('pending', `still pending after ${formatDuration(timeoutMs)}: ${n || 'some'} recipient(s) have jobs that have not finished`);
  }
  if (r.outcome === 'skipped' || r.outcome === 'throttled' || r.outcome === 'canceled') {
    const first = r.recipients.find((x) => x.reason)?.reason;
    throw new NothingDeliveredError(
      `nothing delivered: every channel step was ${r.outcome} for ${r.recipients.length} recipient(s)${first ? `: ${first}` : ''}`,
    );
  }
}

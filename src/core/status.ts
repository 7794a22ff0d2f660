// The derived status of one event (a notification), judged from its jobs: did it go out, on which
// channels, and if not, why. Defined once here and used by every place that shows or filters it: the
// table, TSV and JSON outputs (the `derived` field), `trigger --wait`, `events watch`, `events browse`,
// the console, and `svc dev`'s store when it filters the feed by status. Pure, and on plain shapes:
// no import from the API layer, so the store, the terminal and the browser all judge alike.

/** The steps that send something; the others (delay, digest, throttle, custom, http_request) are actions. */
export const CHANNEL_TYPES = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
/** A job in one of these states will not change any more. */
export const SETTLED_JOB_STATUSES = ['completed', 'failed', 'canceled', 'merged', 'skipped'] as const;

interface StatusDetail {
  status?: string;
  detail?: string;
  createdAt?: string;
  raw?: string | null;
}

export interface StatusJob {
  type?: string;
  status?: string;
  providerId?: string | null;
  executionDetails?: StatusDetail[];
  step?: { name?: string; stepId?: string };
}

/**
 * - `delivered`  every channel step was sent
 * - `partial`    some channel step was sent, another was skipped or canceled (the reason says which, why)
 * - `failed`     a step failed
 * - `pending`    a step can still change (queued, running, waiting in a delay or a digest window)
 * - `merged`     no channel step was sent: they were merged into an earlier digest (they go out with it)
 * - `throttled`  no channel step was sent: a throttle step held them back
 * - `skipped`    no channel step was sent: skip conditions, step filters or preferences
 * - `canceled`   the steps were canceled
 * - `completed`  every step completed and the workflow has no channel step (action steps only)
 * - `none`       no jobs recorded (or, judging some channels, no step of them)
 */
export const EVENT_STATUSES = ['delivered', 'partial', 'failed', 'pending', 'merged', 'throttled', 'skipped', 'canceled', 'completed', 'none'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** One channel step's own outcome. */
type ChannelOutcome = 'delivered' | 'failed' | 'pending' | 'skipped' | 'throttled' | 'merged' | 'canceled';

interface StepOutcome {
  /** The step's id in its workflow, when the service says. */
  stepId?: string;
  channel: string;
  outcome: ChannelOutcome;
  /** Why it was not sent (or failed), from its execution details, one line. */
  reason?: string;
}

interface Judgement {
  status: EventStatus;
  /** Why: the first failure, or which channel was not sent and why, or why nothing went out. One line. */
  reason?: string;
  /** Each channel step (of the channels judged), in workflow order. */
  channels: StepOutcome[];
}

export interface JudgeScope {
  /** Judge only these channels' steps (`--channel email` judges the email step's own outcome). */
  channels?: readonly string[] | undefined;
}

const CHANNEL: ReadonlySet<string> = new Set<string>(CHANNEL_TYPES);
const SETTLED: ReadonlySet<string> = new Set<string>(SETTLED_JOB_STATUSES);
/** What the subscriber did with a delivered message, as the timeline records it (not a provider's word). */
const SUBSCRIBER_DID = new Set(['Message read', 'Message seen', 'Message unread', 'Message snoozed', 'Message unsnoozed']);
/** Details every job writes on its way (not a reason for anything). */
const PROGRESS = new Set(['Step queued', 'Step running', 'Message created', 'Start sending message']);

export const isChannelStep = (job: StatusJob): boolean => job.type !== undefined && CHANNEL.has(job.type);
export const isSettled = (status: string | undefined): boolean => status !== undefined && SETTLED.has(status);

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
const lastOf = (job: StatusJob): StatusDetail | undefined => {
  const d = job.executionDetails;
  return d?.length ? d[d.length - 1] : undefined;
};
const throttleHeld = (job: StatusJob) => job.type === 'throttle' && /^throttled\b/i.test(lastOf(job)?.detail ?? '');
const throttledBy = (job: StatusJob) => job.status === 'skipped' && /\bthrottled by\b/i.test(lastOf(job)?.detail ?? '');

/** Why a job ended as it did: its failure, or the last detail that is not routine progress. */
export function stepReason(job: StatusJob): string | undefined {
  const list = job.executionDetails ?? [];
  let found: StatusDetail | undefined;
  if (job.status === 'failed') found = [...list].reverse().find((d) => /fail|error/i.test(d.status ?? ''));
  found ??= [...list].reverse().find((d) => d.detail !== undefined && !PROGRESS.has(d.detail));
  found ??= lastOf(job);
  const text = found?.detail !== undefined ? oneLine(String(found.detail)) : '';
  return text === '' ? undefined : text;
}

function channelOutcome(job: StatusJob): ChannelOutcome {
  switch (job.status) {
    case 'completed':
      return 'delivered';
    case 'failed':
    case 'merged':
    case 'canceled':
      return job.status;
    case 'skipped':
      return throttledBy(job) ? 'throttled' : 'skipped';
    default:
      return 'pending';
  }
}

const stepOf = (job: StatusJob): StepOutcome => {
  const outcome = channelOutcome(job);
  const reason = outcome === 'delivered' || outcome === 'pending' ? undefined : stepReason(job);
  return {
    ...(job.step?.stepId !== undefined && { stepId: job.step.stepId }),
    channel: job.type!,
    outcome,
    ...(reason !== undefined && { reason }),
  };
};

/** `email: <why>` for a failure (the status says failed), `email skipped: <why>` beside a delivered channel. */
const said = (job: StatusJob, what?: string) => {
  const why = stepReason(job);
  const head = `${job.type ?? 'step'}${what ? ` ${what}` : ''}`;
  return why ? `${head}: ${why}` : what ? head : `${head}: failed`;
};

/** The derived status of an event from its jobs, with the reason and each channel step's outcome. */
export function judge(jobs: readonly StatusJob[] | undefined, scope: JudgeScope = {}): Judgement {
  const all = jobs ?? [];
  const only = scope.channels?.length ? new Set(scope.channels) : undefined;
  const inScope = only ? all.filter((j) => j.type !== undefined && only.has(j.type)) : all;
  const channelJobs = inScope.filter(isChannelStep);
  const channels = channelJobs.map(stepOf);
  if (inScope.length === 0) return { status: 'none', channels };
  const failed = inScope.find((j) => j.status === 'failed');
  if (failed) return { status: 'failed', reason: said(failed), channels };
  if (inScope.some((j) => !isSettled(j.status))) return { status: 'pending', channels };
  const sent = channelJobs.some((j) => j.status === 'completed');
  if (sent) {
    const missed = channelJobs.find((j) => j.status === 'skipped' || j.status === 'canceled');
    if (!missed) return { status: 'delivered', ...reasonField(afterDelivery(channelJobs)), channels };
    return { status: 'partial', reason: said(missed, channelOutcome(missed)), channels };
  }
  if (channelJobs.length === 0 && inScope.every((j) => j.status === 'completed')) return { status: 'completed', channels };
  const merged = channelJobs.find((j) => j.status === 'merged') ?? inScope.find((j) => j.status === 'merged');
  if (merged) return { status: 'merged', ...reasonField(stepReason(merged)), channels };
  if (inScope.some(throttledBy)) {
    const held = all.find(throttleHeld);
    return { status: 'throttled', ...reasonField(held ? stepReason(held) : stepReason(inScope.find(throttledBy)!)), channels };
  }
  const skipped = channelJobs.find((j) => j.status === 'skipped') ?? inScope.find((j) => j.status === 'skipped');
  if (skipped) return { status: 'skipped', ...reasonField(stepReason(skipped)), channels };
  const canceled = inScope.find((j) => j.status === 'canceled');
  if (canceled) return { status: 'canceled', ...reasonField(stepReason(canceled)), channels };
  return { status: 'completed', channels };
}

/**
 * What a provider reported after a message was sent (a complaint, an automatic reply): the reason of a
 * delivered event, which stays delivered. The last detail written after a step's `Message sent…`
 * that is the provider's word, not what the subscriber did with it (read, seen, snoozed).
 */
function afterDelivery(channelJobs: readonly StatusJob[]): string | undefined {
  for (const job of channelJobs) {
    if (job.status !== 'completed') continue;
    const list = job.executionDetails ?? [];
    const sentAt = list.findLastIndex((d) => /^Message sent\b/.test(String(d.detail ?? '')));
    const fromProvider = (d: StatusDetail) =>
      d.detail !== undefined && !PROGRESS.has(d.detail) && !SUBSCRIBER_DID.has(d.detail) && d.status !== 'ReadConfirmation';
    const later = sentAt < 0 ? undefined : list.slice(sentAt + 1).findLast(fromProvider);
    if (later) return `${job.type}: ${oneLine(String(later.detail))}`;
  }
  return undefined;
}

const reasonField = (reason: string | undefined) => (reason !== undefined ? { reason } : {});

/** The derived status alone. */
export const eventStatus = (jobs: readonly StatusJob[] | undefined, scope?: JudgeScope): EventStatus => judge(jobs, scope).status;

/** The reason alone (why it failed, which channel was not sent and why, or why nothing went out). */
export const reasonOf = (jobs: readonly StatusJob[] | undefined, scope?: JudgeScope): string | undefined => judge(jobs, scope).reason;

/** Nothing went out for this event and nothing more will happen to it (merged goes out with its digest). */
export const nothingDelivered = (s: EventStatus): boolean => s === 'skipped' || s === 'throttled' || s === 'canceled';

/** The statuses a `--status` value stands for: itself, or for `completed` every finished one. */
export function statusesFor(wanted: string): EventStatus[] {
  if (wanted === 'completed') return ['completed', 'delivered', 'partial', 'merged', 'skipped', 'throttled'];
  return (EVENT_STATUSES as readonly string[]).includes(wanted) ? [wanted as EventStatus] : [];
}

export function matchesStatus(status: EventStatus, wanted: string): boolean {
  return statusesFor(wanted).includes(status);
}

/**
 * For a store that filters by status: the job statuses of which an event of that status has at least
 * one (among the steps judged). A cheap test that rules most events out before they are judged; the
 * judgement itself is always judge()'s. Undefined: no such test (every event must be judged).
 */
export function jobStatusesNeeded(status: EventStatus): readonly string[] | undefined {
  switch (status) {
    case 'failed':
      return ['failed'];
    case 'pending':
      return ['pending', 'queued', 'running', 'delayed'];
    case 'partial':
      return ['skipped', 'canceled'];
    case 'merged':
      return ['merged'];
    case 'throttled':
    case 'skipped':
      return ['skipped'];
    case 'canceled':
      return ['canceled'];
    case 'delivered':
      return ['completed'];
    default:
      return undefined;
  }
}

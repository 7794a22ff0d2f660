// Canceling a transaction's events (DELETE /v1/events/trigger/{transactionId}): every job of them that
// has not run yet is canceled, and a digest that was collecting events for a group hands the group to
// the oldest event merged into it, so that the other events of the group still go out.
import { iso } from '../clock.js';
import type { Store } from '../store/index.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';

/** What cancelTransaction did: how many jobs it canceled, and the digests it handed on. */
interface CancelOutcome {
  canceled: number;
  /** The events whose jobs changed: the transaction's, and those of a digest handed on. */
  events: Set<string>;
  /** A canceled digest that was collecting events, and the follower that now collects them. */
  handedOver: { from: JobRecord; to: JobRecord }[];
}

/** The jobs of an event that have not run yet: cancel takes them back. */
const NOT_RUN: ReadonlySet<string> = new Set(['pending', 'queued', 'delayed']);

/**
 * Cancels every job of the transaction's events (in this environment) that has not run yet: pending,
 * queued, delayed (a delay, or a digest still collecting), and a digest merged into one still
 * collecting (with its event's steps that were not run because of the merge: the event leaves that
 * digest). Running, completed and failed jobs are left alone. Each canceled job gets `detail`.
 */
export function cancelTransaction(store: Store, envId: string, transactionId: string, detail: DetailInput): CancelOutcome {
  const outcome: CancelOutcome = { canceled: 0, events: new Set(), handedOver: [] };
  const byEvent = new Map<string, JobRecord[]>();
  for (const job of store.jobs.jobsOfTransaction(envId, transactionId)) {
    const list = byEvent.get(job.notificationId) ?? [];
    list.push(job);
    byEvent.set(job.notificationId, list);
  }
  const collecting: JobRecord[] = [];
  for (const jobs of byEvent.values()) {
    let leftDigest = false;
    for (const job of jobs) {
      const mergedInto = job.state.mergedInto;
      if (job.status === 'merged' && job.type === 'digest' && typeof mergedInto === 'string') {
        // Merged into a digest that has not gone out yet: this event is taken out of it.
        leftDigest = store.jobs.job(mergedInto)?.status === 'delayed';
        if (!leftDigest) continue;
      } else if (!(NOT_RUN.has(job.status) || (leftDigest && job.status === 'merged'))) continue;
      store.jobs.settleJob(job, { status: 'canceled' }, [detail]);
      outcome.canceled++;
      outcome.events.add(job.notificationId);
      if (job.type === 'digest' && job.status === 'delayed' && job.groupKey && typeof job.state.collectingUntil === 'number') collecting.push(job);
    }
  }
  for (const leader of collecting) {
    const heir = handOver(store, leader);
    if (heir) {
      outcome.handedOver.push({ from: leader, to: heir });
      outcome.events.add(heir.notificationId);
    }
  }
  return outcome;
}

/**
 * A canceled digest's group goes on: its oldest follower collects the group's events until the same
 * time, its event's steps after the digest are pending again, and the other followers are merged into
 * it (their events name its event). Returns the heir, if the digest had a follower.
 */
function handOver(store: Store, leader: JobRecord): JobRecord | undefined {
  const [heir, ...others] = store.jobs.digestFollowers(leader.groupKey!, leader.id);
  if (!heir) return undefined;
  const until = leader.state.collectingUntil as number;
  const { mergedInto: _, ...state } = heir.state;
  store.jobs.settleJob(heir, { status: 'delayed', runAt: leader.runAt, state: { ...state, collectingUntil: until } }, [
    {
      status: 'Pending',
      detail: `Step digested: the digest of notification ${leader.notificationId} was canceled, so this event collects the group's events until ${iso(until)}`,
      source: 'Internal',
    },
  ]);
  for (const later of store.jobs.jobsOf([heir.notificationId])) {
    if (later.stepIndex <= heir.stepIndex || later.status !== 'merged') continue;
    store.jobs.settleJob(later, { status: 'pending' }, [
      { status: 'Pending', detail: "Step pending again: this event's digest now goes out", source: 'Internal' },
    ]);
  }
  for (const follower of others) {
    store.jobs.setState(follower.id, { ...follower.state, mergedInto: heir.id });
    store.activity.setDigestedInto(follower.notificationId, heir.notificationId);
  }
  store.activity.setDigestedInto(heir.notificationId, undefined);
  return { ...heir, status: 'delayed', runAt: leader.runAt };
}

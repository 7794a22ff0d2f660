// The rules of a subscriber's in-app notifications, whichever door a change comes through (the Inbox's
// routes with a session token, or the operator API's `/v2/subscribers/{id}/notifications` with an API
// key): what one change does beyond the message (read-state.ts), the snooze limits, what each bulk
// mark touches, and the telling of connected Inboxes (the message listeners: the realtime socket
// sends its count events once the write has committed, and announces a snoozed message again when
// its snooze ends).
import { HttpError } from './errors.js';
import { recordReadState } from './read-state.js';
import type { InboxChange, InboxFilter, InboxMessage } from './store/inbox.js';
import type { Store } from './store/index.js';

/** The Inbox's snooze limit, in hours (the service's paid plans: 90 days). */
export const MAX_SNOOZE_HOURS = 90 * 24;

/** The change a snooze until `snoozeUntil` (an ISO date) makes at service time `now`; 400 outside the limits. */
export function snoozeChange(snoozeUntil: string, now: number): InboxChange {
  const until = Date.parse(snoozeUntil);
  if (until <= now) throw new HttpError(400, 'Snooze time must be in the future');
  if (until - now > MAX_SNOOZE_HOURS * 3_600_000) throw new HttpError(400, `Snooze time must be at most ${MAX_SNOOZE_HOURS} hours from now`);
  return { kind: 'snooze', until };
}

function tell(store: Store, subscriberDbId: string, messageId: string, snoozedUntil?: number | null): void {
  store.messages.announce({ kind: 'changed', subscriberDbId, messageId, channel: 'in_app', ...(snoozedUntil !== undefined && { snoozedUntil }) });
}

/**
 * One change to one of the subscriber's messages, and what a read or a view changes beyond it, as the
 * operator's mark-as does: the step's state for later steps, and the timeline's ReadConfirmation.
 * Connected Inboxes are told. The message as it now is (none: not the subscriber's in-app message).
 */
export function changeNotification(store: Store, subscriberDbId: string, id: string, change: InboxChange): InboxMessage | undefined {
  const before = store.inbox.get(subscriberDbId, id);
  const after = store.inbox.change(subscriberDbId, id, change);
  if (!before || !after) return after;
  const became = (key: 'read' | 'seen', value: boolean) => before.doc[key] !== value && after.doc[key] === value;
  if (became('read', true)) recordReadState(store, [after], 'read');
  else if (became('seen', true)) recordReadState(store, [after], 'seen');
  else if (became('read', false)) recordReadState(store, [after], 'unread');
  if (change.kind === 'snooze' || (change.kind === 'unsnooze' && before.snoozedUntil !== null)) {
    const detail = change.kind === 'snooze' ? 'Message snoozed' : 'Message unsnoozed';
    store.jobs.addDetail(
      { id: after.jobId, notificationId: after.doc._notificationId },
      { status: change.kind === 'snooze' ? 'Pending' : 'Success', detail, source: 'Internal' },
    );
  }
  tell(store, subscriberDbId, after.id, change.kind === 'snooze' ? change.until : change.kind === 'unsnooze' ? null : undefined);
  return after;
}

/**
 * The subscriber's snoozed messages whose snooze has ended come back (store/inbox.ts wakeSnoozed), with
 * the timeline's "Message unsnoozed"; connected Inboxes are told. Run before a read of the subscriber's
 * messages, and when a snooze's timer fires: the result is the same whenever it runs.
 */
export function wakeSnoozed(store: Store, subscriberDbId: string, now: number): void {
  for (const m of store.inbox.wakeSnoozed(subscriberDbId, now)) {
    store.jobs.addDetail({ id: m.jobId, notificationId: m.doc._notificationId }, { status: 'Success', detail: 'Message unsnoozed', source: 'Internal' });
    tell(store, subscriberDbId, m.id);
  }
}

/** Deletes one of the subscriber's in-app messages; connected Inboxes are told (and its snooze forgotten). */
export function removeNotification(store: Store, subscriberDbId: string, id: string): boolean {
  if (!store.inbox.remove(subscriberDbId, id)) return false;
  tell(store, subscriberDbId, id.toLowerCase(), null);
  return true;
}

export type BulkMark = 'read' | 'archive' | 'read-archive' | 'delete';

/** What each bulk mark touches (besides the caller's tags and data) and what it does to each. */
export const BULK_MARKS: Record<BulkMark, { filter: InboxFilter; change: InboxChange | 'delete' }> = {
  read: { filter: { read: false }, change: { kind: 'read' } },
  archive: { filter: { archived: false }, change: { kind: 'archive' } },
  'read-archive': { filter: { read: true, archived: false }, change: { kind: 'archive' } },
  delete: { filter: {}, change: 'delete' },
};

/** A bulk mark over the subscriber's messages that `filter` (tags, data) matches; the ids it changed. */
export function bulkMark(store: Store, subscriberDbId: string, mark: BulkMark, filter: InboxFilter): string[] {
  const b = BULK_MARKS[mark];
  const ids = store.inbox.matching(subscriberDbId, { ...filter, ...b.filter });
  for (const id of ids) {
    if (b.change === 'delete') removeNotification(store, subscriberDbId, id);
    else changeNotification(store, subscriberDbId, id, b.change);
  }
  return ids;
}

/** Marks seen the unseen messages `filter` matches (of `ids` only, when given). */
export function markSeen(store: Store, subscriberDbId: string, filter: InboxFilter, ids?: string[]): void {
  for (const id of store.inbox.matching(subscriberDbId, { ...filter, seen: false }, ids)) changeNotification(store, subscriberDbId, id, { kind: 'seen' });
}

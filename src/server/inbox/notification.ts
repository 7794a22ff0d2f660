// An in-app message as the Inbox sees it: the list's InboxNotification, and the realtime event's
// message (the stored message with its subscriber, workflow, tags and severity, which the client maps
// itself and whose `cta` it reads without checking).
import type { InboxNotification } from '../../api/schemas/inbox.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { InboxMessage } from '../store/inbox.js';
import type { Store } from '../store/index.js';

type Severity = InboxNotification['severity'];
const SEVERITIES = new Set(['high', 'medium', 'low', 'none']);
const severityOf = (s: string): Severity => (SEVERITIES.has(s) ? (s as Severity) : 'none');

interface Cta {
  type?: string;
  data?: { url?: string; target?: string };
  action?: { status?: string; buttons?: { type: string; content: string; url?: string; target?: string }[]; result?: { type?: string } };
}

export type WorkflowInfo = NonNullable<InboxNotification['workflow']>;

/** The workflow of a message, as the Inbox names it (memoized per call site by the caller). */
export function workflowInfo(store: Store, m: InboxMessage): WorkflowInfo | undefined {
  const w = m.workflowDbId ? store.workflows.findById(m.workflowDbId) : undefined;
  if (!w) return undefined;
  return { id: w._id, identifier: w.workflowId, name: w.name, critical: w.critical, tags: w.tags, severity: severityOf(w.severity) };
}

const redirectOf = (url: string | undefined, target: string | undefined) => (url ? { url, ...(target !== undefined && { target }) } : undefined);

export function toInboxNotification(m: InboxMessage, subscriber: Subscriber, workflow: WorkflowInfo | undefined, now: number): InboxNotification {
  const doc = m.doc as InboxMessage['doc'] & Record<string, unknown>;
  const cta = (doc.cta ?? {}) as Cta;
  const buttons = cta.action?.buttons ?? [];
  const done = cta.action?.status === 'done' ? cta.action.result?.type : undefined;
  const action = (type: 'primary' | 'secondary') => {
    const b = buttons.find((x) => x.type === type);
    if (!b) return undefined;
    const redirect = redirectOf(b.url, b.target);
    return { label: b.content, isCompleted: done === type, ...(redirect && { redirect }) };
  };
  const primaryAction = action('primary');
  const secondaryAction = action('secondary');
  const redirect = redirectOf(cta.data?.url, cta.data?.target);
  const snoozed = m.snoozedUntil !== null && m.snoozedUntil > now;
  return {
    id: m.id,
    transactionId: doc.transactionId,
    ...(typeof doc.subject === 'string' && { subject: doc.subject }),
    body: typeof doc.content === 'string' ? doc.content : '',
    to: {
      id: subscriber._id,
      subscriberId: subscriber.subscriberId,
      ...(subscriber.firstName && { firstName: subscriber.firstName }),
      ...(subscriber.lastName && { lastName: subscriber.lastName }),
      ...(subscriber.avatar && { avatar: subscriber.avatar }),
    },
    isRead: doc.read,
    isSeen: doc.seen,
    isArchived: m.archived,
    isSnoozed: snoozed,
    ...(snoozed && { snoozedUntil: doc.snoozedUntil as string }),
    ...(Array.isArray(doc.deliveredAt) && { deliveredAt: doc.deliveredAt }),
    createdAt: doc.createdAt,
    readAt: (doc.lastReadDate as string | undefined) ?? null,
    firstSeenAt: (doc.firstSeenDate as string | undefined) ?? (doc.lastSeenDate as string | undefined) ?? null,
    archivedAt: (doc.archivedAt as string | undefined) ?? null,
    ...(typeof doc.avatar === 'string' && { avatar: doc.avatar }),
    ...(primaryAction && { primaryAction }),
    ...(secondaryAction && { secondaryAction }),
    channelType: 'in_app',
    tags: m.tags,
    data: (doc.data as Record<string, unknown> | undefined) ?? {},
    ...(redirect && { redirect }),
    ...(workflow && { workflow }),
    severity: severityOf(m.severity),
  };
}

/** The realtime `notification_received` message: the stored message the client maps itself; `cta` always an object. */
export function toSocketMessage(m: InboxMessage, subscriber: Subscriber, workflow: WorkflowInfo | undefined, now: number): Record<string, unknown> {
  const doc = m.doc as InboxMessage['doc'] & Record<string, unknown>;
  const snoozed = m.snoozedUntil !== null && m.snoozedUntil > now;
  const cta = doc.cta !== null && typeof doc.cta === 'object' ? (doc.cta as Cta) : {};
  return {
    ...doc,
    _id: m.id,
    archived: m.archived,
    archivedAt: doc.archivedAt ?? null,
    snoozedUntil: snoozed ? doc.snoozedUntil : null,
    firstSeenDate: doc.firstSeenDate ?? doc.lastSeenDate ?? null,
    lastReadDate: doc.lastReadDate ?? null,
    cta: { data: cta.data ?? {}, action: cta.action ?? {}, ...(cta.type !== undefined && { type: cta.type }) },
    subscriber: {
      _id: subscriber._id,
      subscriberId: subscriber.subscriberId,
      firstName: subscriber.firstName ?? undefined,
      lastName: subscriber.lastName ?? undefined,
      avatar: subscriber.avatar ?? undefined,
      email: subscriber.email ?? undefined,
      phone: subscriber.phone ?? undefined,
      locale: subscriber.locale ?? undefined,
      timezone: subscriber.timezone ?? undefined,
      data: subscriber.data ?? undefined,
    },
    tags: m.tags,
    data: doc.data ?? {},
    ...(workflow && { workflow }),
    severity: severityOf(m.severity),
  };
}

// Delivery reports: what a provider posts back about a message it sent (SendGrid's event array,
// Postmark's webhook record, Twilio's status callback), read as the service's providers read them.
// Pure: the provider's id and body in, the messages it speaks of and each report's event out. The
// provider's own id of a message (the service's message `identifier`) is made here too, so that what
// svc dev records when it sends is what a report names.
import type { ExecutionDetailStatus } from '../api/schemas/enums.js';

/** The providers whose reports svc dev understands (the README lists them). */
const REPORTING_PROVIDERS = ['sendgrid', 'postmark', 'twilio'] as const;

type ReportStatus =
  | 'opened'
  | 'bounced'
  | 'clicked'
  | 'dropped'
  | 'delivered'
  | 'spam'
  | 'unsubscribed'
  | 'accepted'
  | 'queued'
  | 'sending'
  | 'sent'
  | 'failed'
  | 'undelivered';

/** A report's event, in the service's shape (EventBody): `row` is the provider's entry as JSON. */
export interface ReportEvent {
  status: ReportStatus;
  date: string;
  externalId: string;
  attempts: number;
  response: string;
  row: string;
}

type Entry = Record<string, unknown>;

interface Reader {
  /** The field naming the message in one entry of the body. */
  idField: string;
  /** The field holding the entry's event, and what each event means. */
  eventField: string;
  statuses: Readonly<Record<string, ReportStatus>>;
}

const READERS: Readonly<Record<(typeof REPORTING_PROVIDERS)[number], Reader>> = {
  // SendGrid's event webhook posts an array; the service sends each message's id as the custom
  // argument `id`, which every event carries back.
  sendgrid: {
    idField: 'id',
    eventField: 'event',
    statuses: { open: 'opened', bounce: 'bounced', click: 'clicked', dropped: 'dropped', delivered: 'delivered' },
  },
  postmark: {
    idField: 'MessageID',
    eventField: 'RecordType',
    statuses: { Open: 'opened', Click: 'clicked', Delivery: 'delivered', Bounce: 'bounced', SpamComplaint: 'spam', SubscriptionChange: 'unsubscribed' },
  },
  twilio: {
    idField: 'MessageSid',
    eventField: 'MessageStatus',
    statuses: {
      accepted: 'accepted',
      queued: 'queued',
      sending: 'sending',
      sent: 'sent',
      failed: 'failed',
      delivered: 'delivered',
      undelivered: 'undelivered',
    },
  },
};

const readerOf = (providerId: string): Reader | undefined => (READERS as Record<string, Reader>)[providerId];

/** Whether svc dev reads this provider's reports (the service answers 404 for a provider that cannot). */
export const readsReports = (providerId: string): boolean => readerOf(providerId) !== undefined;

/**
 * The provider's own id of a message svc dev sends: SendGrid's is the message's id (sent as its
 * custom argument), Twilio's a Message SID, Postmark's a UUID; any other provider's the message's id.
 */
export function providerMessageId(providerId: string, messageId: string): string {
  const hex = messageId.toLowerCase().padStart(32, '0').slice(-32);
  // The message's id first, so that a SID reads as the message it names.
  if (providerId === 'twilio') return `SM${messageId.toLowerCase().padEnd(32, '0').slice(0, 32)}`;
  if (providerId === 'postmark') return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return messageId;
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/** The message id a provider's id of it was made from (providerMessageId read back), if it is one. */
export function messageIdOf(providerId: string, identifier: string): string | undefined {
  const id = identifier.toLowerCase();
  const made = providerId === 'twilio' ? (id.startsWith('sm') ? id.slice(2, 26) : '') : providerId === 'postmark' ? id.replace(/-/g, '').slice(-24) : id;
  return OBJECT_ID.test(made) && providerMessageId(providerId, made) === identifier ? made : undefined;
}

const entries = (body: unknown): Entry[] =>
  (Array.isArray(body) ? body : [body]).filter((e): e is Entry => e !== null && typeof e === 'object' && !Array.isArray(e));

/**
 * Each entry of the body the provider's reader understands, in the body's order: the message it
 * names and its event (an array may hold several events of one message: delivered, then opened).
 */
export function parseReports(providerId: string, body: unknown, at: string): { id: string; event: ReportEvent }[] {
  const r = readerOf(providerId);
  if (!r) return [];
  const out: { id: string; event: ReportEvent }[] = [];
  for (const entry of entries(body)) {
    const id = entry[r.idField];
    const status = r.statuses[String(entry[r.eventField])];
    if (typeof id !== 'string' || id === '' || status === undefined) continue;
    const attempts = Number.parseInt(String(entry.attempt ?? '1'), 10);
    const response = entry.response ?? entry.reason ?? entry.Description ?? entry.ErrorMessage ?? '';
    out.push({
      id,
      event: {
        status,
        date: at,
        externalId: id,
        attempts: Number.isFinite(attempts) ? attempts : 1,
        response: typeof response === 'string' ? response : JSON.stringify(response),
        row: JSON.stringify(entry),
      },
    });
  }
  return out;
}

const FAILED: ReadonlySet<ReportStatus> = new Set(['bounced', 'dropped', 'spam', 'unsubscribed', 'failed', 'undelivered']);

/** The execution detail's status the service gives a report of this channel. */
export function detailStatus(channel: string, status: ReportStatus): ExecutionDetailStatus {
  if (FAILED.has(status)) return 'Failed';
  if (channel === 'sms' && status === 'queued') return 'Queued';
  if (channel === 'sms' && status === 'sending') return 'Pending';
  return 'Success';
}

/** What a report changes on its message: failed (the message's status becomes error), delivered, or seen. */
export function messageEffect(status: ReportStatus): 'failed' | 'delivered' | 'seen' | undefined {
  if (FAILED.has(status)) return 'failed';
  if (status === 'delivered') return 'delivered';
  if (status === 'opened' || status === 'clicked') return 'seen';
  return undefined;
}

/** The detail's text, as the service writes it: the provider's response, then the event. */
export const reportDetail = (e: ReportEvent): string => `${e.response} - (${e.status})`;

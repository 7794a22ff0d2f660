// svc dev's emails in Mailpit's shapes (axllent/mailpit, server/apiv1 and internal/storage): the
// list item (MessageSummary), the message summary (Message), the headers as Go's net/mail gives them
// (canonical keys, each a list of values, keys in order), and the info of the instance. A message's
// `ID` is its svc message id; its source is the RFC 5322 message a provider would build.
import { type EmailParts, emailSource, type Mailbox } from '../../core/email-source.js';
import type { MessageRecord } from '../store/messages.js';

interface Address {
  Name: string;
  Address: string;
}

/** One email as the Mailpit API sees it, with what its search and its answers need. */
export interface MailpitEmail {
  ID: string;
  MessageID: string;
  Read: boolean;
  From: Address;
  To: Address[];
  Cc: Address[];
  Bcc: Address[];
  ReplyTo: Address[];
  Subject: string;
  Created: string;
  Size: number;
  parts: EmailParts;
  /** Subject, addresses and text, lower case: what a plain search word is looked for in. */
  searchText: string;
  envId: string;
}

const address = (m: Mailbox | undefined): Address => ({ Name: m?.name ?? '', Address: m?.address ?? '' });

const byteLength = (s: string) => Buffer.byteLength(s);

export function toMailpit(r: MessageRecord, from: Mailbox | undefined, read: boolean): MailpitEmail {
  const parts = emailSource(r.doc, from);
  const messageId = (parts.headers.find(([k]) => k === 'Message-ID')?.[1] ?? '').replace(/^<|>$/g, '');
  const to = r.doc.email ? [{ Name: '', Address: r.doc.email }] : [];
  const subject = r.doc.subject ?? '';
  const From = address(from);
  return {
    ID: r.id,
    MessageID: messageId,
    Read: read,
    From,
    To: to,
    Cc: [],
    Bcc: [],
    ReplyTo: [],
    Subject: subject,
    Created: r.doc.createdAt,
    Size: byteLength(parts.source),
    parts,
    searchText: [subject, From.Name, From.Address, ...to.map((a) => a.Address), parts.text].join(' ').toLowerCase(),
    envId: (r.doc as { _environmentId: string })._environmentId,
  };
}

/** A list item (storage.MessageSummary). */
export function listItem(m: MailpitEmail) {
  return {
    ID: m.ID,
    MessageID: m.MessageID,
    Read: m.Read,
    From: m.From,
    To: m.To,
    Cc: m.Cc,
    Bcc: m.Bcc,
    ReplyTo: m.ReplyTo,
    Subject: m.Subject,
    Created: m.Created,
    Username: '',
    Tags: [] as string[],
    Size: m.Size,
    Attachments: 0,
    Snippet: m.parts.text.replace(/\s+/g, ' ').trim().slice(0, 250),
  };
}

/** The message summary (storage.Message). */
export function summary(m: MailpitEmail) {
  return {
    ID: m.ID,
    MessageID: m.MessageID,
    From: m.From,
    To: m.To,
    Cc: m.Cc,
    Bcc: m.Bcc,
    ReplyTo: m.ReplyTo,
    ReturnPath: m.From.Address,
    Subject: m.Subject,
    ListUnsubscribe: { Header: '', Links: [] as string[], Errors: '', HeaderPost: '' },
    Date: m.Created,
    Tags: [] as string[],
    Username: '',
    Text: m.parts.text,
    HTML: m.parts.html,
    Size: m.Size,
    Inline: [] as unknown[],
    Attachments: [] as unknown[],
  };
}

/** `MIME-Version` → `Mime-Version`, `Message-ID` → `Message-Id`: Go's canonical header keys. */
const canonical = (key: string) => key.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());

/** The headers as Mailpit answers them: canonical keys in order, each with its list of values. */
export function headers(m: MailpitEmail): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of m.parts.headers) (out[canonical(k)] ??= []).push(v);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

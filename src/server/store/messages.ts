// Messages: what a channel step delivered. The document is the API's Message record (without the
// embedded subscriber, which is joined in when read); read/seen are also columns for filtering.
// Stored compactly: what the row's columns or its event already hold (ids, status, dates,
// the payload and context keys) is left out of the JSON and put back when read, and an email's
// default layout around its body is kept as a marker. Documents written before are read as they are.
import type { Message } from '../../api/schemas/resources.js';
import type { MarkAs } from '../../api/schemas/enums.js';
import { DEFAULT_EMAIL_LAYOUT } from '../engine/email-layout.js';
import { NewestFirstPages, TOTAL_COUNT_CAP } from './paging.js';
import { contextKeySet, idText, isoAt, parseDoc, Repo, txKey, txText } from './repo.js';

export interface MessageRecord {
  id: string;
  jobId: string;
  subscriberId: string;
  doc: Message;
}

interface MessageFilter {
  channel?: string | undefined;
  /** A subscriber of the listed environment (found in it). */
  subscriberDbId?: string | undefined;
  transactionIds?: string[] | undefined;
  contextKeys?: string[] | undefined;
}

interface Row {
  id: string;
  job_id: string;
  subscriber_id: string;
  doc: string;
  env_id: string;
  notification_id: string;
  channel: string;
  read: number;
  seen: number;
  status: string;
  /** Service milliseconds. */
  created_at: number;
  updated_at: number;
  /** The event's organisation, transactionId, payload, context keys and workflow (joined: a message keeps none of them). */
  n_org_id: string | null;
  n_transaction_id: string | null;
  n_payload: string | null;
  n_context_keys: string | null;
  n_workflow_id: string | null;
  /** The _id of its job's step definition (joined). */
  j_step_id: string | null;
}

const SELECT = `SELECT ${idText('m.id')}, ${idText('m.job_id')}, ${idText('m.subscriber_id')}, m.doc, ${idText('m.env_id')},
  ${idText('m.notification_id')}, m.channel, m.read, m.seen, m.status, m.created_at, m.updated_at, ${idText('n.org_id', 'n_org_id')},
  ${txText('n.transaction_id', 'n_transaction_id')}, json_extract(n.doc, '$.payload') AS n_payload, json_extract(n.doc, '$.contextKeys') AS n_context_keys,
  ${idText('n.workflow_id', 'n_workflow_id')}, (SELECT json_extract(sd.doc, '$._id')
    FROM jobs j JOIN step_defs sd ON sd.ref = j.step_ref WHERE j.id = m.job_id) AS j_step_id
  FROM messages m LEFT JOIN notifications n ON n.id = m.notification_id`;
/** A page of messages, with the row's stored id (`__k`) for the next page's seek (paging.ts). */
const SELECT_KEYED = SELECT.replace(/^SELECT /, 'SELECT m.id AS __k, ');
/** Built once: Repo.stmt finds a statement by its SQL. */
const MESSAGE_OF_SUBSCRIBER = `${SELECT} WHERE m.id = unhex(?) AND m.subscriber_id = unhex(?)`;

/**
 * Marks a compact document; one without it is a full Message as written before. Version 1 leaves
 * out what the row and its event hold; version 2 also the usual values of three more fields (see pack).
 */
const COMPACT = '$c';
/** In a version-2 document, a field that was absent (its absence otherwise means the usual value). */
const ABSENT = 0;
/** The default email layout split around its two slots (the subject in <title>, the body). */
const [LAYOUT_HEAD, LAYOUT_MID, LAYOUT_TAIL] = (() => {
  const [head, rest] = DEFAULT_EMAIL_LAYOUT.split('{{ subject }}') as [string, string];
  const [mid, tail] = rest.split('{{ content }}') as [string, string];
  return [head, mid, tail];
})();

/** Fields the row or its event hold, left out of the stored JSON. */
const FROM_ROW = [
  '_id',
  '_environmentId',
  '_organizationId',
  '_notificationId',
  '_subscriberId',
  '_jobId',
  'transactionId',
  'channel',
  'read',
  'seen',
  'status',
  'createdAt',
  'updatedAt',
  'payload',
  'contextKeys',
  '_templateId',
] as const;

const FROM_ROW_SET: ReadonlySet<string> = new Set(FROM_ROW);

/** `stepId`: the _id of the job's step definition, which a message of that step names (read back through its job). */
function pack(doc: Message, stepId: string | undefined): string {
  const out: Record<string, unknown> = { [COMPACT]: 2 };
  for (const [k, v] of Object.entries(doc)) if (!FROM_ROW_SET.has(k)) out[k] = v;
  // The usual values, put back when read: delivered when created (when sent), no call to action, the
  // step's template, no feed, no overrides.
  const sent = doc.status === 'sent';
  if (Array.isArray(doc.deliveredAt) && doc.deliveredAt.length === 1 && doc.deliveredAt[0] === doc.createdAt) {
    if (sent) delete out.deliveredAt;
    else out.deliveredAt = 1;
  } else if (doc.deliveredAt === undefined && sent) out.deliveredAt = ABSENT;
  const cta = doc.cta as unknown;
  if (cta !== null && typeof cta === 'object' && !Array.isArray(cta) && Object.keys(cta).length === 0) delete out.cta;
  else if (cta === undefined) out.cta = ABSENT;
  if (stepId !== undefined && doc._messageTemplateId === stepId) delete out._messageTemplateId;
  else if (doc._messageTemplateId === undefined) out._messageTemplateId = ABSENT;
  if (doc._feedId === null) delete out._feedId;
  else if (doc._feedId === undefined) out._feedId = 0;
  if (doc.overrides !== undefined && doc.overrides !== null && typeof doc.overrides === 'object' && Object.keys(doc.overrides).length === 0)
    delete out.overrides;
  else if (doc.overrides === undefined) out.overrides = 0;
  if (typeof doc.content === 'string' && doc.content.startsWith(LAYOUT_HEAD) && doc.content.endsWith(LAYOUT_TAIL)) {
    const inner = doc.content.slice(LAYOUT_HEAD.length, doc.content.length - LAYOUT_TAIL.length);
    const at = inner.indexOf(LAYOUT_MID);
    if (at >= 0 && LAYOUT_HEAD + inner.slice(0, at) + LAYOUT_MID + inner.slice(at + LAYOUT_MID.length) + LAYOUT_TAIL === doc.content) {
      out.content = { layout: 'default', title: inner.slice(0, at), body: inner.slice(at + LAYOUT_MID.length) };
    }
  }
  return JSON.stringify(out);
}

function unpack(r: Row): Message {
  const stored = parseDoc<Record<string, unknown>>(r.doc);
  if (stored[COMPACT] === undefined) return stored as unknown as Message;
  const { [COMPACT]: version, content, deliveredAt, _feedId, overrides, ...rest } = stored;
  const c = content as { layout?: string; title?: string; body?: string } | string | undefined;
  if (version === 2) {
    const usual = (field: string, value: unknown) => {
      if (!(field in rest)) rest[field] = value;
      else if (rest[field] === ABSENT) delete rest[field];
    };
    usual('cta', {});
    usual('_messageTemplateId', r.j_step_id ?? undefined);
    if (rest._messageTemplateId === undefined) delete rest._messageTemplateId;
  }
  const delivered = version === 2 && deliveredAt === undefined && r.status === 'sent' ? 1 : deliveredAt === ABSENT && version === 2 ? undefined : deliveredAt;
  return {
    ...(delivered !== undefined && { deliveredAt: delivered === 1 ? [isoAt(r.created_at)] : delivered }),
    ...(_feedId !== 0 && { _feedId: _feedId ?? null }),
    ...(overrides !== 0 && { overrides: overrides ?? {} }),
    _id: r.id,
    _templateId: r.n_workflow_id ?? undefined,
    _environmentId: r.env_id,
    _organizationId: r.n_org_id ?? undefined,
    _notificationId: r.notification_id,
    _subscriberId: r.subscriber_id,
    _jobId: r.job_id,
    createdAt: isoAt(r.created_at),
    updatedAt: isoAt(r.updated_at),
    transactionId: r.n_transaction_id ?? undefined,
    channel: r.channel,
    read: r.read === 1,
    seen: r.seen === 1,
    status: r.status,
    // As the service does, a message's payload is its event's without the attachments.
    payload: r.n_payload !== null ? withoutAttachments(parseDoc(r.n_payload)) : {},
    contextKeys: r.n_context_keys !== null ? parseDoc(r.n_context_keys) : [],
    ...rest,
    ...(c !== undefined && {
      content: typeof c === 'object' && c !== null && c.layout === 'default' ? LAYOUT_HEAD + (c.title ?? '') + LAYOUT_MID + (c.body ?? '') + LAYOUT_TAIL : c,
    }),
  } as unknown as Message;
}

const toRecord = (r: Row): MessageRecord => ({ id: r.id, jobId: r.job_id, subscriberId: r.subscriber_id, doc: unpack(r) });

export class Messages extends Repo {
  /** Deep pages seek where the page before ended (paging.ts). */
  readonly pages = new NewestFirstPages(this.db, 'm');

  newMessageId(): string {
    return this.newId();
  }

  /**
   * `doc` is of its event (`_notificationId`): its organisation, transactionId, payload and context
   * keys are read from the event, not stored again.
   */
  create(jobId: string, doc: Message & { _id: string }, stepId?: string): Message {
    const created = Date.parse(doc.createdAt);
    this.stmt(
      `INSERT INTO messages (id, env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at, updated_at)
       VALUES (unhex(?), unhex(?), unhex(?), unhex(?), unhex(?), ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      doc._id,
      doc._environmentId,
      doc._notificationId,
      jobId,
      doc._subscriberId,
      doc.channel,
      +doc.read,
      +doc.seen,
      doc.status,
      pack(doc, stepId),
      created,
      typeof doc.updatedAt === 'string' ? Date.parse(doc.updatedAt) : created,
    );
    for (const listener of this.listeners) listener({ kind: 'created', subscriberDbId: doc._subscriberId, messageId: doc._id, channel: doc.channel });
    return doc;
  }

  list(envId: string, f: MessageFilter, page: number, limit: number): { totalCount: number; hasMore: boolean; rows: MessageRecord[] } {
    // A filter with its own index reads its rows in page order through it, the most selective one
    // given: transactionIds (through their events), a subscriber, a channel. The other conditions are
    // checked on each row it finds, written with `+` (not an index choice), so that the planner never
    // walks another index instead, e.g. the environment's newest-first one.
    const by = f.transactionIds !== undefined ? 'transaction' : f.subscriberDbId !== undefined ? 'subscriber' : f.channel !== undefined ? 'channel' : undefined;
    const col = (name: string, indexed: boolean) => (indexed ? `m.${name}` : `+m.${name}`);
    // A subscriber's database id is of one environment (the caller found it in `envId`): no check
    // of the environment per row, so its count reads the index alone.
    const where = by === 'subscriber' ? [] : [`${col('env_id', by === undefined || by === 'channel')} = unhex(?)`];
    const params: unknown[] = by === 'subscriber' ? [] : [envId];
    let joinEvent = false;
    if (f.channel !== undefined) {
      where.push(`${col('channel', by === 'channel')} = ?`);
      params.push(f.channel);
    }
    if (f.subscriberDbId !== undefined) {
      where.push(`${col('subscriber_id', by === 'subscriber')} = unhex(?)`);
      params.push(f.subscriberDbId);
    }
    if (f.transactionIds !== undefined) {
      where.push(`n.transaction_id IN (${f.transactionIds.map(() => '?').join(',') || "''"})`);
      joinEvent = true;
      params.push(...f.transactionIds.map(txKey));
    }
    if (f.contextKeys !== undefined) {
      where.push('n.context_keys = ?');
      joinEvent = true;
      params.push(contextKeySet(f.contextKeys));
    }
    const w = where.join(' AND ') || '1';
    const from = joinEvent ? 'messages m JOIN notifications n ON n.id = m.notification_id' : 'messages m';
    // Counted up to 50,000, as the service counts its lists. The whole environment, a channel, a
    // subscriber and a subscriber's channel are read from the counts the triggers keep (migration 8):
    // one row per channel. Any other filter is counted through its index, stopping past 50,000.
    const kept = f.transactionIds === undefined && f.contextKeys === undefined ? this.keptCount(envId, f) : undefined;
    const totalCount = Math.min(
      TOTAL_COUNT_CAP,
      kept ?? (this.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${w} LIMIT ${TOTAL_COUNT_CAP + 1})`).get(...params) as { n: number }).n,
    );
    const rows = this.pages.rows<Row & { __k: unknown }>(SELECT_KEYED, w, params, page, limit);
    return { totalCount, hasMore: rows.length > limit, rows: rows.slice(0, limit).map(toRecord) };
  }

  /** The number of messages of the environment, a channel, a subscriber, or a subscriber's channel, from the kept counts. */
  private keptCount(envId: string, f: MessageFilter): number {
    const sql =
      f.subscriberDbId !== undefined
        ? `SELECT coalesce(sum(n), 0) AS n FROM message_counts_subscriber WHERE subscriber_id = unhex(?)${f.channel !== undefined ? ' AND channel = ?' : ''}`
        : `SELECT coalesce(sum(n), 0) AS n FROM message_counts_env WHERE env_id = unhex(?)${f.channel !== undefined ? ' AND channel = ?' : ''}`;
    const key = f.subscriberDbId ?? envId;
    const row = (f.channel !== undefined ? this.stmt(sql).get(key, f.channel) : this.stmt(sql).get(key)) as { n: number };
    return row.n;
  }

  /** Only the subscriber's own messages among `ids` are changed and returned. */
  markAs(subscriberDbId: string, ids: string[], markAs: MarkAs): MessageRecord[] {
    const ms = this.clock.now();
    const now = isoAt(ms);
    const out: MessageRecord[] = [];
    // Ids are matched as ObjectIds, in either case: one message named twice is marked once.
    for (const id of new Set(ids.map((i) => (/^[0-9a-f]{24}$/i.test(i) ? i.toLowerCase() : i)))) {
      const row = this.stmt(MESSAGE_OF_SUBSCRIBER).get(id, subscriberDbId) as Row | undefined;
      if (!row) continue;
      const rec = toRecord(row);
      const m = rec.doc;
      switch (markAs) {
        case 'read':
          m.read = true;
          m.seen = true;
          m.lastReadDate = now;
          m.lastSeenDate ??= now;
          break;
        case 'unread':
          m.read = false;
          m.seen = true;
          break;
        case 'seen':
          m.seen = true;
          m.lastSeenDate = now;
          break;
        case 'unseen':
          m.seen = false;
          break;
      }
      m.updatedAt = now;
      this.stmt('UPDATE messages SET read = ?, seen = ?, doc = ?, updated_at = ? WHERE id = unhex(?)').run(
        +m.read,
        +m.seen,
        pack(m, row.j_step_id ?? undefined),
        ms,
        id,
      );
      out.push(rec);
      for (const listener of this.listeners) listener({ kind: 'changed', subscriberDbId, messageId: id, channel: rec.doc.channel });
    }
    return out;
  }

  /** The environment's message of this id. */
  inEnvironment(envId: string, id: string): MessageRecord | undefined {
    const row = this.stmt(`${SELECT} WHERE m.id = unhex(?) AND m.env_id = unhex(?)`).get(id, envId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /**
   * What a provider's delivery report changes: `failed` makes the message's status error with the
   * report's text, `delivered` adds a delivery time, `seen` marks it seen (opened, clicked).
   */
  applyReport(id: string, effect: 'failed' | 'delivered' | 'seen', errorText: string): MessageRecord | undefined {
    const row = this.stmt(`${SELECT} WHERE m.id = unhex(?)`).get(id) as Row | undefined;
    if (!row) return undefined;
    const rec = toRecord(row);
    const m = rec.doc;
    const ms = this.clock.now();
    const now = isoAt(ms);
    if (effect === 'failed') {
      m.status = 'error';
      m.errorText = errorText;
      m.errorId = 'provider_reported_failure';
    } else if (effect === 'delivered') {
      m.deliveredAt = [...(m.deliveredAt ?? []), now];
    } else {
      m.seen = true;
      m.lastSeenDate = now;
    }
    m.updatedAt = now;
    this.stmt('UPDATE messages SET seen = ?, status = ?, doc = ?, updated_at = ? WHERE id = unhex(?)').run(
      +m.seen,
      m.status,
      pack(m, row.j_step_id ?? undefined),
      ms,
      id,
    );
    for (const listener of this.listeners) listener({ kind: 'changed', subscriberDbId: rec.subscriberId, messageId: id, channel: m.channel });
    return rec;
  }

  /**
   * Deletes one message of the environment; false when it has none of that id. Row by row, so the
   * counts the triggers keep (migration 8) follow; the inbox is told its counts changed.
   */
  removeById(envId: string, id: string): boolean {
    if (!/^[0-9a-f]{24}$/i.test(id)) return false;
    const gone = this.stmt(`DELETE FROM messages WHERE id = unhex(?) AND env_id = unhex(?) RETURNING ${idText('id')}, ${idText('subscriber_id')}, channel`).all(
      id.toLowerCase(),
      envId,
    ) as { id: string; subscriber_id: string; channel: string }[];
    this.told(gone);
    return gone.length > 0;
  }

  /** Deletes the messages of the environment's events of this transactionId (of one channel when given); how many. */
  removeByTransaction(envId: string, transactionId: string, channel?: string): number {
    const sql = `DELETE FROM messages WHERE notification_id IN (SELECT id FROM notifications WHERE env_id = unhex(?) AND transaction_id = ?)
      ${channel !== undefined ? 'AND channel = ?' : ''} RETURNING ${idText('id')}, ${idText('subscriber_id')}, channel`;
    const params: unknown[] = [envId, txKey(transactionId), ...(channel !== undefined ? [channel] : [])];
    const gone = this.stmt(sql).all(...params) as { id: string; subscriber_id: string; channel: string }[];
    this.told(gone);
    return gone.length;
  }

  private told(gone: { id: string; subscriber_id: string; channel: string }[]): void {
    for (const g of gone) {
      for (const listener of this.listeners) listener({ kind: 'changed', subscriberDbId: g.subscriber_id, messageId: g.id, channel: g.channel });
    }
  }

  /** Tells the listeners of a change made outside this repository (the inbox's state changes). */
  announce(change: MessageChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Told of every message written (created, or its read/seen state changed) while the write's
   * transaction is still open: a listener acts once it has committed (the inbox's realtime events).
   */
  readonly listeners: ((change: MessageChange) => void)[] = [];
}

function withoutAttachments(payload: Record<string, unknown>): Record<string, unknown> {
  if (!('attachments' in payload)) return payload;
  const { attachments: _attachments, ...rest } = payload;
  return rest;
}
export interface MessageChange {
  kind: 'created' | 'changed';
  subscriberDbId: string;
  messageId: string;
  channel: string;
  /** An in-app message's snooze was set (until then, service milliseconds) or ended (null). */
  snoozedUntil?: number | null;
}

/** The row form, for a repository reading and writing messages with its own filters (the inbox). */
export type MessageRow = Row;
export const messageRows = { SELECT, read: toRecord, pack } as const;

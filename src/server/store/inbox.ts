// The in-app Inbox's side of the store: each environment's application identifier and token secret,
// a subscriber's in-app messages with the Inbox's filters (read, seen, archived, snoozed, tags,
// severity, data, creation time), their counts, and the Inbox's state changes. Messages are read and
// written through messages.ts's row form, so a message looks the same to the operator API.
import { randomBytes } from 'node:crypto';
import type { Message } from '../../api/schemas/resources.js';
import type { Environment } from './environments.js';
import { type MessageRecord, type MessageRow, messageRows } from './messages.js';
import { InboxSubscriptions } from './inbox-subscriptions.js';
import { contextKeySet, idText, isoAt, Repo } from './repo.js';

/** One filter of the Inbox: every given field must hold. `tags`: an AND of OR-groups. */
export interface InboxFilter {
  tags?: string[][] | undefined;
  read?: boolean | undefined;
  seen?: boolean | undefined;
  archived?: boolean | undefined;
  snoozed?: boolean | undefined;
  severity?: string[] | undefined;
  /** Key → accepted values (any of them); a nested key is `a.b`. */
  data?: Record<string, unknown[]> | undefined;
  /** Service milliseconds, inclusive. */
  createdGte?: number | undefined;
  createdLte?: number | undefined;
  /** Values the message's event payload holds, each at its path (the v1 feed's partial payload). */
  payload?: Record<string, unknown> | undefined;
  /** The message's event was triggered with exactly these context keys (`type:id`). */
  contextKeys?: string[] | undefined;
}

export interface InboxMessage extends MessageRecord {
  severity: string;
  tags: string[];
  critical: boolean;
  workflowDbId: string;
  archived: boolean;
  snoozedUntil: number | null;
  /** The _id of its job's step definition (what the stored document leaves out when it matches). */
  stepId: string | undefined;
  /** Service milliseconds: with the id, its place in the subscriber's Inbox (see InboxCursor). */
  createdAtMs: number;
}

/** A place in a subscriber's in-app messages, in creation order: a time, and an id among its ties. */
export interface InboxCursor {
  at: number;
  id: string;
}

export type InboxChange =
  | { kind: 'read' | 'unread' | 'seen' | 'archive' | 'unarchive' | 'unsnooze' }
  | { kind: 'snooze'; until: number }
  | { kind: 'action'; status: 'done' | 'pending'; button: 'primary' | 'secondary' };

interface Row extends MessageRow {
  archived: number;
  snoozed_until: number | null;
  n_severity: string | null;
  n_tags: string | null;
  n_critical: number | null;
  j_step_id: string | null;
}

const SELECT = messageRows.SELECT.replace(
  ' FROM messages m',
  `, m.archived, m.snoozed_until, n.severity AS n_severity, json_extract(n.doc, '$.tags') AS n_tags,
  json_extract(n.doc, '$.critical') AS n_critical FROM messages m`,
);

interface InboxSettings {
  identifier: string;
  secret: string;
}

export class Inbox extends Repo {
  private settingsCache = new Map<string, InboxSettings>();
  /** The subscribers' own topic subscriptions. */
  readonly subscriptions = new InboxSubscriptions(this.db, this.clock);

  /** The environment's application identifier and token secret, made the first time they are asked for. */
  settings(envId: string): InboxSettings {
    const cached = this.settingsCache.get(envId);
    if (cached) return cached;
    let row = this.stmt('SELECT identifier, jwt_secret AS secret FROM inbox_environments WHERE env_id = ?').get(envId) as InboxSettings | undefined;
    if (!row) {
      row = { identifier: randomBytes(6).toString('base64url'), secret: randomBytes(32).toString('hex') };
      this.stmt('INSERT INTO inbox_environments (env_id, identifier, jwt_secret) VALUES (?, ?, ?)').run(envId, row.identifier, row.secret);
    }
    this.settingsCache.set(envId, row);
    return row;
  }

  /** The environment whose application identifier this is. */
  environmentOf(identifier: string, find: (envId: string) => Environment | undefined): Environment | undefined {
    const row = this.stmt('SELECT env_id FROM inbox_environments WHERE identifier = ?').get(identifier) as { env_id: string } | undefined;
    return row ? find(row.env_id) : undefined;
  }

  /** A rolled-back transaction may have made settings that are not there. */
  forgetAll(): void {
    this.settingsCache.clear();
  }

  private where(subscriberDbId: string, f: InboxFilter, now: number): { sql: string; params: unknown[] } {
    const where = ['m.subscriber_id = unhex(?)', "m.channel = 'in_app'"];
    const params: unknown[] = [subscriberDbId];
    if (f.read !== undefined) where.push(`m.read = ${+f.read}`);
    if (f.seen !== undefined) where.push(`m.seen = ${+f.seen}`);
    if (f.archived !== undefined) where.push(`m.archived = ${+f.archived}`);
    if (f.snoozed !== undefined) {
      where.push(f.snoozed ? 'm.snoozed_until > ?' : '(m.snoozed_until IS NULL OR m.snoozed_until <= ?)');
      params.push(now);
    }
    if (f.createdGte !== undefined) {
      where.push('m.created_at >= ?');
      params.push(f.createdGte);
    }
    if (f.createdLte !== undefined) {
      where.push('m.created_at <= ?');
      params.push(f.createdLte);
    }
    // Lists of values (severities, tags, data) are bound as one JSON text each and read with
    // json_each: the SQL text depends only on which filters are given, never on how many values a
    // caller sends, so the statement cache holds a fixed, small number of statements.
    if (f.severity !== undefined && f.severity.length > 0) {
      where.push('n.severity IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(f.severity));
    }
    const groups = (f.tags ?? []).filter((g) => g.length > 0);
    if (groups.length > 0) {
      // Every group (an OR of tags) has a tag the event carries.
      where.push(
        "NOT EXISTS (SELECT 1 FROM json_each(?) g WHERE NOT EXISTS (SELECT 1 FROM json_each(n.doc, '$.tags') t JOIN json_each(g.value) v ON v.value = t.value))",
      );
      params.push(JSON.stringify(groups));
    }
    const data = Object.entries(f.data ?? {})
      .filter(([, values]) => values.length > 0)
      .map(([key, values]) => [dataPath(key), values.map((v) => (typeof v === 'boolean' ? +v : v))]);
    if (data.length > 0) {
      // Every [path, values] pair holds: a stored scalar is one of the values, or a stored array holds one.
      // A key the message lacks reads as NULL: coalesce makes that "does not hold", not "unknown".
      where.push(`NOT EXISTS (SELECT 1 FROM json_each(?) f WHERE NOT coalesce(
        json_extract(m.doc, f.value ->> 0) IN (SELECT value FROM json_each(f.value, '$[1]'))
        OR (json_type(m.doc, f.value ->> 0) = 'array' AND EXISTS (SELECT 1 FROM json_each(m.doc, f.value ->> 0) d JOIN json_each(f.value, '$[1]') v ON v.value = d.value)), 0))`);
      params.push(JSON.stringify(data));
    }
    this.whereEvent(f, where, params);
    return { sql: where.join(' AND '), params };
  }

  /** The filters on the message's event beyond its tags and severity: its payload and context keys. */
  private whereEvent(f: InboxFilter, where: string[], params: unknown[]): void {
    if (f.payload !== undefined && Object.keys(f.payload).length > 0) {
      // Every scalar of the partial payload is the event payload's at the same path (json_tree's
      // fullkey `$.a.b` read under `$.payload`).
      where.push(`NOT EXISTS (SELECT 1 FROM json_tree(?) p WHERE p.type NOT IN ('object', 'array')
        AND json_extract(n.doc, '$.payload' || substr(p.fullkey, 2)) IS NOT p.value)`);
      params.push(JSON.stringify(f.payload));
    }
    if (f.contextKeys !== undefined) {
      where.push('n.context_keys = ?');
      params.push(contextKeySet(f.contextKeys));
    }
  }

  /** Newest first; `after` is a message id of the subscriber's (the page starts below it). */
  list(subscriberDbId: string, f: InboxFilter, opts: { limit: number; offset?: number; after?: string }): { rows: InboxMessage[]; hasMore: boolean } {
    const now = this.clock.now();
    const w = this.where(subscriberDbId, f, now);
    let sql = w.sql;
    const params = [...w.params];
    if (opts.after !== undefined) {
      const anchor = this.stmt('SELECT created_at FROM messages WHERE id = unhex(?) AND subscriber_id = unhex(?)').get(opts.after, subscriberDbId) as
        | { created_at: number }
        | undefined;
      if (!anchor) return { rows: [], hasMore: false };
      sql += ' AND (m.created_at < ? OR (m.created_at = ? AND m.id < unhex(?)))';
      params.push(anchor.created_at, anchor.created_at, opts.after);
    }
    const rows = this.stmt(`${SELECT} WHERE ${sql} ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?`).all(
      ...params,
      opts.limit + 1,
      opts.offset ?? 0,
    ) as Row[];
    return { rows: rows.slice(0, opts.limit).map(toInbox), hasMore: rows.length > opts.limit };
  }

  count(subscriberDbId: string, f: InboxFilter): number {
    const w = this.where(subscriberDbId, f, this.clock.now());
    const needsEvent = f.severity !== undefined || f.tags !== undefined || f.payload !== undefined || f.contextKeys !== undefined;
    const from = needsEvent ? 'messages m JOIN notifications n ON n.id = m.notification_id' : 'messages m';
    return (this.stmt(`SELECT count(*) AS n FROM ${from} WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  }

  /** Unread in-app messages neither archived nor snoozed, in all and per severity. */
  unreadCounts(subscriberDbId: string): { total: number; severity: Record<'high' | 'medium' | 'low' | 'none', number> } {
    const rows = this.stmt(
      `SELECT n.severity AS severity, count(*) AS n FROM messages m JOIN notifications n ON n.id = m.notification_id
       WHERE m.subscriber_id = unhex(?) AND m.channel = 'in_app' AND m.read = 0 AND m.archived = 0 AND (m.snoozed_until IS NULL OR m.snoozed_until <= ?)
       GROUP BY n.severity`,
    ).all(subscriberDbId, this.clock.now()) as { severity: string; n: number }[];
    const severity = { high: 0, medium: 0, low: 0, none: 0 };
    let total = 0;
    for (const r of rows) {
      total += r.n;
      if (r.severity in severity) severity[r.severity as keyof typeof severity] += r.n;
      else severity.none += r.n;
    }
    return { total, severity };
  }

  unseenCount(subscriberDbId: string): number {
    return this.count(subscriberDbId, { seen: false, archived: false, snoozed: false });
  }

  get(subscriberDbId: string, id: string): InboxMessage | undefined {
    if (!/^[0-9a-f]{24}$/i.test(id)) return undefined;
    const row = this.stmt(`${SELECT} WHERE m.id = unhex(?) AND m.subscriber_id = unhex(?) AND m.channel = 'in_app'`).get(id.toLowerCase(), subscriberDbId) as
      | Row
      | undefined;
    return row ? toInbox(row) : undefined;
  }

  /** The subscriber's in-app messages created after `c`, oldest first, at most `limit`. */
  createdAfter(subscriberDbId: string, c: InboxCursor, limit: number): InboxMessage[] {
    const rows = this.stmt(
      `${SELECT} WHERE m.subscriber_id = unhex(?) AND m.channel = 'in_app' AND (m.created_at > ? OR (m.created_at = ? AND m.id > unhex(?)))
       ORDER BY m.created_at, m.id LIMIT ?`,
    ).all(subscriberDbId, c.at, c.at, c.id, limit) as Row[];
    return rows.map(toInbox);
  }

  /** Where the subscriber's newest in-app message is (none: the beginning). */
  newest(subscriberDbId: string): InboxCursor {
    const row = this.stmt(
      `SELECT m.created_at AS at, ${idText('m.id', 'id')} FROM messages m WHERE m.subscriber_id = unhex(?) AND m.channel = 'in_app'
       ORDER BY m.created_at DESC, m.id DESC LIMIT 1`,
    ).get(subscriberDbId) as InboxCursor | undefined;
    return row ?? { at: 0, id: '0'.repeat(24) };
  }

  /** Applies one change to a message of the subscriber's; the message as it now is. */
  change(subscriberDbId: string, id: string, change: InboxChange): InboxMessage | undefined {
    const m = this.get(subscriberDbId, id);
    if (!m) return undefined;
    const ms = this.clock.now();
    const now = isoAt(ms);
    const doc = m.doc as Message & Record<string, unknown>;
    switch (change.kind) {
      case 'read':
        doc.read = true;
        doc.seen = true;
        doc.lastReadDate = now;
        doc.lastSeenDate ??= now;
        doc.firstSeenDate ??= now;
        break;
      case 'unread':
        doc.read = false;
        doc.seen = true;
        doc.firstSeenDate ??= now;
        break;
      case 'seen':
        if (!doc.seen) doc.lastSeenDate = now;
        doc.seen = true;
        doc.firstSeenDate ??= now;
        break;
      case 'archive':
        m.archived = true;
        doc.archived = true;
        doc.archivedAt = now;
        doc.read = true;
        doc.seen = true;
        doc.lastReadDate ??= now;
        doc.firstSeenDate ??= now;
        break;
      case 'unarchive':
        m.archived = false;
        doc.archived = false;
        doc.archivedAt = null;
        break;
      case 'snooze':
        m.snoozedUntil = change.until;
        doc.snoozedUntil = isoAt(change.until);
        break;
      case 'unsnooze':
        m.snoozedUntil = null;
        delete doc.snoozedUntil;
        break;
      case 'action': {
        const cta = (doc.cta ?? {}) as { action?: { status?: string; buttons?: unknown[]; result?: { type?: string } } };
        cta.action = { ...cta.action, buttons: cta.action?.buttons ?? [], status: change.status, result: { type: change.button } };
        doc.cta = cta as Message['cta'];
        break;
      }
    }
    doc.updatedAt = now;
    this.save(m, ms);
    return m;
  }

  /**
   * A message action's status and its result (the button, and what the caller sent with it), as
   * the v1 message action sets them; the message as it now is.
   */
  setActionResult(
    subscriberDbId: string,
    id: string,
    status: 'done' | 'pending',
    button: 'primary' | 'secondary',
    payload: Record<string, unknown> | undefined,
  ): InboxMessage | undefined {
    const m = this.change(subscriberDbId, id, { kind: 'action', status, button });
    if (!m || payload === undefined) return m;
    const cta = m.doc.cta as { action: { result: Record<string, unknown> } };
    cta.action.result = { ...cta.action.result, payload };
    this.save(m, this.clock.now());
    return m;
  }

  /**
   * The subscriber's messages whose snooze has ended by `now` come back as the service brings them
   * back: delivered again at the snooze's end (their creation time, so at the top of the list), unread,
   * no longer snoozed. The messages woken.
   */
  wakeSnoozed(subscriberDbId: string, now: number): InboxMessage[] {
    // Every read/archived/seen combination named, so that the Inbox's state index seeks to the ended
    // snoozes directly instead of walking all of the subscriber's messages on every read.
    const due = this.stmt(
      `SELECT ${idText('m.id', 'id')} FROM messages m WHERE m.subscriber_id = unhex(?) AND m.channel = 'in_app'
       AND m.read IN (0, 1) AND m.archived IN (0, 1) AND m.seen IN (0, 1) AND m.snoozed_until <= ?`,
    ).all(subscriberDbId, now) as { id: string }[];
    const woken: InboxMessage[] = [];
    for (const { id } of due) {
      const m = this.get(subscriberDbId, id);
      if (!m || m.snoozedUntil === null) continue;
      const at = m.snoozedUntil;
      const doc = m.doc as Message & Record<string, unknown>;
      delete doc.snoozedUntil;
      delete doc.lastReadDate;
      doc.read = false;
      doc.deliveredAt = [...(Array.isArray(doc.deliveredAt) ? doc.deliveredAt : [doc.createdAt]), isoAt(at)];
      doc.createdAt = isoAt(at);
      doc.updatedAt = isoAt(now);
      this.stmt('UPDATE messages SET read = 0, snoozed_until = NULL, created_at = ?, doc = ?, updated_at = ? WHERE id = unhex(?)').run(
        at,
        messageRows.pack(doc, m.stepId),
        now,
        m.id,
      );
      woken.push({ ...m, snoozedUntil: null, createdAtMs: at });
    }
    return woken;
  }

  /** Ids of the subscriber's messages the filter matches (of `ids` only, when given), newest first. */
  matching(subscriberDbId: string, f: InboxFilter, ids?: string[]): string[] {
    const out: string[] = [];
    const wanted = ids ? new Set(ids.map((i) => i.toLowerCase())) : undefined;
    let after: string | undefined;
    for (;;) {
      const page = this.list(subscriberDbId, f, { limit: 500, ...(after !== undefined && { after }) });
      for (const m of page.rows) {
        after = m.id;
        if (!wanted || wanted.has(m.id)) out.push(m.id);
      }
      if (!page.hasMore) return out;
    }
  }

  remove(subscriberDbId: string, id: string): boolean {
    if (!/^[0-9a-f]{24}$/i.test(id)) return false;
    return (
      this.stmt("DELETE FROM messages WHERE id = unhex(?) AND subscriber_id = unhex(?) AND channel = 'in_app'").run(id.toLowerCase(), subscriberDbId).changes >
      0
    );
  }

  private save(m: InboxMessage, ms: number): void {
    const doc = m.doc;
    this.stmt('UPDATE messages SET read = ?, seen = ?, archived = ?, snoozed_until = ?, doc = ?, updated_at = ? WHERE id = unhex(?)').run(
      +doc.read,
      +doc.seen,
      +m.archived,
      m.snoozedUntil,
      messageRows.pack(doc, m.stepId),
      ms,
      m.id,
    );
  }
}

/** The JSON path of a data filter's key in a message document: `a.b` is `$.data."a"."b"`. */
function dataPath(key: string): string {
  return `$.data${key
    .split('.')
    .map((k) => `."${k.replace(/"/g, '""')}"`)
    .join('')}`;
}

function toInbox(r: Row): InboxMessage {
  const rec = messageRows.read(r);
  return {
    ...rec,
    severity: r.n_severity ?? 'none',
    tags: r.n_tags ? (JSON.parse(r.n_tags) as string[]) : [],
    critical: r.n_critical === 1,
    workflowDbId: r.n_workflow_id ?? '',
    archived: r.archived === 1,
    snoozedUntil: r.snoozed_until,
    stepId: r.j_step_id ?? undefined,
    createdAtMs: r.created_at,
  };
}

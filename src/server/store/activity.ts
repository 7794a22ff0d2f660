// The activity feed: triggered events (notifications, one per recipient) and the transactionIds
// already accepted. Their jobs and execution details are in jobs.ts.
import type { JsonObject } from '../../api/schemas/common.js';
import { CHANNELS } from '../../api/enum-values.js';
import type { StepType } from '../../api/schemas/enums.js';
import { type EventStatus, judge, jobStatusesNeeded, type StatusJob } from '../../core/status.js';
import { NewestFirstPages } from './paging.js';
import { contextKeySet, idList, idText, isoAt, parseDoc, Repo, txKey, txText } from './repo.js';

interface NotificationDoc {
  payload: JsonObject;
  overrides: JsonObject;
  tags: string[];
  to: unknown;
  topics: { _topicId: string; topicKey: string }[];
  critical: boolean;
  contextKeys: string[];
  actorId?: string | undefined;
  tenant?: string | undefined;
  /** Set when this event was merged into another notification's digest. */
  digestedNotificationId?: string | undefined;
}

export interface NotificationRecord {
  id: string;
  envId: string;
  orgId: string;
  transactionId: string;
  workflowId: string;
  subscriberId: string;
  channels: StepType[];
  severity: string;
  doc: NotificationDoc;
  createdAt: string;
  updatedAt: string;
}

interface NotificationRow {
  id: string;
  env_id: string;
  org_id: string;
  transaction_id: string;
  workflow_id: string;
  subscriber_id: string;
  channels: string;
  severity: string;
  doc: string;
  /** Service milliseconds. */
  created_at: number;
  updated_at: number;
}

const SELECT_NOTIFICATION = `SELECT ${idText('id')}, ${idText('env_id')}, ${idText('org_id')}, ${txText('transaction_id')}, ${idText('workflow_id')},
  ${idText('subscriber_id')}, channels, severity, doc, created_at, updated_at FROM notifications`;
/** Built once: Repo.stmt finds a statement by its SQL, and a string built per call is hashed per call. */
const NOTIFICATION_BY_ID = `${SELECT_NOTIFICATION} WHERE id = unhex(?)`;
const NOTIFICATION_IN_ENV = `${SELECT_NOTIFICATION} WHERE env_id = unhex(?) AND id = unhex(?)`;
/** A page of the feed, with the row's stored id (`__k`) for the next page's seek (paging.ts). */
const SELECT_NOTIFICATION_KEYED = SELECT_NOTIFICATION.replace(/^SELECT /, 'SELECT id AS __k, ');

export const toNotification = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  envId: r.env_id,
  orgId: r.org_id,
  transactionId: r.transaction_id,
  workflowId: r.workflow_id,
  subscriberId: r.subscriber_id,
  channels: parseDoc<StepType[]>(r.channels),
  severity: r.severity,
  doc: { overrides: {}, tags: [], topics: [], critical: false, contextKeys: [], ...parseDoc<Partial<NotificationDoc>>(r.doc) } as NotificationDoc,
  createdAt: isoAt(r.created_at),
  updatedAt: isoAt(r.updated_at),
});

interface EventFilter {
  channels?: string[] | undefined;
  templates?: string[] | undefined;
  subscriberDbIds?: string[] | undefined;
  subscriberIds?: string[] | undefined;
  severity?: string[] | undefined;
  transactionId?: string | undefined;
  topicKey?: string | undefined;
  /** The topic subscription the event reached the subscriber through. */
  subscriptionId?: string | undefined;
  contextKeys?: string[] | undefined;
  after?: string | undefined;
  before?: string | undefined;
  /**
   * Events of these derived statuses (core/status.ts), judged over `channels`' steps when given: svc
   * dev's extension of the feed (`svcStatus`), which the hosted service does not have.
   */
  statuses?: readonly EventStatus[] | undefined;
}

/**
 * svc_event_status(jobs, channels): an event's derived status, judged by core/status.ts from its jobs
 * as `[[type, status, last detail], ...]` (JSON), over the steps of `channels` (a JSON array) or all.
 * The last detail is what judge() reads of a job's details to tell a throttle from a skip.
 */
function statusOfRow(jobs: string, channels: string | null): string {
  const list = JSON.parse(jobs) as [string, string, unknown][];
  const statusJobs: StatusJob[] = list.map(([type, status, detail]) => ({
    type,
    status,
    ...(typeof detail === 'string' && { executionDetails: [{ detail }] }),
  }));
  return judge(statusJobs, channels === null ? {} : { channels: JSON.parse(channels) as string[] }).status;
}

/** The jobs of the event `n` as statusOfRow reads them (details keep their last text at [1]). */
const JOBS_OF_ROW =
  "(SELECT json_group_array(json_array(j.type, j.status, j.details ->> '$[#-1][1]') ORDER BY j.step_index) FROM jobs j WHERE j.notification_id = n.id)";

/** The document without its empty defaults (put back when read): most events have no overrides, topics or context. */
function packDoc(doc: NotificationDoc): string {
  const out: Partial<NotificationDoc> = { ...doc };
  if (Object.keys(doc.overrides).length === 0) delete out.overrides;
  if (doc.tags.length === 0) delete out.tags;
  if (doc.topics.length === 0) delete out.topics;
  if (doc.contextKeys.length === 0) delete out.contextKeys;
  if (!doc.critical) delete out.critical;
  return JSON.stringify(out);
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

export class Activity extends Repo {
  /** Deep pages seek where the page before ended (paging.ts). */
  readonly pages = new NewestFirstPages(this.db, 'n');
  private statusFunction = false;

  // --- transactionId deduplication ---------------------------------------------------------------

  /** `'processed'` when an earlier trigger with this transactionId created events (their index is the record: no row of its own). */
  acceptedTrigger(envId: string, transactionId: string): 'processed' | undefined {
    return this.stmt('SELECT 1 FROM notifications WHERE transaction_id = ? AND env_id = unhex(?) LIMIT 1').get(txKey(transactionId), envId)
      ? 'processed'
      : undefined;
  }

  // --- notifications -----------------------------------------------------------------------------

  createNotification(n: Omit<NotificationRecord, 'id' | 'createdAt' | 'updatedAt'>): NotificationRecord {
    const ms = this.clock.now();
    const now = isoAt(ms);
    const rec: NotificationRecord = { ...n, id: this.newId(), createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO notifications (id, env_id, org_id, transaction_id, workflow_id, subscriber_id, channels, severity, context_keys,
       topic_keys, doc, created_at, updated_at) VALUES (unhex(?), unhex(?), unhex(?), ?, unhex(?), unhex(?), ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rec.id,
      rec.envId,
      rec.orgId,
      txKey(rec.transactionId),
      rec.workflowId,
      rec.subscriberId,
      JSON.stringify(rec.channels),
      rec.severity,
      contextKeySet(rec.doc.contextKeys),
      JSON.stringify(rec.doc.topics.map((t) => t.topicKey)),
      packDoc(rec.doc),
      ms,
      ms,
    );
    return rec;
  }

  notification(envId: string, id: string): NotificationRecord | undefined {
    const row = this.stmt(NOTIFICATION_IN_ENV).get(envId, id) as NotificationRow | undefined;
    return row ? toNotification(row) : undefined;
  }

  notificationById(id: string): NotificationRecord | undefined {
    const row = this.stmt(NOTIFICATION_BY_ID).get(id) as NotificationRow | undefined;
    return row ? toNotification(row) : undefined;
  }

  /** This event's digest step merged it into `into`'s digest. */
  setDigested(id: string, into: string): void {
    this.stmt("UPDATE notifications SET doc = json_set(doc, '$.digestedNotificationId', ?), updated_at = ? WHERE id = unhex(?)").run(
      into,
      this.clock.now(),
      id,
    );
  }

  /** Which digest the event's events went out in (`into`'s), or none; its update time unchanged. */
  setDigestedInto(id: string, into: string | undefined): void {
    if (into === undefined) this.stmt("UPDATE notifications SET doc = json_remove(doc, '$.digestedNotificationId') WHERE id = unhex(?)").run(id);
    else this.stmt("UPDATE notifications SET doc = json_set(doc, '$.digestedNotificationId', ?) WHERE id = unhex(?)").run(into, id);
  }

  /** The event changed now (a job of it settled); a second change in the same millisecond writes nothing. */
  touchNotification(id: string): void {
    const now = this.clock.now();
    this.stmt('UPDATE notifications SET updated_at = ? WHERE id = unhex(?) AND updated_at <> ?').run(now, id, now);
  }

  /** Newest first, one page, with one extra row to tell whether there is more. */
  listNotifications(envId: string, f: EventFilter, page: number, limit: number): { hasMore: boolean; rows: NotificationRecord[] } {
    // A filter with its own index (migrations.ts) reads its rows in page order through it, the most
    // selective one given: a transactionId, a subscriber, a workflow, one severity, one channel. The
    // other conditions are checked on each row it finds, written with `+` (not an index choice) so
    // that the planner never walks another index instead, e.g. the environment's newest-first one,
    // reading every newer event of others.
    const oneChannel = f.channels?.length === 1 && (CHANNELS as readonly string[]).includes(f.channels[0]!) ? f.channels[0] : undefined;
    const by =
      f.transactionId !== undefined
        ? 'transaction'
        : f.subscriberIds !== undefined || f.subscriberDbIds !== undefined
          ? 'subscriber'
          : f.templates !== undefined
            ? 'workflow'
            : f.severity?.length === 1
              ? 'severity'
              : oneChannel !== undefined
                ? 'channel'
                : undefined;
    const col = (name: string, indexed: boolean) => (indexed ? `n.${name}` : `+n.${name}`);
    const where = [`${col('env_id', by === undefined)} = unhex(?)`];
    const params: unknown[] = [envId];
    const inList = (expr: string, values: string[] | undefined, ids = false) => {
      if (values === undefined) return;
      where.push(values.length ? `${expr} IN (${ids ? idList(values.length) : placeholders(values.length)})` : '0');
      params.push(...values);
    };
    // The condition of the channel's partial index, as literal text (a known channel name).
    if (by === 'channel') where.push(`n.channels LIKE '%"${oneChannel}"%'`);
    if (f.channels !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM json_each(n.channels) WHERE value IN (${placeholders(f.channels.length)}))`);
      params.push(...f.channels);
    }
    inList(col('workflow_id', by === 'workflow'), f.templates, true);
    inList(col('subscriber_id', by === 'subscriber'), f.subscriberDbIds, true);
    // Their database ids first: one bound id is an equality, which the index answers in page order.
    if (f.subscriberIds !== undefined) {
      const ids = f.subscriberIds.length
        ? (
            this.db
              .prepare(`SELECT id FROM subscribers WHERE env_id = ? AND subscriber_id IN (${placeholders(f.subscriberIds.length)})`)
              .all(envId, ...f.subscriberIds) as { id: string }[]
          ).map((r) => r.id)
        : [];
      inList(col('subscriber_id', by === 'subscriber'), ids, true);
    }
    inList(col('severity', by === 'severity'), f.severity);
    if (f.transactionId !== undefined) {
      where.push('n.transaction_id = ?');
      params.push(txKey(f.transactionId));
    }
    if (f.topicKey !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(n.topic_keys) WHERE value = ?)');
      params.push(f.topicKey);
    }
    if (f.subscriptionId !== undefined) {
      // svc dev records no topic-subscription ids on its events yet, so nothing matches an id; the
      // filter still applies (ignoring it would list every event).
      where.push("json_extract(n.doc, '$.subscriptionId') = ?");
      params.push(f.subscriptionId);
    }
    if (f.contextKeys !== undefined) {
      where.push('n.context_keys = ?');
      params.push(contextKeySet(f.contextKeys));
    }
    if (f.after !== undefined) {
      where.push('n.created_at >= ?');
      params.push(Date.parse(f.after));
    }
    if (f.before !== undefined) {
      where.push('n.created_at <= ?');
      params.push(Date.parse(f.before));
    }
    if (f.statuses !== undefined) this.whereStatus(f.statuses, f.channels, where, params);
    const rows = this.pages.rows<NotificationRow & { __k: unknown }>(`${SELECT_NOTIFICATION_KEYED} n`, where.join(' AND '), params, page, limit);
    return { hasMore: rows.length > limit, rows: rows.slice(0, limit).map(toNotification) };
  }

  /**
   * The derived-status filter: each event is judged by core/status.ts (svc_event_status), after a test
   * of its jobs' own statuses that rules most events out cheaply (an event that failed has a failed job).
   */
  private whereStatus(statuses: readonly EventStatus[], channels: readonly string[] | undefined, where: string[], params: unknown[]): void {
    if (statuses.length === 0) {
      where.push('0');
      return;
    }
    if (!this.statusFunction) {
      this.db.function('svc_event_status', { deterministic: true }, (jobs: unknown, scope: unknown) =>
        statusOfRow(String(jobs), typeof scope === 'string' ? scope : null),
      );
      this.statusFunction = true;
    }
    const needed = statuses.map(jobStatusesNeeded);
    if (needed.every((n) => n !== undefined)) {
      const any = [...new Set(needed.flat())];
      const types = channels?.length ? ` AND j.type IN (${placeholders(channels.length)})` : '';
      where.push(`EXISTS (SELECT 1 FROM jobs j WHERE j.notification_id = n.id AND j.status IN (${placeholders(any.length)})${types})`);
      params.push(...any, ...(channels?.length ? channels : []));
    }
    where.push(`svc_event_status(${JOBS_OF_ROW}, ?) IN (${placeholders(statuses.length)})`);
    params.push(channels?.length ? JSON.stringify(channels) : null, ...statuses);
  }
}

// The activity feed: triggered events (notifications, one per recipient), their jobs (one per step)
// with the execution details the service records, and the transactionIds already accepted.
import type { JsonObject } from '../../api/schemas/common.js';
import type { ExecutionDetailSource, ExecutionDetailStatus, JobStatus, StepType } from '../../api/schemas/enums.js';
import { contextKeySet, parseDoc, Repo } from './repo.js';
import type { StoredStep } from './workflows.js';

export interface NotificationDoc {
  payload: JsonObject;
  overrides: JsonObject;
  tags: string[];
  to: unknown;
  topics: { _topicId: string; topicKey: string }[];
  critical: boolean;
  contextKeys: string[];
  actorId?: string | undefined;
  tenant?: string | undefined;
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

export interface JobRecord {
  id: string;
  envId: string;
  orgId: string;
  notificationId: string;
  subscriberId: string;
  workflowId: string;
  stepIndex: number;
  type: StepType;
  status: JobStatus;
  /** Service-time milliseconds at which a queued or delayed job is due. */
  runAt: number;
  providerId: string | null;
  /** Free-form state a step handler keeps between runs of the same job. */
  state: JsonObject;
  step: StoredStep;
  createdAt: string;
  updatedAt: string;
}

export interface DetailInput {
  status: ExecutionDetailStatus;
  detail: string;
  source?: ExecutionDetailSource;
  providerId?: string | null | undefined;
  raw?: string | null | undefined;
}

export interface DetailRecord {
  id: string;
  job_id: string;
  status: ExecutionDetailStatus;
  detail: string;
  source: ExecutionDetailSource;
  provider_id: string | null;
  raw: string | null;
  created_at: string;
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
  created_at: string;
  updated_at: string;
}

interface JobRow {
  id: string;
  env_id: string;
  org_id: string;
  notification_id: string;
  subscriber_id: string;
  workflow_id: string;
  step_index: number;
  type: StepType;
  status: JobStatus;
  run_at: number;
  provider_id: string | null;
  state: string;
  doc: string;
  created_at: string;
  updated_at: string;
}

const toNotification = (r: NotificationRow): NotificationRecord => ({
  id: r.id,
  envId: r.env_id,
  orgId: r.org_id,
  transactionId: r.transaction_id,
  workflowId: r.workflow_id,
  subscriberId: r.subscriber_id,
  channels: parseDoc<StepType[]>(r.channels),
  severity: r.severity,
  doc: parseDoc<NotificationDoc>(r.doc),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toJob = (r: JobRow): JobRecord => ({
  id: r.id,
  envId: r.env_id,
  orgId: r.org_id,
  notificationId: r.notification_id,
  subscriberId: r.subscriber_id,
  workflowId: r.workflow_id,
  stepIndex: r.step_index,
  type: r.type,
  status: r.status,
  runAt: r.run_at,
  providerId: r.provider_id,
  state: parseDoc<JsonObject>(r.state),
  step: parseDoc<{ step: StoredStep }>(r.doc).step,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface EventFilter {
  channels?: string[] | undefined;
  templates?: string[] | undefined;
  subscriberDbIds?: string[] | undefined;
  subscriberIds?: string[] | undefined;
  severity?: string[] | undefined;
  transactionId?: string | undefined;
  topicKey?: string | undefined;
  contextKeys?: string[] | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

export class Activity extends Repo {
  // --- transactionId deduplication ---------------------------------------------------------------

  acceptedTrigger(envId: string, transactionId: string): JsonObject | undefined {
    const row = this.stmt('SELECT result FROM triggers WHERE env_id = ? AND transaction_id = ?').get(envId, transactionId) as
      | { result: string }
      | undefined;
    return row ? parseDoc<JsonObject>(row.result) : undefined;
  }

  recordTrigger(envId: string, transactionId: string, result: JsonObject): void {
    this.stmt('INSERT INTO triggers (env_id, transaction_id, result, created_at) VALUES (?, ?, ?, ?)').run(
      envId,
      transactionId,
      JSON.stringify(result),
      this.nowIso(),
    );
  }

  // --- notifications -----------------------------------------------------------------------------

  createNotification(n: Omit<NotificationRecord, 'id' | 'createdAt' | 'updatedAt'>): NotificationRecord {
    const now = this.nowIso();
    const rec: NotificationRecord = { ...n, id: this.newId(), createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO notifications (id, env_id, org_id, transaction_id, workflow_id, subscriber_id, channels, severity, context_keys,
       topic_keys, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rec.id,
      rec.envId,
      rec.orgId,
      rec.transactionId,
      rec.workflowId,
      rec.subscriberId,
      JSON.stringify(rec.channels),
      rec.severity,
      contextKeySet(rec.doc.contextKeys),
      JSON.stringify(rec.doc.topics.map((t) => t.topicKey)),
      JSON.stringify(rec.doc),
      now,
      now,
    );
    return rec;
  }

  notification(envId: string, id: string): NotificationRecord | undefined {
    const row = this.stmt('SELECT * FROM notifications WHERE env_id = ? AND id = ?').get(envId, id) as NotificationRow | undefined;
    return row ? toNotification(row) : undefined;
  }

  notificationById(id: string): NotificationRecord | undefined {
    const row = this.stmt('SELECT * FROM notifications WHERE id = ?').get(id) as NotificationRow | undefined;
    return row ? toNotification(row) : undefined;
  }

  touchNotification(id: string): void {
    this.stmt('UPDATE notifications SET updated_at = ? WHERE id = ?').run(this.nowIso(), id);
  }

  /** Newest first, one page, with one extra row to tell whether there is more. */
  listNotifications(envId: string, f: EventFilter, page: number, limit: number): { hasMore: boolean; rows: NotificationRecord[] } {
    const where = ['n.env_id = ?'];
    const params: unknown[] = [envId];
    const inList = (expr: string, values: string[] | undefined) => {
      if (values === undefined) return;
      where.push(values.length ? `${expr} IN (${placeholders(values.length)})` : '0');
      params.push(...values);
    };
    if (f.channels !== undefined) {
      where.push(`EXISTS (SELECT 1 FROM json_each(n.channels) WHERE value IN (${placeholders(f.channels.length)}))`);
      params.push(...f.channels);
    }
    inList('n.workflow_id', f.templates);
    inList('n.subscriber_id', f.subscriberDbIds);
    if (f.subscriberIds !== undefined) {
      where.push(
        `n.subscriber_id IN (SELECT id FROM subscribers WHERE env_id = n.env_id AND subscriber_id IN (${placeholders(f.subscriberIds.length)}))`,
      );
      params.push(...f.subscriberIds);
    }
    inList('n.severity', f.severity);
    if (f.transactionId !== undefined) {
      where.push('n.transaction_id = ?');
      params.push(f.transactionId);
    }
    if (f.topicKey !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(n.topic_keys) WHERE value = ?)');
      params.push(f.topicKey);
    }
    if (f.contextKeys !== undefined) {
      where.push('n.context_keys = ?');
      params.push(contextKeySet(f.contextKeys));
    }
    if (f.after !== undefined) {
      where.push('n.created_at >= ?');
      params.push(f.after);
    }
    if (f.before !== undefined) {
      where.push('n.created_at <= ?');
      params.push(f.before);
    }
    const rows = this.db
      .prepare(`SELECT n.* FROM notifications n WHERE ${where.join(' AND ')} ORDER BY n.created_at DESC, n.id DESC LIMIT ? OFFSET ?`)
      .all(...params, limit + 1, page * limit) as NotificationRow[];
    return { hasMore: rows.length > limit, rows: rows.slice(0, limit).map(toNotification) };
  }

  // --- jobs --------------------------------------------------------------------------------------

  createJob(j: Omit<JobRecord, 'id' | 'createdAt' | 'updatedAt'>): JobRecord {
    const now = this.nowIso();
    const rec: JobRecord = { ...j, id: this.newId(), createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO jobs (id, env_id, org_id, notification_id, subscriber_id, workflow_id, step_index, type, status, run_at,
       provider_id, state, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rec.id,
      rec.envId,
      rec.orgId,
      rec.notificationId,
      rec.subscriberId,
      rec.workflowId,
      rec.stepIndex,
      rec.type,
      rec.status,
      rec.runAt,
      rec.providerId,
      JSON.stringify(rec.state),
      JSON.stringify({ step: rec.step }),
      now,
      now,
    );
    return rec;
  }

  job(id: string): JobRecord | undefined {
    const row = this.stmt('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  jobsOf(notificationIds: string[]): JobRecord[] {
    if (notificationIds.length === 0) return [];
    const rows = this.db
      .prepare(`SELECT * FROM jobs WHERE notification_id IN (${placeholders(notificationIds.length)}) ORDER BY step_index`)
      .all(...notificationIds) as JobRow[];
    return rows.map(toJob);
  }

  /** Queued or delayed jobs due at `now`, oldest first. */
  dueJobs(now: number, limit: number): JobRecord[] {
    const rows = this.stmt(
      "SELECT * FROM jobs WHERE status IN ('queued', 'delayed') AND run_at <= ? ORDER BY run_at, id LIMIT ?",
    ).all(now, limit) as JobRow[];
    return rows.map(toJob);
  }

  nextRunAt(): number | undefined {
    const row = this.stmt("SELECT min(run_at) AS t FROM jobs WHERE status IN ('queued', 'delayed')").get() as { t: number | null };
    return row.t ?? undefined;
  }

  /** Jobs that were running when the process died run again. */
  requeueRunning(): number {
    return this.stmt("UPDATE jobs SET status = 'queued' WHERE status = 'running'").run().changes;
  }

  updateJob(
    id: string,
    change: { status: JobStatus; runAt?: number | undefined; providerId?: string | null | undefined; state?: JsonObject | undefined },
  ): void {
    this.stmt(
      `UPDATE jobs SET status = ?, run_at = coalesce(?, run_at), provider_id = coalesce(?, provider_id),
       state = coalesce(?, state), updated_at = ? WHERE id = ?`,
    ).run(
      change.status,
      change.runAt ?? null,
      change.providerId ?? null,
      change.state === undefined ? null : JSON.stringify(change.state),
      this.nowIso(),
      id,
    );
  }

  /** The pending jobs after `stepIndex`, in order. */
  pendingAfter(notificationId: string, stepIndex: number): JobRecord[] {
    const rows = this.stmt(
      "SELECT * FROM jobs WHERE notification_id = ? AND step_index > ? AND status = 'pending' ORDER BY step_index",
    ).all(notificationId, stepIndex) as JobRow[];
    return rows.map(toJob);
  }

  // --- execution details ----------------------------------------------------------------------------

  addDetail(job: Pick<JobRecord, 'id' | 'notificationId'>, d: DetailInput): void {
    this.stmt(
      `INSERT INTO execution_details (id, job_id, notification_id, status, detail, source, provider_id, raw, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(this.newId(), job.id, job.notificationId, d.status, d.detail, d.source ?? 'Internal', d.providerId ?? null, d.raw ?? null, this.nowIso());
  }

  detailsOf(notificationIds: string[]): DetailRecord[] {
    if (notificationIds.length === 0) return [];
    return this.db
      .prepare(`SELECT * FROM execution_details WHERE notification_id IN (${placeholders(notificationIds.length)}) ORDER BY created_at, id`)
      .all(...notificationIds) as DetailRecord[];
  }
}

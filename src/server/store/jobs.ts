// Jobs (one per step of a notification) with their status and run-at time, and the execution details
// the service records for them. Statuses are the API's words, checked by the schema (migrations.ts);
// details are kept on their job's row (details.ts). This file reads and writes rows: which job moves
// on, and why, is the runner's (runner/).
import type { JsonObject } from '../../api/schemas/common.js';
import type { JobStatus, StepType } from '../../api/schemas/enums.js';
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import type { Cache, Caches } from './cache.js';
import type { DB } from './db.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import { type NotificationRecord, toNotification } from './activity.js';
import { type DetailInput, type DetailRecord, readDetails, type StoredTimeline, toStored } from './details.js';
import { idList, idText, isoAt, parseDoc, Repo, txKey, txText } from './repo.js';
import type { StoredStep, StoredWorkflow } from './workflows.js';

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
  /** Free-form state a step handler keeps between runs of the same job; `output` is `steps.<id>`. */
  state: JsonObject;
  step: StoredStep;
  /** The digest or throttle group the job counts in (see groupRef), else null. */
  groupKey: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A job's change of status, with what its run set (provider, state) and, for a delay, when it is due. */
interface JobChange {
  status: JobStatus;
  runAt?: number | undefined;
  providerId?: string | null | undefined;
  state?: JsonObject | undefined;
}

interface JobRow {
  id: string;
  notification_id: string;
  step_index: number;
  type: StepType;
  status: JobStatus;
  run_at: number;
  provider_id: string | null;
  state: string;
  group_key: string | null;
  step_ref: string;
  /** Service milliseconds. */
  created_at: number;
  updated_at: number;
  /** Its event's (joined). */
  env_id: string;
  org_id: string;
  subscriber_id: string;
  workflow_id: string;
}

/** A due job, and its event and subscriber when their rows are there (a damaged store may lack them). */
interface DueJob {
  job: JobRecord;
  notification: NotificationRecord | undefined;
  subscriber: Subscriber | undefined;
}

interface DueRow extends JobRow {
  n_transaction_id: string;
  n_channels: string;
  n_severity: string;
  n_doc: string | null;
  n_created_at: number;
  n_updated_at: number;
  s_doc: string | null;
}

/** The event's columns of a due row, as activity.ts reads an event's row. */
const eventColumns = (r: DueRow) => ({
  id: r.notification_id,
  env_id: r.env_id,
  org_id: r.org_id,
  transaction_id: r.n_transaction_id,
  workflow_id: r.workflow_id,
  subscriber_id: r.subscriber_id,
  channels: r.n_channels,
  severity: r.n_severity,
  doc: r.n_doc as string,
  created_at: r.n_created_at,
  updated_at: r.n_updated_at,
});

/**
 * A job row with what its event holds for it (a job keeps none of it). A job whose event is gone (a
 * damaged store) is still read, and fails when run, rather than never being due.
 */
const SELECT_JOB = `SELECT ${idText('j.id')}, ${idText('j.notification_id')}, j.step_index, j.type, j.status, j.run_at, j.provider_id, j.state,
  j.group_key, j.step_ref, j.created_at, j.updated_at, ${idText('n.env_id')}, ${idText('n.org_id')},
  ${idText('n.subscriber_id')}, ${idText('n.workflow_id')} FROM jobs j LEFT JOIN notifications n ON n.id = j.notification_id`;

/**
 * The statements run for every job, built once: Repo.stmt finds a prepared statement by its SQL text,
 * and a text built anew at each call is hashed anew.
 */
const JOB_BY_ID = `${SELECT_JOB} WHERE j.id = unhex(?)`;
/** Jobs with their event's and subscriber's rows, which running them needs (see DueJob). */
const SELECT_DUE = `${SELECT_JOB.replace(
  ' FROM jobs j',
  `, ${txText('n.transaction_id', 'n_transaction_id')}, n.channels AS n_channels, n.severity AS n_severity,
  n.doc AS n_doc, n.created_at AS n_created_at, n.updated_at AS n_updated_at, s.doc AS s_doc FROM jobs j`,
)}
  LEFT JOIN subscribers s ON s.id = lower(hex(n.subscriber_id))`;
/** Due jobs by id, per number of ids (a look reads up to its limit of them). */
const DUE_BY_IDS: string[] = [];
/** Read from the due index alone. (The id is not named `id`: ORDER BY would take that name for the hex text and sort again.) */
const DUE_IDS = `SELECT ${idText('id', 'hex_id')} FROM jobs WHERE status IN ('queued', 'delayed') AND run_at <= ? ORDER BY run_at, id LIMIT ?`;
/** The job's own row only: its event's fields are those of the job before it. */
const NEXT_PENDING = `SELECT ${idText('id')}, ${idText('notification_id')}, step_index, type, status, run_at, provider_id, state, group_key,
  step_ref, created_at, updated_at FROM jobs WHERE notification_id = unhex(?) AND step_index > ? AND status = 'pending' ORDER BY step_index LIMIT 1`;
const PENDING_AFTER = `${SELECT_JOB} WHERE j.notification_id = unhex(?) AND j.step_index > ? AND j.status = 'pending' ORDER BY j.step_index`;
const OPEN_DIGEST = `${SELECT_JOB} WHERE j.group_key = ? AND j.status = 'delayed' AND j.type = 'digest' AND j.id != unhex(?) ORDER BY j.created_at, j.id LIMIT 1`;

/**
 * A digest or throttle group as a job row keeps it: '#' and 16 characters of a hash of the group key
 * (which names the workflow, step, subscriber and key value, too long to repeat on every row and in
 * its index). A reference given again (a job's groupKey) is itself.
 */
function groupRef(groupKey: string): string {
  if (groupKey.startsWith('#')) return groupKey;
  return `#${createHash('sha1').update(groupKey).digest('base64url').slice(0, 16)}`;
}

/** A step definition's reference in step_defs: a hash of its JSON, so that equal steps share a row. */
function stepRefOf(json: string): string {
  return createHash('sha1').update(json).digest('base64url').slice(0, 16);
}

const statusParam = (change: JobChange, now: number, id: string) => ({
  status: change.status,
  runAt: change.runAt ?? null,
  providerId: change.providerId ?? null,
  state: change.state === undefined ? null : JSON.stringify(change.state),
  now,
  id,
});

export class Jobs extends Repo {
  /** Step definitions by reference: every job read needs its step, and a reference never changes content. */
  private readonly steps: Cache<string, StoredStep>;
  /** The references saveSteps wrote, by workflow version. */
  private readonly savedSteps: Cache<string, string[]>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.steps = caches.create(1000);
    this.savedSteps = caches.create(500);
  }

  private toJob(r: JobRow): JobRecord {
    return {
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
      step: this.stepDef(r.step_ref),
      groupKey: r.group_key,
      createdAt: isoAt(r.created_at),
      updatedAt: isoAt(r.updated_at),
    };
  }

  private stepDef(ref: string): StoredStep {
    let step = this.steps.get(ref);
    if (!step) {
      const row = this.stmt('SELECT doc FROM step_defs WHERE ref = ?').get(ref) as { doc: string } | undefined;
      if (!row) throw new Error(`step definition ${ref} is missing from the store`);
      step = parseDoc<StoredStep>(row.doc);
      this.steps.set(ref, step);
    }
    return step;
  }

  // --- jobs --------------------------------------------------------------------------------------

  /**
   * Stores each step definition of the workflow once (equal ones share a row) and returns their
   * references, in order. Known for a version of a workflow once written (every trigger of it asks).
   */
  saveSteps(workflow: Pick<StoredWorkflow, '_id' | 'updatedAt' | 'steps'>): string[] {
    const key = `${workflow._id}@${workflow.updatedAt}`;
    let refs = this.savedSteps.get(key);
    if (refs === undefined) {
      refs = workflow.steps.map((step) => {
        const json = JSON.stringify(step);
        const ref = stepRefOf(json);
        this.stmt('INSERT OR IGNORE INTO step_defs (ref, doc) VALUES (?, ?)').run(ref, json);
        return ref;
      });
      this.savedSteps.set(key, refs);
    }
    return refs;
  }

  /** A new job of a step saved by saveSteps; `detail`, if given, is its first execution detail. */
  createJob(j: Omit<JobRecord, 'id' | 'createdAt' | 'updatedAt' | 'groupKey'>, stepRef: string, detail?: DetailInput): JobRecord {
    const ms = this.clock.now();
    const now = isoAt(ms);
    const rec: JobRecord = { ...j, id: this.newId(), groupKey: null, createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO jobs (id, notification_id, step_index, type, status, run_at, provider_id, state, step_ref, details, created_at, updated_at)
       VALUES (unhex(?), unhex(?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      rec.id,
      rec.notificationId,
      rec.stepIndex,
      rec.type,
      rec.status,
      rec.runAt,
      rec.providerId,
      JSON.stringify(rec.state),
      stepRef,
      detail ? JSON.stringify([toStored(detail, 0)]) : null,
      ms,
      ms,
    );
    return rec;
  }

  job(id: string): JobRecord | undefined {
    const row = this.stmt(JOB_BY_ID).get(id) as JobRow | undefined;
    return row ? this.toJob(row) : undefined;
  }

  /** The jobs of these events, each event's in step order. */
  jobsOf(notificationIds: string[]): JobRecord[] {
    if (notificationIds.length === 0) return [];
    const rows = this.stmt(`${SELECT_JOB} WHERE j.notification_id IN (${idList(notificationIds.length)}) ORDER BY j.step_index`).all(
      ...notificationIds,
    ) as JobRow[];
    return rows.map((r) => this.toJob(r));
  }

  /** The jobs of the environment's events of this transactionId. */
  jobsOfTransaction(envId: string, transactionId: string): JobRecord[] {
    const ids = this.stmt(`SELECT ${idText('id')} FROM notifications WHERE transaction_id = ? AND env_id = unhex(?)`).all(txKey(transactionId), envId) as {
      id: string;
    }[];
    return this.jobsOf(ids.map((r) => r.id));
  }

  /** The ids of the queued or delayed jobs due at `now`, oldest first. */
  dueIds(now: number, limit: number): string[] {
    return (this.stmt(DUE_IDS).all(now, limit) as { hex_id: string }[]).map((r) => r.hex_id);
  }

  /** These jobs (due ones: queued or delayed) with their event and subscriber, in the order given. */
  due(ids: readonly string[]): DueJob[] {
    if (ids.length === 0) return [];
    const rows = this.stmt((DUE_BY_IDS[ids.length] ??= `${SELECT_DUE} WHERE j.id IN (${idList(ids.length)}) AND j.status IN ('queued', 'delayed')`)).all(
      ...ids,
    ) as DueRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: DueJob[] = [];
    for (const id of ids) {
      const r = byId.get(id);
      if (r)
        out.push({
          job: this.toJob(r),
          notification: r.n_doc === null ? undefined : toNotification(eventColumns(r)),
          subscriber: r.s_doc === null ? undefined : parseDoc<Subscriber>(r.s_doc),
        });
    }
    return out;
  }

  /** When the earliest queued or delayed job is due (of those due after `after`, when given). */
  nextRunAt(after?: number): number | undefined {
    const row = (
      after === undefined
        ? this.stmt("SELECT min(run_at) AS t FROM jobs WHERE status IN ('queued', 'delayed')").get()
        : this.stmt("SELECT min(run_at) AS t FROM jobs WHERE status IN ('queued', 'delayed') AND run_at > ?").get(after)
    ) as { t: number | null };
    return row.t ?? undefined;
  }

  /** Jobs left `running` (by a process that stopped) are queued again, each with `detail`; how many. */
  requeueRunning(detail: DetailInput): number {
    const now = this.clock.now();
    const rows = this.stmt(`SELECT ${idText('id')}, created_at FROM jobs WHERE status = 'running'`).all() as { id: string; created_at: number }[];
    for (const r of rows) this.settleJob({ id: r.id, createdAt: iso(r.created_at) }, { status: 'queued', runAt: now }, [detail]);
    return rows.length;
  }

  /** Replaces the step's output (`steps.<id>` of later steps) in the job's state. */
  setOutput(id: string, output: JsonObject): void {
    this.stmt("UPDATE jobs SET state = json_set(state, '$.output', json(?)) WHERE id = unhex(?)").run(JSON.stringify(output), id);
  }

  /** Replaces the job's state. */
  setState(id: string, state: JsonObject): void {
    this.stmt('UPDATE jobs SET state = ? WHERE id = unhex(?)').run(JSON.stringify(state), id);
  }

  /**
   * The job's new status (and what its run set), with `details` appended to its timeline, in one row
   * write.
   */
  settleJob(job: Pick<JobRecord, 'id' | 'createdAt'>, change: JobChange, details: readonly DetailInput[]): void {
    const now = this.clock.now();
    if (details.length === 0) {
      this.stmt(
        `UPDATE jobs SET status = @status, run_at = coalesce(@runAt, run_at), provider_id = coalesce(@providerId, provider_id),
         state = coalesce(@state, state), updated_at = @now WHERE id = unhex(@id)`,
      ).run(statusParam(change, now, job.id));
      return;
    }
    const offset = now - Date.parse(job.createdAt);
    const stored = JSON.stringify(details.map((d) => toStored(d, Number.isFinite(offset) ? offset : 0)));
    this.stmt(
      `UPDATE jobs SET status = @status, run_at = coalesce(@runAt, run_at), provider_id = coalesce(@providerId, provider_id),
       state = coalesce(@state, state), updated_at = @now,
       details = CASE WHEN details IS NULL OR details = '[]' THEN @stored ELSE substr(details, 1, length(details) - 1) || ',' || substr(@stored, 2) END
       WHERE id = unhex(@id)`,
    ).run({ ...statusParam(change, now, job.id), stored });
  }

  /** Appends one detail to the job's timeline, its status unchanged. */
  addDetail(job: Pick<JobRecord, 'id' | 'notificationId'>, d: DetailInput): void {
    const now = this.clock.now();
    // The offset from the job's creation is computed in SQL: the caller may only know the job's id.
    this.stmt(
      `UPDATE jobs SET details = json_insert(coalesce(details, '[]'), '$[#]', json_set(json(?), '$[2]', CAST(? AS INTEGER) - created_at)),
       updated_at = ? WHERE id = unhex(?)`,
    ).run(JSON.stringify(toStored(d, 0)), now, now, job.id);
  }

  /** The first pending job of `job`'s event after it, if any. */
  nextPending(job: JobRecord): JobRecord | undefined {
    const row = this.stmt(NEXT_PENDING).get(job.notificationId, job.stepIndex) as
      | Omit<JobRow, 'env_id' | 'org_id' | 'subscriber_id' | 'workflow_id'>
      | undefined;
    return row && this.toJob({ ...row, env_id: job.envId, org_id: job.orgId, subscriber_id: job.subscriberId, workflow_id: job.workflowId });
  }

  /** The pending jobs after `stepIndex`, in order. */
  pendingAfter(notificationId: string, stepIndex: number): JobRecord[] {
    const rows = this.stmt(PENDING_AFTER).all(notificationId, stepIndex) as JobRow[];
    return rows.map((r) => this.toJob(r));
  }

  /**
   * The jobs of an event before `stepIndex`, in order, with only their step id, type, status and
   * state (a code-first step's execute body states each earlier step's result).
   */
  earlierSteps(notificationId: string, stepIndex: number): { stepId: string; type: StepType; status: JobStatus; state: JsonObject }[] {
    const rows = this.stmt('SELECT type, status, state, step_ref FROM jobs WHERE notification_id = unhex(?) AND step_index < ? ORDER BY step_index').all(
      notificationId,
      stepIndex,
    ) as Pick<JobRow, 'type' | 'status' | 'state' | 'step_ref'>[];
    return rows.map((r) => ({ stepId: this.stepDef(r.step_ref).stepId, type: r.type, status: r.status, state: parseDoc<JsonObject>(r.state) }));
  }

  // --- digest and throttle groups ------------------------------------------------------------------

  /** Puts the job in a group; `at` (service ms) is when it counts, for throttle windows. */
  setGroup(id: string, groupKey: string, at?: number): void {
    this.stmt('UPDATE jobs SET group_key = ?, run_at = coalesce(?, run_at) WHERE id = unhex(?)').run(groupRef(groupKey), at ?? null, id);
  }

  /** The digest of this group still collecting events (a delayed digest job), if any. */
  openDigest(groupKey: string, exceptId: string): JobRecord | undefined {
    const row = this.stmt(OPEN_DIGEST).get(groupRef(groupKey), exceptId) as JobRow | undefined;
    return row ? this.toJob(row) : undefined;
  }

  /** When the group's latest event before this one arrived (its job's creation), for backoff digests. */
  lastGroupEventAt(groupKey: string, exceptId: string): number | null {
    const row = this.stmt('SELECT max(created_at) AS t FROM jobs WHERE group_key = ? AND id != unhex(?)').get(groupRef(groupKey), exceptId) as {
      t: number | null;
    };
    return row.t;
  }

  /** The digest jobs merged into `leaderId`'s digest, oldest first. */
  digestFollowers(groupKey: string, leaderId: string): JobRecord[] {
    const rows = this.stmt(
      `${SELECT_JOB} WHERE j.group_key = ? AND j.status = 'merged' AND j.type = 'digest' AND json_extract(j.state, '$.mergedInto') = ?
       ORDER BY j.created_at, j.id`,
    ).all(groupRef(groupKey), leaderId) as JobRow[];
    return rows.map((r) => this.toJob(r));
  }

  /** The events merged into a digest: each merged job's notification, its creation time and payload. */
  digestedEvents(groupKey: string, leaderId: string): { notificationId: string; createdAt: string; payload: JsonObject }[] {
    const rows = this.stmt(
      `SELECT ${idText('n.id', 'notificationId')}, n.created_at AS createdAt, json_extract(n.doc, '$.payload') AS payload
       FROM jobs j JOIN notifications n ON n.id = j.notification_id
       WHERE j.group_key = ? AND j.status = 'merged' AND json_extract(j.state, '$.mergedInto') = ?
       ORDER BY n.created_at, n.id`,
    ).all(groupRef(groupKey), leaderId) as { notificationId: string; createdAt: number; payload: string | null }[];
    return rows.map((r) => ({
      notificationId: r.notificationId,
      createdAt: iso(r.createdAt),
      payload: r.payload ? parseDoc<JsonObject>(r.payload) : {},
    }));
  }

  /** The times (service ms, newest first) of the executions a throttle group has let through. */
  throttleHistory(groupKey: string, limit: number): number[] {
    const rows = this.stmt("SELECT run_at FROM jobs WHERE group_key = ? AND status = 'completed' ORDER BY run_at DESC LIMIT ?").all(
      groupRef(groupKey),
      limit,
    ) as { run_at: number }[];
    return rows.map((r) => r.run_at);
  }

  // --- execution details ----------------------------------------------------------------------------

  /** The execution details of these notifications' jobs, oldest first. */
  detailsOf(notificationIds: string[]): DetailRecord[] {
    if (notificationIds.length === 0) return [];
    const rows = this.stmt(
      `SELECT ${idText('id')}, created_at, details FROM jobs WHERE notification_id IN (${idList(notificationIds.length)}) AND details IS NOT NULL`,
    ).all(...notificationIds) as StoredTimeline[];
    return readDetails(rows);
  }
}

export type { DetailInput, DetailRecord } from './details.js';

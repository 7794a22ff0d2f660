// Jobs (one per step of a notification) with their status and run-at time, and the execution details
// the service records for them. The runner is the only one that moves a job on; see runner/.
import type { JsonObject } from '../../api/schemas/common.js';
import type { ExecutionDetailSource, ExecutionDetailStatus, JobStatus, StepType } from '../../api/schemas/enums.js';
import { createHash } from 'node:crypto';
import { iso } from '../clock.js';
import { idList, idText, isoAt, parseDoc, Repo, txKey } from './repo.js';
import type { StoredStep } from './workflows.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { NotificationRecord } from './activity.js';

/**
 * What the trigger that created a job already had in memory: its event and subscriber. The runner
 * takes them instead of reading and parsing them back (and the job's row) when the job comes due.
 * `subscriberWrites`: Subscribers.writes when the record was read (any subscriber write since, and
 * the runner reads it again).
 */
export interface JobHint {
  job: JobRecord;
  notification: NotificationRecord;
  subscriber: Subscriber;
  subscriberWrites: number;
  /** The trigger created no job after this one for its event (a one-step workflow). */
  last: boolean;
}

/** A due job, with what its trigger left for the runner if it was created in this process. */
export interface DueJob {
  job: JobRecord;
  hint: JobHint | undefined;
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
  /** Free-form state a step handler keeps between runs of the same job; `output` is `steps.<id>`. */
  state: JsonObject;
  step: StoredStep;
  /** The digest or throttle group the job counts in (see migrations.ts), else null. */
  groupKey: string | null;
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
  details: string | null;
  /** Service milliseconds. */
  created_at: number;
  updated_at: number;
  /** Its event's (joined). */
  env_id: string;
  org_id: string;
  subscriber_id: string;
  workflow_id: string;
}

/**
 * A job row with what its event holds for it (a job keeps none of it, to keep rows small). A job whose
 * event is gone (a damaged store) is still read, and fails when run, rather than never being due.
 */
const SELECT_JOB = `SELECT ${idText('j.id')}, ${idText('j.notification_id')}, j.step_index, j.type, j.status, j.run_at, j.provider_id, j.state,
  j.group_key, j.step_ref, j.details, j.created_at, j.updated_at, ${idText('n.env_id')}, ${idText('n.org_id')},
  ${idText('n.subscriber_id')}, ${idText('n.workflow_id')} FROM jobs j LEFT JOIN notifications n ON n.id = j.notification_id`;
// The statements of the runner's path as constants: Repo.stmt looks a statement up by its SQL, and a
// string built anew at each call is hashed anew (~6 µs per notification when they were built per call).
const JOB_BY_ID = `${SELECT_JOB} WHERE j.id = unhex(?)`;
const DUE_JOBS = `${SELECT_JOB} WHERE j.status IN ('queued', 'delayed') AND j.run_at <= ? ORDER BY j.run_at, j.id LIMIT ?`;
const PENDING_AFTER = `${SELECT_JOB} WHERE j.notification_id = unhex(?) AND j.step_index > ? AND j.status = 'pending' ORDER BY j.step_index`;
const NEXT_PENDING = `SELECT ${idText('id')}, ${idText('notification_id')}, step_index, type, status, run_at, provider_id, state, group_key,
  step_ref, details, created_at, updated_at FROM jobs WHERE notification_id = unhex(?) AND step_index > ? AND status = 'pending' ORDER BY step_index LIMIT 1`;
/**
 * Only the ids (and whether the job's event and subscriber rows are still there), not the joined row: most due jobs
 * have a hint. The id is not named `id`: ORDER BY would take that name for the hex text, and sort the
 * rows again in a temporary B-tree (8 µs per call) instead of reading them in the index's order.
 */
const DUE_IDS = `SELECT ${idText('j.id', 'hex_id')}, n.id IS NOT NULL AND EXISTS (SELECT 1 FROM subscribers s WHERE s.id = lower(hex(n.subscriber_id))) AS has_event
  FROM jobs j LEFT JOIN notifications n ON n.id = j.notification_id
  WHERE j.status IN ('queued', 'delayed') AND j.run_at <= ? ORDER BY j.run_at, j.id LIMIT ?`;
const EARLIER_STEPS = 'SELECT type, status, state, step_ref FROM jobs WHERE notification_id = unhex(?) AND step_index < ? ORDER BY step_index';
const OPEN_DIGEST = `${SELECT_JOB} WHERE j.group_key = ? AND j.status = 'delayed' AND j.type = 'digest' AND j.id != unhex(?) ORDER BY j.created_at, j.id LIMIT 1`;

/**
 * One execution detail as kept in its job's `details` array: [status, detail, ms after the job's
 * creation, providerId?, source? (absent: Internal), raw?], trailing absent values left out. Its id
 * is derived from the job's id and its position (detailId), so it is not stored. The status, and a
 * detail text the runner writes for every job, are numbers (positions in STATUS_CODES and
 * DETAIL_CODES); any other status or text is kept as its words.
 */
type PackedDetail = [ExecutionDetailStatus | number, string | number, number, (string | null)?, (ExecutionDetailSource | null)?, (string | null)?];

/** Stored codes: append only, never reorder (a store keeps the positions). */
const STATUS_CODES: readonly ExecutionDetailStatus[] = ['Success', 'Warning', 'Failed', 'Pending', 'Queued', 'ReadConfirmation'];
const DETAIL_CODES: readonly string[] = ['Step queued', 'Start sending message', 'Message created', 'Message sent', 'Step running'];
/**
 * Job states every job of a kind has, kept as {"$s": position} (append only): an in-app step's output
 * before its message is read is 80 characters on every in-app job. It stays a JSON object, so SQL can
 * still set a key of it (setOutput): keys beside "$s" override the coded state's.
 */
const STATE_CODES: readonly string[] = ['{"output":{"seen":false,"read":false,"lastSeenDate":null,"lastReadDate":null}}'];
const STATE_CODE = new Map(STATE_CODES.map((s, i) => [s, i]));

function packState(state: JsonObject): string {
  const json = JSON.stringify(state);
  const code = STATE_CODE.get(json);
  return code === undefined ? json : `{"$s":${code}}`;
}

function unpackState(text: string): JsonObject {
  const state = parseDoc<JsonObject>(text);
  if (typeof state.$s !== 'number') return state;
  const { $s, ...rest } = state;
  return { ...parseDoc<JsonObject>(STATE_CODES[$s] ?? '{}'), ...rest };
}

const STATUS_CODE = new Map(STATUS_CODES.map((s, i) => [s, i]));
const DETAIL_CODE = new Map(DETAIL_CODES.map((s, i) => [s, i]));

/** A detail's id: the job's timestamp part, then 16 hex digits of a hash of the job id and position. */
export function detailId(jobId: string, index: number): string {
  return jobId.slice(0, 8) + createHash('sha1').update(`${jobId}#${index}`).digest('hex').slice(0, 16);
}

/**
 * A digest or throttle group as a job row keeps it: '#' and 16 characters of a hash of the group key
 * (which names the workflow, step, subscriber and key value: ~80 characters, in the row and its index,
 * on every digest job). A reference given again (a job's groupKey) is itself.
 */
function groupRef(groupKey: string): string {
  if (groupKey.startsWith('#')) return groupKey;
  return `#${createHash('sha1').update(groupKey).digest('base64url').slice(0, 16)}`;
}

/** What cancelTransaction did: how many jobs it canceled, and the digests it handed on. */
export interface CancelOutcome {
  canceled: number;
  /** The events whose jobs changed: the transaction's, and those of a digest handed on. */
  events: Set<string>;
  /** A canceled digest that was collecting events, and the follower that now collects them. */
  handedOver: { from: JobRecord; to: JobRecord }[];
}

/** The jobs of an event that are not run yet: cancel takes them back. */
const NOT_RUN: ReadonlySet<JobStatus> = new Set(['pending', 'queued', 'delayed']);

export class Jobs extends Repo {
  /** Step definitions by content reference; immutable, so never stale. */
  private readonly steps = new Map<string, StoredStep>();
  /** The reference of a step object already written in this process (the trigger reuses one per recipient). */
  private readonly refOf = new WeakMap<object, string>();
  /** References by JSON text: a workflow read again for the next trigger hashes nothing new. */
  private readonly refOfJson = new Map<string, string>();
  /**
   * References this process has written to step_defs (then no INSERT OR IGNORE probe per job). A
   * rolled-back transaction may have taken one back: Store.tx clears this then (forgetAll).
   */
  private readonly written = new Set<string>();

  /**
   * Hints by job id (see JobHint). A hint stands for the job's row as it was created: any write to the
   * job through this repository drops it, and a rolled-back transaction drops them all (forgetAll).
   */
  private readonly hints = new Map<string, JobHint>();
  static readonly MAX_HINTS = 20_000;

  forgetAll(): void {
    this.written.clear();
    this.hints.clear();
  }

  /** Leaves the job's event and subscriber for the runner (see JobHint). */
  hint(h: JobHint): void {
    if (this.hints.size >= Jobs.MAX_HINTS) this.hints.clear();
    this.hints.set(h.job.id, h);
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
      state: unpackState(r.state),
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

  /** Stores the step definition once (by the hash of its JSON) and returns its reference. */
  private stepRef(step: StoredStep): string {
    let ref = this.refOf.get(step);
    const json = ref === undefined ? JSON.stringify(step) : undefined;
    if (json !== undefined) {
      ref = this.refOfJson.get(json);
      if (ref === undefined) {
        ref = createHash('sha1').update(json).digest('base64url').slice(0, 16);
        if (this.refOfJson.size > 10_000) this.refOfJson.clear();
        this.refOfJson.set(json, ref);
      }
      this.refOf.set(step, ref);
    }
    if (!this.written.has(ref!)) {
      this.stmt('INSERT OR IGNORE INTO step_defs (ref, doc) VALUES (?, ?)').run(ref, json ?? JSON.stringify(step));
      if (this.written.size > 10_000) this.written.clear();
      this.written.add(ref!);
    }
    return ref!;
  }

  // --- jobs --------------------------------------------------------------------------------------

  /** A new job; `detail`, if given, is its first execution detail (written with the row). */
  createJob(j: Omit<JobRecord, 'id' | 'createdAt' | 'updatedAt' | 'groupKey'>, detail?: DetailInput): JobRecord {
    const ms = this.clock.now();
    const now = isoAt(ms);
    const rec: JobRecord = { ...j, id: this.newId(), groupKey: null, createdAt: now, updatedAt: now };
    const details = detail ? JSON.stringify([this.pack(detail, 0)]) : null;
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
      packState(rec.state),
      this.stepRef(rec.step),
      details,
      ms,
      ms,
    );
    return rec;
  }

  job(id: string): JobRecord | undefined {
    const row = this.stmt(JOB_BY_ID).get(id) as JobRow | undefined;
    return row ? this.toJob(row) : undefined;
  }

  jobsOf(notificationIds: string[]): JobRecord[] {
    if (notificationIds.length === 0) return [];
    // Kept per list length (a statement prepared per call cost more than the query).
    const rows = this.stmt(`${SELECT_JOB} WHERE j.notification_id IN (${idList(notificationIds.length)}) ORDER BY j.step_index`).all(
      ...notificationIds,
    ) as JobRow[];
    return rows.map((r) => this.toJob(r));
  }

  /** Queued or delayed jobs due at `now`, oldest first. */
  dueJobs(now: number, limit: number): JobRecord[] {
    const rows = this.stmt(DUE_JOBS).all(now, limit) as JobRow[];
    return rows.map((r) => this.toJob(r));
  }

  /**
   * dueJobs, with their hints. When every due job has one (the usual case: jobs just triggered), only
   * their ids are read; otherwise the rows, as dueJobs does.
   */
  dueWithHints(now: number, limit: number): DueJob[] {
    if (this.hints.size === 0) return this.dueJobs(now, limit).map((job) => ({ job, hint: undefined }));
    const ids = this.stmt(DUE_IDS).all(now, limit) as { hex_id: string; has_event: number }[];
    const out: DueJob[] = [];
    for (const { hex_id, has_event } of ids) {
      // A job whose event or subscriber row is gone (a damaged store) goes without its hint: it is
      // read as dueJobs reads it, and fails.
      if (!has_event) this.hints.delete(hex_id);
      const hint = this.hints.get(hex_id);
      if (hint) out.push({ job: hint.job, hint });
    }
    if (out.length === ids.length) return out;
    return this.dueJobs(now, limit).map((job) => ({ job, hint: this.hints.get(job.id) }));
  }

  nextRunAt(): number | undefined {
    const row = this.stmt("SELECT min(run_at) AS t FROM jobs WHERE status IN ('queued', 'delayed')").get() as { t: number | null };
    return row.t ?? undefined;
  }

  /** Jobs that were running when the process died run again, and their timeline says why. */
  requeueRunning(): number {
    this.hints.clear();
    const rows = this.stmt(`SELECT ${idText('id')}, ${idText('notification_id')} FROM jobs WHERE status = 'running'`).all() as {
      id: string;
      notification_id: string;
    }[];
    for (const r of rows) {
      this.addDetail(
        { id: r.id, notificationId: r.notification_id },
        {
          status: 'Pending',
          detail: 'Step queued again: the service stopped while it was running',
        },
      );
    }
    return this.stmt("UPDATE jobs SET status = 'queued' WHERE status = 'running'").run().changes;
  }

  /** Replaces the step's output (`steps.<id>` of later steps) in the job's state. */
  setOutput(id: string, output: JsonObject): void {
    this.hints.delete(id);
    this.stmt("UPDATE jobs SET state = json_set(state, '$.output', json(?)) WHERE id = unhex(?)").run(JSON.stringify(output), id);
  }

  // --- cancel -------------------------------------------------------------------------------------

  /**
   * Cancels every job of the transaction's events (in this environment) that has not run yet: pending,
   * queued, delayed (a delay, or a digest still collecting), and a digest merged into one still
   * collecting (with its event's steps that were not run because of the merge: the event leaves that
   * digest). Running, completed and failed jobs are left alone. Each canceled job gets `detail`.
   * A canceled digest that was collecting hands its group to its oldest follower, which collects until
   * the same time (the followers' events still go out; the canceled event's does not).
   */
  cancelTransaction(envId: string, transactionId: string, detail: DetailInput): CancelOutcome {
    const ids = (
      this.stmt(`SELECT ${idText('id')} FROM notifications WHERE transaction_id = ? AND env_id = unhex(?)`).all(txKey(transactionId), envId) as {
        id: string;
      }[]
    ).map((r) => r.id);
    const outcome: CancelOutcome = { canceled: 0, events: new Set(), handedOver: [] };
    if (ids.length === 0) return outcome;
    const leaders: JobRecord[] = [];
    const byEvent = new Map<string, JobRecord[]>();
    for (const job of this.jobsOf(ids)) {
      const list = byEvent.get(job.notificationId) ?? [];
      list.push(job);
      byEvent.set(job.notificationId, list);
    }
    for (const jobs of byEvent.values()) {
      let leftDigest = false;
      for (const job of jobs) {
        const mergedInto = (job.state as { mergedInto?: unknown }).mergedInto;
        if (job.status === 'merged' && job.type === 'digest' && typeof mergedInto === 'string') {
          // Merged into a digest that has not gone out yet: this event is taken out of it.
          leftDigest = this.job(mergedInto)?.status === 'delayed';
          if (!leftDigest) continue;
        } else if (!(NOT_RUN.has(job.status) || (leftDigest && job.status === 'merged'))) continue;
        this.settleJob(job, { status: 'canceled' }, [detail]);
        outcome.canceled++;
        outcome.events.add(job.notificationId);
        if (job.type === 'digest' && job.status === 'delayed' && job.groupKey && typeof job.state.collectingUntil === 'number') leaders.push(job);
      }
    }
    for (const leader of leaders) {
      const heir = this.handOver(leader);
      if (heir) {
        outcome.handedOver.push({ from: leader, to: heir });
        outcome.events.add(heir.notificationId);
      }
    }
    return outcome;
  }

  /** The oldest event merged into `leader`'s digest collects the group's events in its place, if there is one. */
  private handOver(leader: JobRecord): JobRecord | undefined {
    const group = leader.groupKey!;
    const row = this.stmt(
      `${SELECT_JOB} WHERE j.group_key = ? AND j.status = 'merged' AND j.type = 'digest' AND json_extract(j.state, '$.mergedInto') = ?
       ORDER BY j.created_at, j.id LIMIT 1`,
    ).get(group, leader.id) as JobRow | undefined;
    if (!row) return undefined;
    const heir = this.toJob(row);
    const until = leader.state.collectingUntil as number;
    const { mergedInto: _, ...state } = heir.state;
    this.settleJob(heir, { status: 'delayed', runAt: leader.runAt, state: { ...state, collectingUntil: until } }, [
      {
        status: 'Pending',
        detail: `Step digested: the digest of notification ${leader.notificationId} was canceled, so this event collects the group's events until ${iso(until)}`,
        source: 'Internal',
      },
    ]);
    for (const later of this.jobsOf([heir.notificationId])) {
      if (later.stepIndex <= heir.stepIndex || later.status !== 'merged') continue;
      this.settleJob(later, { status: 'pending' }, [{ status: 'Pending', detail: "Step pending again: this event's digest now goes out", source: 'Internal' }]);
    }
    // The other followers are merged into the heir's digest now, and their events name its event.
    this.stmt(
      `UPDATE notifications SET doc = json_set(doc, '$.digestedNotificationId', ?) WHERE id IN (SELECT notification_id FROM jobs
       WHERE group_key = ? AND status = 'merged' AND json_extract(state, '$.mergedInto') = ?)`,
    ).run(heir.notificationId, group, leader.id);
    this.stmt(
      "UPDATE jobs SET state = json_set(state, '$.mergedInto', ?) WHERE group_key = ? AND status = 'merged' AND json_extract(state, '$.mergedInto') = ?",
    ).run(heir.id, group, leader.id);
    this.stmt("UPDATE notifications SET doc = json_remove(doc, '$.digestedNotificationId') WHERE id = unhex(?)").run(heir.notificationId);
    this.hints.clear();
    return { ...heir, status: 'delayed', runAt: leader.runAt };
  }

  // --- digest and throttle groups ------------------------------------------------------------------

  /** Puts the job in a group; `at` (service ms) is when it counts, for throttle windows. */
  setGroup(id: string, groupKey: string, at?: number): void {
    this.hints.delete(id);
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

  /** The events merged into a digest: each merged job's notification, its creation time and payload. */
  digestFollowers(groupKey: string, leaderId: string): { notificationId: string; createdAt: string; payload: JsonObject }[] {
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
    ) as {
      run_at: number;
    }[];
    return rows.map((r) => r.run_at);
  }

  updateJob(
    id: string,
    change: { status: JobStatus; runAt?: number | undefined; providerId?: string | null | undefined; state?: JsonObject | undefined },
  ): void {
    this.hints.delete(id);
    this.stmt(
      `UPDATE jobs SET status = ?, run_at = coalesce(?, run_at), provider_id = coalesce(?, provider_id),
       state = coalesce(?, state), updated_at = ? WHERE id = unhex(?)`,
    ).run(change.status, change.runAt ?? null, change.providerId ?? null, change.state === undefined ? null : packState(change.state), this.clock.now(), id);
  }

  /**
   * updateJob and addDetail for each of `details`, in one statement (the runner settles a job with
   * its status and the details its step recorded: one row write instead of one per detail).
   */
  settleJob(
    job: Pick<JobRecord, 'id' | 'createdAt'>,
    change: { status: JobStatus; runAt?: number | undefined; providerId?: string | null | undefined; state?: JsonObject | undefined },
    details: readonly DetailInput[],
  ): void {
    if (details.length === 0) return this.updateJob(job.id, change);
    this.hints.delete(job.id);
    const now = this.clock.now();
    const offset = now - Date.parse(job.createdAt);
    const packed = JSON.stringify(details.map((d) => this.pack(d, Number.isFinite(offset) ? offset : 0)));
    this.stmt(
      `UPDATE jobs SET status = @status, run_at = coalesce(@runAt, run_at), provider_id = coalesce(@providerId, provider_id),
       state = coalesce(@state, state), updated_at = @now,
       details = CASE WHEN details IS NULL OR details = '[]' THEN @packed ELSE substr(details, 1, length(details) - 1) || ',' || substr(@packed, 2) END
       WHERE id = unhex(@id)`,
    ).run({
      status: change.status,
      runAt: change.runAt ?? null,
      providerId: change.providerId ?? null,
      state: change.state === undefined ? null : packState(change.state),
      now,
      id: job.id,
      packed,
    });
  }

  /**
   * The first pending job of `job`'s event after it, if any: read from its own row only (the event's
   * environment, subscriber and workflow are `job`'s).
   */
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
   * state (a code-first step's execute body states each earlier step's result): one read of their own
   * rows, without the event's.
   */
  earlierSteps(notificationId: string, stepIndex: number): { stepId: string; type: StepType; status: JobStatus; state: JsonObject }[] {
    const rows = this.stmt(EARLIER_STEPS).all(notificationId, stepIndex) as Pick<JobRow, 'type' | 'status' | 'state' | 'step_ref'>[];
    return rows.map((r) => ({ stepId: this.stepDef(r.step_ref).stepId, type: r.type, status: r.status, state: unpackState(r.state) }));
  }

  // --- execution details ----------------------------------------------------------------------------

  private pack(d: DetailInput, offset: number): PackedDetail {
    const out: PackedDetail = [
      STATUS_CODE.get(d.status) ?? d.status,
      DETAIL_CODE.get(d.detail) ?? d.detail,
      offset,
      d.providerId ?? null,
      d.source === 'Internal' || d.source === undefined ? null : d.source,
      d.raw ?? null,
    ];
    while (out.length > 3 && out[out.length - 1] === null) out.pop();
    return out;
  }

  addDetail(job: Pick<JobRecord, 'id' | 'notificationId'>, d: DetailInput): void {
    this.hints.delete(job.id);
    const now = this.clock.now();
    // The offset from the job's creation is computed in SQL: the caller's job may be a partial copy.
    this.stmt(
      `UPDATE jobs SET details = json_insert(coalesce(details, '[]'), '$[#]', json_set(json(?), '$[2]', CAST(? AS INTEGER) - created_at)),
       updated_at = ? WHERE id = unhex(?)`,
    ).run(JSON.stringify(this.pack(d, 0)), now, now, job.id);
  }

  /** The execution details of these notifications' jobs, oldest first. */
  detailsOf(notificationIds: string[]): DetailRecord[] {
    if (notificationIds.length === 0) return [];
    const out: DetailRecord[] = [];
    const order = new Map<DetailRecord, number>();
    const rows = this.db
      .prepare(`SELECT ${idText('id')}, created_at, details FROM jobs WHERE notification_id IN (${idList(notificationIds.length)}) AND details IS NOT NULL`)
      .all(...notificationIds) as { id: string; created_at: number; details: string }[];
    for (const r of rows) {
      const created = r.created_at;
      parseDoc<PackedDetail[]>(r.details).forEach(([status, detail, offset, provider, source, raw], i) => {
        const d: DetailRecord = {
          id: detailId(r.id, i),
          job_id: r.id,
          status: typeof status === 'number' ? STATUS_CODES[status]! : status,
          detail: typeof detail === 'number' ? DETAIL_CODES[detail]! : detail,
          source: source ?? 'Internal',
          provider_id: provider ?? null,
          raw: raw ?? null,
          created_at: iso(created + offset),
        };
        order.set(d, i);
        out.push(d);
      });
    }
    // Oldest first; within one instant, a job's details in the order they were written.
    const key = (d: DetailRecord) => `${d.job_id}#${String(order.get(d)).padStart(6, '0')}`;
    return out.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
}

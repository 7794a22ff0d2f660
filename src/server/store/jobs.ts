// Jobs (one per step of a notification) with their status and run-at time, and the execution details
// the service records for them. The runner is the only one that moves a job on; see runner/.
import type { JsonObject } from '../../api/schemas/common.js';
import type { ExecutionDetailSource, ExecutionDetailStatus, JobStatus, StepType } from '../../api/schemas/enums.js';
import { parseDoc, Repo } from './repo.js';
import type { StoredStep } from './workflows.js';

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

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

export class Jobs extends Repo {
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

// A job's timeline as the store keeps it: on the job's own row, a JSON array with one entry per
// execution detail, [status, detail, ms after the job's creation, providerId, source, raw], in words
// (the API's statuses and sources, the detail's text), the last three left out from the end when
// absent (a missing source is Internal). A detail's id is derived from its job's id and position, so
// nothing looks a detail up by a stored id.
import type { ExecutionDetailSource, ExecutionDetailStatus } from '../../api/schemas/enums.js';
import { createHash } from 'node:crypto';
import { iso } from '../clock.js';
import { parseDoc } from './repo.js';

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

type StoredDetail = [ExecutionDetailStatus, string, number, (string | null)?, (ExecutionDetailSource | null)?, (string | null)?];

/** A detail's id: the job's timestamp part, then 16 hex digits of a hash of the job id and position. */
function detailId(jobId: string, index: number): string {
  return jobId.slice(0, 8) + createHash('sha1').update(`${jobId}#${index}`).digest('hex').slice(0, 16);
}

/** A detail as its job's array keeps it, `offset` ms after the job's creation. */
export function toStored(d: DetailInput, offset: number): StoredDetail {
  const out: StoredDetail = [
    d.status,
    d.detail,
    offset,
    d.providerId ?? null,
    d.source === 'Internal' || d.source === undefined ? null : d.source,
    d.raw ?? null,
  ];
  while (out.length > 3 && out[out.length - 1] === null) out.pop();
  return out;
}

/** A job's id, creation time (service ms) and its `details` column. */
export interface StoredTimeline {
  id: string;
  created_at: number;
  details: string;
}

/** The details of these jobs, oldest first; within one instant by job, and each job's in the order written. */
export function readDetails(rows: readonly StoredTimeline[]): DetailRecord[] {
  const out: { d: DetailRecord; position: number }[] = [];
  for (const r of rows) {
    parseDoc<StoredDetail[]>(r.details).forEach(([status, detail, offset, provider, source, raw], position) => {
      out.push({
        position,
        d: {
          id: detailId(r.id, position),
          job_id: r.id,
          status,
          detail,
          source: source ?? 'Internal',
          provider_id: provider ?? null,
          raw: raw ?? null,
          created_at: iso(r.created_at + offset),
        },
      });
    });
  }
  out.sort(
    (a, b) =>
      (a.d.created_at < b.d.created_at ? -1 : a.d.created_at > b.d.created_at ? 1 : 0) ||
      (a.d.job_id < b.d.job_id ? -1 : a.d.job_id > b.d.job_id ? 1 : 0) ||
      a.position - b.position,
  );
  return out.map((o) => o.d);
}

// What svc adds to the events it prints: the derived status of core/status.ts, as one extra field named
// `derived` beside the service's own fields (which stay as the service sent them). Every output reads
// the same field: the table's STATUS and REASON columns, TSV, and json/ndjson/yaml, where a script
// selects it with `--fields _id,derived.status` or `--query '[].derived.status'`.
//   derived.status    delivered, partial, failed, pending, merged, throttled, skipped, canceled, completed, none
//   derived.reason    why (a failure, the channel not sent and why, why nothing went out), or null
//   derived.channels  each channel step: {stepId, channel, outcome, reason}
import { judge, type JudgeScope, type StatusJob } from '../core/status.js';

/** The name of the field svc adds; never one of the service's. */
export const DERIVED_FIELD = 'derived';

export interface Derived {
  status: string;
  reason: string | null;
  channels: { stepId: string | null; channel: string; outcome: string; reason: string | null }[];
}

/** The views whose records are events (a list of them, or one with its timeline). */
export const EVENT_VIEWS: ReadonlySet<string> = new Set(['events', 'event']);

type Rec = Record<string, unknown>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** An event's derived field, or undefined for a value that is not an event with jobs. */
export function derivedOf(record: unknown, scope: JudgeScope = {}): Derived | undefined {
  if (!isRecord(record) || !Array.isArray(record.jobs)) return undefined;
  const j = judge(record.jobs as StatusJob[], scope);
  return {
    status: j.status,
    reason: j.reason ?? null,
    channels: j.channels.map((c) => ({ stepId: c.stepId ?? null, channel: c.channel, outcome: c.outcome, reason: c.reason ?? null })),
  };
}

/** The event with `derived` added (a copy); anything else as it is. */
export function withDerived(record: unknown, scope: JudgeScope = {}): unknown {
  const d = derivedOf(record, scope);
  return d ? { ...(record as Rec), [DERIVED_FIELD]: d } : record;
}

/** `withDerived` for what a print of `view` holds: one event, a list of them, or a list envelope. */
export function annotate(value: unknown, view: string | undefined, scope: JudgeScope = {}): unknown {
  if (!view || !EVENT_VIEWS.has(view)) return value;
  if (Array.isArray(value)) return value.map((r) => withDerived(r, scope));
  if (isRecord(value) && Array.isArray(value.data)) return { ...value, data: value.data.map((r) => withDerived(r, scope)) };
  return withDerived(value, scope);
}

// svc dev's admin routes (GET /v1/svc-dev names them: `clock`, `reset`, `snapshot`): the service's
// time, starting the store over, and the whole store as one file. The hosted service has none of them.
import { z } from 'zod';
import { MAX_ADVANCE_MS } from '../limits.js';

/** `svc dev clock -o json`: how service time passes, and what time it is for the service. */
export const ClockState = z.looseObject({
  mode: z.enum(['real', 'scaled', 'manual']),
  now: z.iso.datetime(),
});
export type ClockState = z.infer<typeof ClockState>;

/** POST /v1/svc-dev/clock/advance: service time moves forward by `ms` milliseconds. */
export const AdvanceClockBody = z.strictObject({
  ms: z.number().int().min(0).max(MAX_ADVANCE_MS),
});

/** POST /v1/svc-dev/reset: back to the start state, or (`empty`) to its environments and keys alone. */
export const ResetBody = z.strictObject({ empty: z.boolean().optional() }).optional();

/** What a reset or a load left: the store's environments and events. */
export const StoreSummary = z.looseObject({
  environments: z.number().int(),
  events: z.number().int(),
  ms: z.number(),
});

/**
 * GET /v1/svc-dev/snapshot: the store as an SQLite database file, gzip-compressed and base64-encoded
 * (a JSON answer, as every other; the CLI writes the file's plain bytes).
 */
export const Snapshot = z.looseObject({
  encoding: z.literal('sqlite3+gzip+base64'),
  snapshot: z.string(),
  bytes: z.number().int(),
  schemaVersion: z.number().int(),
  takenAt: z.iso.datetime(),
});
export type Snapshot = z.infer<typeof Snapshot>;

/** POST /v1/svc-dev/snapshot/load: a snapshot as GET /v1/svc-dev/snapshot gives it. */
export const LoadSnapshotBody = z.strictObject({
  encoding: z.literal('sqlite3+gzip+base64'),
  snapshot: z.string().min(1),
});

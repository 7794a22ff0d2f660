// The journal of a bulk run: one NDJSON line for the run, then one per chunk the service acknowledged,
// written synchronously (a process killed with -9 loses nothing already written; a line cut short by
// the kill is ignored on reading). `--resume` skips the acknowledged chunks and sends the others with
// the same transaction ids, so the chunk that was in flight is deduplicated by the service. A bulk chunk
// that had to be sent one event at a time (its call costs more than the rate limit's bucket holds)
// also journals how many of its first events the service processed, so that --resume does not spend
// the rate limit on them again. Each acknowledged chunk (and each journaled prefix of a partly sent one)
// carries a hash of its rows: --resume reads the file again first and refuses, before anything is sent,
// when the rows it would skip are not the rows that were sent (a file edited in place keeps its size).
import { createHash } from 'node:crypto';
import { appendFileSync, createReadStream, existsSync, readFileSync, renameSync, writeFileSync, createWriteStream } from 'node:fs';
import type { Deps } from '../deps.js';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { UsageError } from '../core/errors.js';
import type { GoodRow } from './rows.js';

export interface RunRecord {
  type: 'run';
  version: 1;
  runId: string;
  workflow: string;
  file: string;
  size?: number;
  chunkSize: number;
  startedAt: string;
}

export interface JournalState {
  run?: RunRecord;
  done: Set<number>;
  /** Chunks sent one event at a time, not done: how many of their first events were processed. */
  partial: Map<number, number>;
  /** The hash of each done chunk's rows (journals written before hashes were kept have none). */
  hashes: Map<number, string>;
  /** The hash of the journaled first events of a partly sent chunk. */
  partialHashes: Map<number, string>;
  finished: boolean;
  /** When the last line was written (the end of a finished run). */
  endedAt?: string;
}

/** What identifies a chunk's rows: their line numbers, recipients and payloads, in order. */
function rowsHash(rows: readonly GoodRow[]): string {
  const h = createHash('sha256');
  for (const r of rows) h.update(`${JSON.stringify([r.row, r.recipient, r.payload ?? null])}\n`);
  return h.digest('hex').slice(0, 32);
}

export function readJournal(path: string): JournalState {
  const state: JournalState = { done: new Set(), partial: new Map(), hashes: new Map(), partialHashes: new Map(), finished: false };
  if (!existsSync(path)) return state;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let rec: { type?: string; index?: number; events?: number; hash?: unknown; at?: unknown } & Partial<RunRecord>;
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // the last line of a killed run may be cut short
    }
    if (rec.type === 'run') state.run = rec as RunRecord;
    else if (rec.type === 'chunk' && typeof rec.index === 'number') {
      state.done.add(rec.index);
      if (typeof rec.hash === 'string') state.hashes.set(rec.index, rec.hash);
    } else if (rec.type === 'events' && typeof rec.index === 'number' && typeof rec.events === 'number') {
      if (rec.events >= (state.partial.get(rec.index) ?? 0)) {
        state.partial.set(rec.index, rec.events);
        if (typeof rec.hash === 'string') state.partialHashes.set(rec.index, rec.hash);
      }
    } else if (rec.type === 'end') {
      state.finished = true;
      if (typeof rec.at === 'string') state.endedAt = rec.at;
    }
  }
  for (const index of state.done) {
    state.partial.delete(index);
    state.partialHashes.delete(index);
  }
  return state;
}

export class Journal {
  constructor(readonly path: string) {}

  start(run: RunRecord): void {
    writeFileSync(this.path, `${JSON.stringify(run)}\n`, { mode: 0o600 });
  }

  chunkDone(index: number, rows: readonly GoodRow[]): void {
    const line = { type: 'chunk', index, recipients: rows.length, hash: rowsHash(rows), at: new Date().toISOString() };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }

  /** The first `events` events of a chunk sent one at a time were processed. */
  eventsDone(index: number, rows: readonly GoodRow[], events: number): void {
    const line = { type: 'events', index, events, hash: rowsHash(rows.slice(0, events)), at: new Date().toISOString() };
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
  }

  end(): void {
    appendFileSync(this.path, `${JSON.stringify({ type: 'end', at: new Date().toISOString() })}\n`);
  }
}

/** Checks that --resume continues the same run: same workflow, same file, same chunking. */
export function checkResumable(
  state: JournalState,
  journalPath: string,
  want: { workflow: string; file: string; size?: number; chunkSize: number },
): RunRecord {
  const run = state.run;
  if (!run) throw new UsageError(`--resume: no journal of an earlier run at ${journalPath}`);
  const diffs: string[] = [];
  if (run.workflow !== want.workflow) diffs.push(`workflow ${run.workflow} → ${want.workflow}`);
  if (run.file !== want.file) diffs.push(`file ${run.file} → ${want.file}`);
  if (run.size !== undefined && want.size !== undefined && run.size !== want.size) diffs.push(`file size ${run.size} → ${want.size} bytes`);
  if (run.chunkSize !== want.chunkSize) diffs.push(`--chunk ${run.chunkSize} → ${want.chunkSize}`);
  if (diffs.length) throw new UsageError(`--resume: this is not the run in ${journalPath} (${diffs.join('; ')}); resuming it would send recipients twice`);
  return run;
}

/**
 * What --resume would skip, checked against the rows the file holds now: the rows of a done chunk (or
 * the first events of a partly sent one) must be the ones that were sent. Returns a one-line account of
 * the first difference, or undefined when the file still says what was sent.
 */
export function changedRows(state: JournalState, chunk: { index: number; rows: readonly GoodRow[] }): string | undefined {
  const span = (rows: readonly GoodRow[]) =>
    rows.length ? (rows.length === 1 ? `row ${rows[0]!.row}` : `rows ${rows[0]!.row}–${rows[rows.length - 1]!.row}`) : 'rows';
  const whole = state.hashes.get(chunk.index);
  if (whole !== undefined && whole !== rowsHash(chunk.rows)) return `${span(chunk.rows)} (chunk ${chunk.index}, already sent) are not the rows that were sent`;
  const first = state.partial.get(chunk.index);
  const prefix = state.partialHashes.get(chunk.index);
  if (first !== undefined && prefix !== undefined) {
    const rows = chunk.rows.slice(0, first);
    if (rows.length < first || prefix !== rowsHash(rows)) return `${span(rows)} (chunk ${chunk.index}, already sent) are not the rows that were sent`;
  }
  return undefined;
}

/**
 * On --resume, keeps only the report lines of acknowledged chunks and of the journaled first events of
 * partly sent ones (streamed to a temporary file and renamed): lines of rows that will be sent again,
 * and of bad rows that will be read again, go.
 */
async function trimReport(path: string, done: Set<number>, partial: Map<number, number> = new Map()): Promise<void> {
  if (!existsSync(path)) return;
  const tmp = `${path}.tmp`;
  const out = createWriteStream(tmp, { mode: 0o600 });
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    let rec: { chunk?: unknown; status?: unknown; transactionId?: unknown };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      continue;
    }
    const { chunk } = rec;
    if (typeof chunk !== 'number') continue;
    const first = partial.get(chunk);
    // A partly sent chunk's lines name their event in the transaction id (RUN-CHUNK-EVENT).
    const event = first !== undefined && typeof rec.transactionId === 'string' ? Number(rec.transactionId.split('-').pop()) : Number.NaN;
    if (done.has(chunk) || (rec.status === 'sent' && event < (first ?? 0))) {
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  renameSync(tmp, path);
}

/**
 * The journal of the run about to be sent, once nothing refuses it (--strict, a read-only profile): a
 * resumed run trims its report to what was sent and appends; --again keeps the earlier run's journal and
 * report aside (a refused run leaves them, and the "already sent" guard, in place); a new run starts its
 * journal and is noted in the index of runs (runs-index.ts). None under --dry-run or without a file.
 */
export async function openJournal(
  deps: Deps,
  plan: {
    journalPath: string | undefined;
    reportPath: string | undefined;
    /** The run journaled there before (--again keeps its files aside under its id). */
    state: { run?: RunRecord } | undefined;
    run: RunRecord;
    again: boolean;
    done: Set<number>;
    partial: Map<number, number>;
  },
  opts: { resume?: boolean; workflow: string },
  runs: { dir: string; service: string } | undefined,
): Promise<Journal | undefined> {
  const { journalPath, reportPath } = plan;
  if (opts.resume && reportPath) await trimReport(reportPath, plan.done, plan.partial);
  if (!journalPath || deps.globals.dryRun) return undefined;
  const journal = new Journal(journalPath);
  if (opts.resume) return journal;
  if (plan.again && plan.state?.run) keepAside(deps, plan.state.run.runId, journalPath, reportPath);
  journal.start(plan.run);
  if (runs)
    (await import('./runs-index.js')).recordRun(runs.dir, { file: plan.run.file, workflow: opts.workflow, service: runs.service, journal: journalPath });
  return journal;
}

/** --again: the earlier run's journal and report are renamed aside (….RUNID), not overwritten. */
function keepAside(deps: Deps, runId: string, journalPath: string, reportPath: string | undefined): void {
  for (const path of [journalPath, reportPath]) {
    if (!path || !existsSync(path)) continue;
    renameSync(path, `${path}.${runId}`);
    deps.info(`the earlier run's ${path === journalPath ? 'journal' : 'report'} is kept as ${path}.${runId}`);
  }
}

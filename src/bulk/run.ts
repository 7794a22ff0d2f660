// svc trigger WORKFLOW --recipients-file FILE: streams the file, cuts it into chunks, sends them with
// bounded (adaptive) concurrency, reports every row, journals every acknowledged chunk so that a run
// killed part-way can be resumed without sending anyone twice.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Deps } from '../deps.js';
import { ApiError, InterruptedError, SvcError, UsageError } from '../core/errors.js';
import { formatDuration } from '../core/duration.js';
import { operations } from '../api/operations.js';
import type { ApiClient } from '../api/client.js';
import { Chunker, transactionIdOf, type Chunk } from './chunks.js';
import { checkResumable, Journal, readJournal, trimReport, type RunRecord } from './journal.js';
import { Pacer } from './pacer.js';
import { checkRecipientsFile, openRecipients, type BadRow, type GoodRow } from './rows.js';

export interface BulkOptions {
  workflow: string;
  file: string;
  /** Fields every trigger of the run carries (payload, overrides, actor, tenant, context). */
  common: Record<string, unknown>;
  chunkSize: number;
  concurrency?: number;
  resume?: boolean;
  report?: string;
  journal?: string;
  strict?: boolean;
}

export interface BulkSummary {
  workflow: string;
  runId: string;
  recipients: { sent: number; failed: number; skipped: number; alreadySent: number };
  requests: { sent: number; failed: number };
  elapsedMs: number;
  recipientsPerSecond: number;
  report: string | null;
  journal: string | null;
}

interface ReportLine {
  row: number;
  subscriberId: string | null;
  transactionId: string | null;
  status: 'sent' | 'failed' | 'skipped';
  error: string | null;
  chunk: number | null;
}

/**
 * The report, written with synchronous writes: a chunk's lines reach the file before the journal says
 * the chunk is done, so a run killed at any point leaves a report that --resume can trust.
 */
class ReportWriter {
  private fd?: number;
  constructor(path: string | undefined, append: boolean) {
    if (path) this.fd = openSync(path, append ? 'a' : 'w', 0o600);
  }
  write(lines: ReportLine[]): void {
    if (this.fd !== undefined && lines.length) writeSync(this.fd, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export async function runBulk(deps: Deps, opts: BulkOptions): Promise<void> {
  const started = deps.now();
  const file = opts.file === '-' ? '-' : resolve(deps.cwd, opts.file);
  const reportPath = opts.report === undefined ? undefined : resolve(deps.cwd, opts.report);
  // Checked before anything is written beside it (the journal).
  const size = file === '-' ? undefined : await checkRecipientsFile(file);
  const journalPath = opts.journal !== undefined ? resolve(deps.cwd, opts.journal) : reportPath ? `${reportPath}.journal` : file !== '-' ? `${file}.svc-journal` : undefined;

  // --- the run: fresh or resumed ----------------------------------------------------------------------
  let run: RunRecord;
  let done = new Set<number>();
  const state = journalPath ? readJournal(journalPath) : undefined;
  if (opts.resume) {
    if (!journalPath || !state) throw new UsageError('--resume needs a journal: give --report or --journal (stdin has no file to keep one beside)');
    run = checkResumable(state, journalPath, { workflow: opts.workflow, file, ...(size !== undefined ? { size } : {}), chunkSize: opts.chunkSize });
    done = state.done;
    if (reportPath) await trimReport(reportPath, done);
  } else {
    if (state?.run && !state.finished) {
      throw new UsageError(`an unfinished run of this file is journaled in ${journalPath}: continue it with --resume, or delete the journal to start over`);
    }
    run = {
      type: 'run', version: 1, runId: randomBytes(6).toString('hex'), workflow: opts.workflow, file,
      ...(size !== undefined ? { size } : {}), chunkSize: opts.chunkSize, startedAt: new Date(started).toISOString(),
    };
  }
  if (opts.strict && file !== '-') await validateWholeFile(deps, file);

  const journal = journalPath ? new Journal(journalPath) : undefined;
  if (journal && !opts.resume && !deps.globals.dryRun) journal.start(run);
  const report = new ReportWriter(deps.globals.dryRun ? undefined : reportPath, Boolean(opts.resume));

  // --- sending ----------------------------------------------------------------------------------------------
  const pacer = new Pacer(opts.concurrency !== undefined ? { fixed: opts.concurrency } : {});
  const client = deps.globals.dryRun ? undefined : await bulkClient(deps, pacer);
  const counts = { sent: 0, failed: 0, skipped: 0, alreadySent: 0, requests: 0, failedRequests: 0 };
  const progress = await startProgress(deps, counts);
  let fatal: SvcError | undefined;
  const inFlight = new Set<Promise<void>>();

  const sendChunk = async (chunk: Chunk): Promise<void> => {
    const cost = chunk.kind === 'bulk' ? 100 : 1;
    const req = requestOf(run.runId, opts.workflow, opts.common, chunk);
    let ok = false;
    try {
      if (deps.globals.dryRun) {
        if (chunk.index === 0) await deps.print({ method: 'POST', path: req.path, idempotencyKey: req.key, body: req.body });
        ok = true;
        return;
      }
      const res = await client!.send({ method: 'POST', path: req.path, body: req.body, idempotencyKey: req.key });
      ok = true;
      counts.requests++;
      const results = chunk.kind === 'trigger' ? chunk.rows.map(() => res.data) : (res.data as unknown[]);
      const lines: ReportLine[] = chunk.rows.map((row, i) => {
        const r = (results[i] ?? {}) as { status?: string; error?: string[] };
        const sent = r.status === 'processed';
        if (sent) counts.sent++;
        else counts.failed++;
        return {
          row: row.row, subscriberId: row.subscriberId,
          transactionId: chunk.kind === 'trigger' ? req.transactionId : transactionIdOf(run.runId, chunk.index, i),
          status: sent ? 'sent' : 'failed',
          error: sent ? null : `${r.status ?? 'no result'}${r.error?.length ? `: ${r.error.join('; ')}` : ''}`,
          chunk: chunk.index,
        };
      });
      report.write(lines);
      journal?.chunkDone(chunk.index, chunk.rows.length);
    } catch (e) {
      counts.failedRequests++;
      counts.failed += chunk.rows.length;
      const message = e instanceof SvcError ? e.message : String(e);
      report.write(chunk.rows.map((row) => ({ row: row.row, subscriberId: row.subscriberId, transactionId: req.transactionId, status: 'failed' as const, error: message, chunk: chunk.index })));
      // Problems every other chunk would meet too end the run.
      if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404 || /workflow_not_found/.test(e.message))) fatal ??= e;
      if (e instanceof InterruptedError) fatal ??= e;
    } finally {
      pacer.release(cost, ok);
      progress?.update();
    }
  };

  const schedule = async (chunk: Chunk) => {
    if (done.has(chunk.index)) {
      counts.alreadySent += chunk.rows.length;
      return;
    }
    await pacer.acquire(chunk.kind === 'bulk' ? 100 : 1);
    const p = sendChunk(chunk).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const badRow = async (row: BadRow) => {
    counts.skipped++;
    deps.warn(`row ${row.row}: ${row.error}${opts.strict ? '' : ' (skipped)'}`);
    report.write([{ row: row.row, subscriberId: row.subscriberId ?? null, transactionId: null, status: 'skipped', error: row.error, chunk: null }]);
    if (opts.strict) fatal ??= new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict stops at the first bad row)`);
  };

  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  progress?.attach(opened.progress);
  const chunker = new Chunker(opts.chunkSize);
  try {
    for await (const row of opened.rows) {
      if (deps.signal.aborted) throw new InterruptedError();
      if (fatal) break;
      if (row.kind === 'bad') {
        await badRow(row);
        continue;
      }
      for (const chunk of chunker.add(row as GoodRow)) await schedule(chunk);
    }
    if (!fatal && !deps.signal.aborted) for (const chunk of chunker.flush()) await schedule(chunk);
    await Promise.all(inFlight);
  } catch (e) {
    await Promise.allSettled(inFlight);
    if (!(e instanceof InterruptedError) && !deps.signal.aborted) throw e;
    fatal = new InterruptedError();
  } finally {
    progress?.stop();
    report.close();
    await client?.close();
  }
  if (deps.signal.aborted && !(fatal instanceof InterruptedError)) fatal = new InterruptedError();

  const complete = !fatal && counts.failed === 0;
  if (journal && complete && !deps.globals.dryRun) journal.end();
  const elapsedMs = deps.now() - started;
  const summary: BulkSummary = {
    workflow: opts.workflow,
    runId: run.runId,
    recipients: { sent: counts.sent, failed: counts.failed, skipped: counts.skipped, alreadySent: counts.alreadySent },
    requests: { sent: counts.requests, failed: counts.failedRequests },
    elapsedMs,
    recipientsPerSecond: elapsedMs > 0 ? Math.round((counts.sent / elapsedMs) * 1000) : counts.sent,
    report: reportPath ?? null,
    journal: journalPath ?? null,
  };
  if (deps.globals.dryRun) return;
  deps.info(
    `${counts.sent} recipient${counts.sent === 1 ? '' : 's'} sent, ${counts.failed} failed, ${counts.skipped} skipped` +
      `${counts.alreadySent ? `, ${counts.alreadySent} already sent before` : ''} in ${formatDuration(elapsedMs)} ` +
      `(${summary.recipientsPerSecond}/s, ${counts.requests} request${counts.requests === 1 ? '' : 's'})`,
  );
  await deps.print(summary);

  if (fatal instanceof InterruptedError) {
    throw new InterruptedError('interrupted', journalPath ? `continue with the same command and --resume (journal: ${journalPath})` : undefined);
  }
  if (fatal) throw fatal;
  if (counts.failed > 0 || counts.skipped > 0) {
    const where = reportPath ? ` (see ${opts.report})` : '';
    const resume = counts.failed > 0 && journalPath ? `; send the failed chunks again with --resume` : '';
    const parts = [
      ...(counts.failed ? [`${counts.failed} recipient${counts.failed === 1 ? '' : 's'} failed`] : []),
      ...(counts.skipped ? [`${counts.skipped} bad row${counts.skipped === 1 ? ' was' : 's were'} skipped`] : []),
    ];
    throw new SvcError(`not every row was sent: ${parts.join(' and ')}${where}${resume}`, 'bulk_incomplete', 1);
  }
}

function requestOf(runId: string, workflow: string, common: Record<string, unknown>, chunk: Chunk) {
  const key = `svc-bulk-${runId}-${chunk.index}`;
  if (chunk.kind === 'trigger') {
    const transactionId = transactionIdOf(runId, chunk.index);
    return { path: operations.triggerEvent.path, key, transactionId, body: { name: workflow, ...common, to: chunk.rows.map((r) => r.recipient), transactionId } };
  }
  const commonPayload = (common.payload as Record<string, unknown> | undefined) ?? {};
  const events = chunk.rows.map((r, i) => ({
    name: workflow, ...common, to: [r.recipient], payload: { ...commonPayload, ...r.payload }, transactionId: transactionIdOf(runId, chunk.index, i),
  }));
  return { path: operations.triggerBulk.path, key, transactionId: null, body: { events } };
}

/** A client of its own: its attempts feed the pacer, and it retries longer than one-off commands. */
async function bulkClient(deps: Deps, pacer: Pacer): Promise<ApiClient> {
  const { requireApiKey } = await import('../config/profiles.js');
  const { ApiClient } = await import('../api/client.js');
  const { USER_AGENT } = await import('../runtime.js');
  const s = deps.settings();
  const g = deps.globals;
  return new ApiClient({
    baseUrl: s.baseUrl.value,
    apiKey: requireApiKey(s),
    timeoutMs: g.timeout,
    retries: g.retries,
    userAgent: USER_AGENT,
    env: deps.env,
    signal: deps.signal,
    onAttempt: (a) => pacer.observe(a.status, a.rateLimit, a.retryAfterMs),
    ...(g.debug ? { trace: (l: string) => deps.io.stderr.write(`${l}\n`) } : {}),
  });
}

/** --strict on a file: every row is checked before anything is sent, so a bad file sends nothing. */
async function validateWholeFile(deps: Deps, file: string): Promise<void> {
  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  for await (const row of opened.rows) {
    if (row.kind === 'bad') throw new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict: nothing was sent)`);
  }
}

interface Progress {
  attach(read: () => { read: number; total?: number }): void;
  update(): void;
  stop(): void;
}

/** A progress bar on stderr when it is a terminal (cli-progress). */
async function startProgress(deps: Deps, counts: { sent: number; failed: number; skipped: number }): Promise<Progress | undefined> {
  if (!deps.io.stderr.isTTY || deps.globals.quiet) return undefined;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    {
      stream: deps.io.stderr as NodeJS.WritableStream,
      format: ' {bar} {percentage}% | {sent} sent · {failed} failed · {skipped} skipped | {rate}/s',
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let reader: (() => { read: number; total?: number }) | undefined;
  const t0 = Date.now();
  bar.start(100, 0, { sent: 0, failed: 0, skipped: 0, rate: 0 });
  return {
    attach(read) {
      reader = read;
    },
    update() {
      const p = reader?.();
      const pct = p?.total ? Math.min(100, Math.round((p.read / p.total) * 100)) : 0;
      const rate = Math.round((counts.sent / Math.max(1, Date.now() - t0)) * 1000);
      bar.update(pct, { sent: counts.sent, failed: counts.failed, skipped: counts.skipped, rate });
    },
    stop() {
      bar.stop();
    },
  };
}


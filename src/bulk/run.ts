// svc trigger WORKFLOW --recipients-file FILE: streams the file, cuts it into chunks, sends them with
// bounded (adaptive) concurrency, reports every row, journals every acknowledged chunk so that a run
// killed part-way can be resumed without sending anyone twice.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { localState } from '../config/local-state.js';
import type { Deps } from '../deps.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { setMaxListeners } from 'node:events';
import { createReadStream } from 'node:fs';
import { ApiError, EXIT, InterruptedError, NetworkError, SvcError, UsageError } from '../core/errors.js';
import { formatDuration } from '../core/duration.js';
import { routes } from '../api/routes.js';
import type { Api } from '../api/session.js';
import { retryDelay } from '../api/http-rules.js';
import { Chunker, transactionIdOf, type Chunk } from './chunks.js';
import { changedRows, checkResumable, Journal, readJournal, trimReport, type JournalState, type RunRecord } from './journal.js';
import { OutOfTime, Pacer, TooExpensive } from './pacer.js';
import { checkRecipientsFile, openRecipients, type BadRow, type GoodRow } from './rows.js';

export interface BulkOptions {
  workflow: string;
  file: string;
  /** Fields every trigger of the run carries (payload, overrides, actor, tenant, context). */
  common: Record<string, unknown>;
  chunkSize: number;
  concurrency?: number;
  resume?: boolean;
  /** Send the file again as a new run although a journal says it was sent (the old journal and report are kept aside). */
  again?: boolean;
  report?: string;
  journal?: string;
  strict?: boolean;
  /** Bound on the whole run (ms): when it runs out waiting for the rate limit, exit 7 and --resume. */
  maxTimeMs?: number;
}

export interface BulkSummary {
  workflow: string;
  runId: string;
  /** notSent (only when some are): rows left for --resume when --max-time ran out or the run stopped early. */
  recipients: { sent: number; failed: number; skipped: number; alreadySent: number; notSent?: number };
  requests: { sent: number; failed: number; replayed?: number };
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
  // A journal beside the file only for a regular file: beside a pipe or a device (/dev/null, a
  // process substitution's /dev/fd/N) it would be written into /dev, and those rows cannot be read
  // again to resume anyway (as stdin: --report or --journal gives one).
  const journalPath =
    opts.journal !== undefined
      ? resolve(deps.cwd, opts.journal)
      : reportPath
        ? `${reportPath}.journal`
        : isRegularFile(file)
          ? `${file}.svc-journal`
          : undefined;

  // --- the run: fresh or resumed ----------------------------------------------------------------------
  let run: RunRecord;
  let done = new Set<number>();
  let partial = new Map<number, number>();
  const state = journalPath ? readJournal(journalPath) : undefined;
  if (opts.resume && opts.again) throw new UsageError('--resume and --again: choose one (finish the journaled run, or send a new one)');
  if (opts.resume) {
    if (file === '-') {
      throw new UsageError('--resume: rows read from stdin cannot be checked against the run that was journaled; give the file with --recipients-file FILE');
    }
    if (!journalPath || !state) throw new UsageError('--resume needs a journal: give --report or --journal (stdin has no file to keep one beside)');
    run = checkResumable(state, journalPath, { workflow: opts.workflow, file, ...(size !== undefined ? { size } : {}), chunkSize: opts.chunkSize });
    // Before anything is sent: the rows the run would skip must be the rows that were sent.
    await checkUnchanged(deps, file, state, opts.chunkSize, journalPath);
    done = state.done;
    partial = state.partial;
  } else {
    if (state?.run && !opts.again) {
      const same = state.run.workflow === opts.workflow && state.run.file === file;
      if (!state.finished) {
        throw new UsageError(
          `an unfinished run of this file is journaled in ${journalPath}: continue it with --resume, or send everyone again as a new run with --again`,
        );
      }
      if (same) {
        const when = state.endedAt ? ` on ${state.endedAt}` : '';
        const line = `${opts.file} was already sent to ${opts.workflow}${when} (journal ${journalPath})`;
        opts.again = await askAgain(deps, line);
      }
    }
    // Runs of this file journaled elsewhere (beside another --report) count as much as the one here.
    const runs = file !== '-' ? runsScope(deps) : undefined;
    if (runs && !opts.again && !(state?.run && state.run.workflow === opts.workflow && state.run.file === file)) {
      const { journalsOf } = await import('./runs-index.js');
      for (const other of journalsOf(runs.dir, file, opts.workflow, runs.service)) {
        if (other === journalPath) continue;
        const earlier = readJournal(other);
        if (!earlier.run || earlier.run.workflow !== opts.workflow || earlier.run.file !== file) continue;
        if (!earlier.finished) {
          throw new UsageError(
            `an unfinished run of this file is journaled in ${other}: continue it with ${resumeFlags(file, other)}, or send everyone again as a new run with --again`,
          );
        }
        const when = earlier.endedAt ? ` on ${earlier.endedAt}` : '';
        opts.again = await askAgain(deps, `${opts.file} was already sent to ${opts.workflow}${when} (journal ${other})`, resumeFlags(file, other));
        break;
      }
    }
    run = {
      type: 'run',
      version: 1,
      runId: randomBytes(6).toString('hex'),
      workflow: opts.workflow,
      file,
      ...(size !== undefined ? { size } : {}),
      chunkSize: opts.chunkSize,
      startedAt: new Date(started).toISOString(),
    };
  }
  if (opts.strict && file !== '-') await validateWholeFile(deps, file);

  // All waits of the run listen to one signal of its own: at most one wait per request in flight plus
  // the reader's, each listener removed when its wait ends.
  const stop = new AbortController();
  setMaxListeners(64 + 8, stop.signal);
  const onAbort = () => stop.abort();
  deps.signal.addEventListener('abort', onAbort, { once: true });
  const deadline = opts.maxTimeMs !== undefined ? started + opts.maxTimeMs : undefined;
  const counts = { sent: 0, failed: 0, skipped: 0, alreadySent: 0, notSent: 0, requests: 0, failedRequests: 0, networkFailures: 0, answered: 0, replayed: 0 };
  // The bar is drawn once the run is under way (below): what refuses it before (a read-only profile,
  // an unreadable file) or is said before it (--again's files kept aside) is a line of its own.
  let progress: Awaited<ReturnType<typeof startProgress>>;
  const pacer = new Pacer({
    ...(opts.concurrency !== undefined ? { fixed: opts.concurrency } : {}),
    signal: stop.signal,
    ...(deadline !== undefined ? { deadline } : {}),
    onWait: (ms) => progress?.waiting(ms),
  });
  // The one client factory: a read-only profile refuses here, before the journal is written or a row
  // sent. The run retries by itself (a 429 waits for the bucket as long as progress is possible), so
  // the client makes one attempt per call and reports every answer to the pacer.
  const api: Api | undefined = deps.globals.dryRun
    ? undefined
    : await deps.client({ writes: true, retries: 0, onAttempt: (a) => pacer.observe(a.status, a.rateLimit, a.retryAfterMs) });
  if (opts.resume && reportPath) await trimReport(reportPath, done, partial);
  // --again: the earlier run's journal and report move aside only now, once nothing refuses the new run
  // (--strict, a read-only profile): a refused run leaves them, and the "already sent" guard, in place.
  if (!opts.resume && state?.run && opts.again && journalPath && !deps.globals.dryRun) keepAside(deps, state.run.runId, journalPath, reportPath);

  const journal = journalPath ? new Journal(journalPath) : undefined;
  if (journal && !opts.resume && !deps.globals.dryRun) {
    journal.start(run);
    const runs = file !== '-' ? runsScope(deps) : undefined;
    if (runs) (await import('./runs-index.js')).recordRun(runs.dir, { file, workflow: opts.workflow, service: runs.service, journal: journalPath! });
  }
  const report = new ReportWriter(deps.globals.dryRun ? undefined : reportPath, Boolean(opts.resume));
  // A new idempotency key prefix for each invocation: a resumed run must not be answered with the
  // replay of a refusal; the transaction ids, derived from the run, still keep anyone from being sent twice.
  const keyPrefix = `${deps.globals.idempotencyKey ?? 'svc-bulk'}-${run.runId}-${randomBytes(3).toString('hex')}`;
  let fatal: SvcError | undefined;
  let outOfTime = false;
  const inFlight = new Set<Promise<void>>();
  const maxRetries = deps.globals.retries;

  /** Sends one request, waiting out 429s (pacer) and retrying network errors and 5xx (backoff). */
  const post = async (op: 'triggerEvent' | 'triggerBulk', body: unknown, key: string, cost: number): Promise<unknown> => {
    for (let failures = 0; ; ) {
      try {
        // Through the session like every command: read-only refusal, the answer's shape checked; a replay
        // (the answer to a call that reached the service before a connection dropped) is counted, not noted.
        const res = await api!.call(op, { body, idempotencyKey: key }, { onReplay: () => counts.replayed++ });
        counts.answered++;
        return res?.data;
      } catch (e) {
        if (stop.signal.aborted) throw new InterruptedError();
        if (e instanceof ApiError) counts.answered++;
        if (e instanceof ApiError && e.status === 429) {
          await pacer.acquire(cost, false); // throws TooExpensive when the call can never pass
          pacer.release(cost, true, false);
          continue;
        }
        const transient = e instanceof NetworkError || (e instanceof ApiError && (e.status >= 500 || e.status === 408));
        if (!transient || failures >= maxRetries) throw e;
        // Nothing has ever been answered: a stopped service is not waited for chunk after chunk.
        if (e instanceof NetworkError && counts.answered === 0 && failures >= Math.min(1, maxRetries)) throw e;
        pacer.refund(cost);
        const ms = retryDelay(++failures, Math.random);
        if (deadline !== undefined && deps.now() + ms > deadline) throw new OutOfTime();
        try {
          await sleep(ms, undefined, { signal: stop.signal });
        } catch {
          throw new InterruptedError();
        }
        await pacer.acquire(cost, false);
        pacer.release(cost, true, false);
      }
    }
  };

  const resultLine = (row: GoodRow, r: { status?: string; error?: string[] }, transactionId: string | null, chunk: number): ReportLine => {
    const sent = r.status === 'processed';
    if (sent) counts.sent++;
    else counts.failed++;
    return {
      row: row.row,
      subscriberId: row.subscriberId,
      transactionId,
      status: sent ? 'sent' : 'failed',
      error: sent ? null : `${r.status ?? 'no result'}${r.error?.length ? `: ${r.error.join('; ')}` : ''}`,
      chunk,
    };
  };

  const sendChunk = async (chunk: Chunk, cost: number): Promise<void> => {
    // Events a resumed run already sent one at a time (journaled): not sent, nor paid for, again.
    const from = partial.get(chunk.index) ?? 0;
    const req = requestOf(run.runId, opts.workflow, opts.common, chunk, from);
    const key = `${keyPrefix}-${chunk.index}`;
    let ok = false;
    let lines: ReportLine[] = [];
    let sentRows = 0;
    let failedInChunk = false;
    try {
      if (deps.globals.dryRun) {
        if (chunk.index === 0) await deps.print({ method: 'POST', path: req.path, idempotencyKey: key, body: req.body });
        ok = true;
        return;
      }
      if (from >= chunk.rows.length) {
        // Every event was sent one at a time before the run stopped; only the journal did not say so.
        ok = true;
        journal?.chunkDone(chunk.index, chunk.rows);
        return;
      }
      let split = chunk.kind === 'bulk' && pacer.tooExpensive(100);
      if (!split) {
        try {
          const data = await post(req.op, req.body, key, cost);
          counts.requests++;
          const results = chunk.kind === 'trigger' ? chunk.rows.map(() => data) : (data as unknown[]);
          lines = chunk.rows
            .slice(from)
            .map((row, i) =>
              resultLine(
                row,
                (results[i] ?? {}) as { status?: string },
                chunk.kind === 'trigger' ? req.transactionId : transactionIdOf(run.runId, chunk.index, from + i),
                chunk.index,
              ),
            );
        } catch (e) {
          if (!(e instanceof TooExpensive) || chunk.kind !== 'bulk') throw e;
          split = true;
        }
      }
      if (split) {
        // One bulk call costs more than the bucket can ever hold: its events go one trigger each
        // (same transaction ids, so a resumed run that sent them in bulk sends nobody twice).
        // Each processed event is journaled as it goes: a run stopped part-way (--max-time, Ctrl-C)
        // resumes after the last one instead of paying for them again.
        const events = (req.body as { events: Record<string, unknown>[] }).events;
        for (const [i, ev] of events.entries()) {
          await pacer.acquire(1, false);
          let data: unknown;
          try {
            data = await post('triggerEvent', ev, `${key}-${from + i}`, 1);
          } finally {
            pacer.release(1, true, false);
          }
          counts.requests++;
          const line = resultLine(chunk.rows[from + i]!, (data ?? {}) as { status?: string }, ev.transactionId as string, chunk.index);
          lines.push(line);
          sentRows++;
          if (line.status === 'sent' && lines.every((l) => l.status === 'sent')) {
            report.write([line]);
            lines = [];
            journal?.eventsDone(chunk.index, chunk.rows, from + sentRows);
          } else {
            failedInChunk = true;
          }
        }
      }
      ok = true;
      report.write(lines);
      // Only a chunk whose every row the service processed is done: --resume sends the others again
      // (under a new idempotency key, with the same transaction ids).
      if (!failedInChunk && lines.every((l) => l.status === 'sent')) journal?.chunkDone(chunk.index, chunk.rows);
    } catch (e) {
      report.write(lines);
      const rest = chunk.rows.slice(from + sentRows);
      if (e instanceof OutOfTime) {
        outOfTime = true;
        counts.notSent += rest.length;
        return;
      }
      if (e instanceof InterruptedError || stop.signal.aborted) {
        fatal ??= new InterruptedError();
        counts.notSent += rest.length;
        return;
      }
      counts.failedRequests++;
      counts.failed += rest.length;
      if (e instanceof NetworkError) counts.networkFailures += rest.length;
      const message = e instanceof SvcError ? e.message : String(e);
      report.write(
        rest.map((row, i) => ({
          row: row.row,
          subscriberId: row.subscriberId,
          transactionId: chunk.kind === 'trigger' ? req.transactionId : transactionIdOf(run.runId, chunk.index, from + sentRows + i),
          status: 'failed' as const,
          error: message,
          chunk: chunk.index,
        })),
      );
      // Problems every other chunk would meet too end the run.
      if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404 || /workflow_not_found/.test(e.message))) fatal ??= e;
      if (e instanceof NetworkError && counts.answered === 0) fatal ??= e;
    } finally {
      pacer.release(cost, ok);
      progress?.update();
    }
  };

  const schedule = async (chunk: Chunk) => {
    // Checked before the run too; a file changed while it runs stops it here.
    const changed = opts.resume && state ? changedRows(state, chunk) : undefined;
    if (changed) fatal ??= new UsageError(`--resume: ${file} changed while it was read: ${changed}`);
    if (done.has(chunk.index)) {
      counts.alreadySent += chunk.rows.length;
      return;
    }
    counts.alreadySent += partial.get(chunk.index) ?? 0;
    if (fatal || outOfTime) {
      counts.notSent += chunk.rows.length;
      return;
    }
    const cost = chunk.kind === 'bulk' && !deps.globals.dryRun ? (routes.triggerBulk.cost ?? 100) : 1;
    const split = chunk.kind === 'bulk' && pacer.tooExpensive(cost);
    let slotCost = split ? 0 : cost;
    try {
      await pacer.acquire(slotCost).catch(async (e) => {
        if (!(e instanceof TooExpensive)) throw e;
        slotCost = 0;
        await pacer.acquire(0);
      });
    } catch (e) {
      if (e instanceof OutOfTime) {
        outOfTime = true;
        counts.notSent += chunk.rows.length;
        return;
      }
      throw e;
    }
    const p = sendChunk(chunk, slotCost).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };

  const badRow = async (row: BadRow) => {
    counts.skipped++;
    deps.warn(`row ${row.row}: ${row.error}${opts.strict ? '' : ' (skipped)'}`);
    report.write([{ row: row.row, subscriberId: row.subscriberId ?? null, transactionId: null, status: 'skipped', error: row.error, chunk: null }]);
    if (opts.strict) fatal ??= new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict stops at the first bad row)`);
  };

  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  const chunker = new Chunker(opts.chunkSize);
  const showProgress = Boolean(deps.io.stderr.isTTY) && !deps.globals.quiet;
  // A pipe (a FIFO named as the file) is not read ahead for a total: that would wait for its writer.
  const total = !showProgress || !isRegularFile(file) ? undefined : await countRows(file);
  progress = await startProgress(deps, counts, total);
  try {
    for await (const row of opened.rows) {
      if (stop.signal.aborted) throw new InterruptedError();
      if (fatal && !(fatal instanceof NetworkError)) break;
      if (row.kind === 'bad') {
        await badRow(row);
        continue;
      }
      for (const chunk of chunker.add(row as GoodRow)) await schedule(chunk);
    }
    if (!stop.signal.aborted) for (const chunk of chunker.flush()) await schedule(chunk);
    await Promise.all(inFlight);
  } catch (e) {
    await Promise.allSettled(inFlight);
    if (!(e instanceof InterruptedError) && !stop.signal.aborted) throw e;
    fatal = new InterruptedError();
  } finally {
    deps.signal.removeEventListener('abort', onAbort);
    pacer.wakeAll();
    progress?.stop();
    report.close();
  }
  if (deps.signal.aborted && !(fatal instanceof InterruptedError)) fatal = new InterruptedError();
  if (fatal instanceof InterruptedError && !opts.resume && isRegularFile(file)) {
    // Interrupted: the rows not read yet are not sent either (the file's rows less those accounted
    // for). Not for a pipe (reading it to its end would wait for its writer), nor a resumed run (its
    // unread rows include some the journal says were sent).
    const rows = await countRows(file, true);
    const accounted = counts.sent + counts.failed + counts.skipped + counts.alreadySent + counts.notSent;
    if (rows !== undefined && rows > accounted) counts.notSent += rows - accounted;
  }

  const complete = !fatal && !outOfTime && counts.failed === 0 && counts.notSent === 0;
  if (journal && complete && !deps.globals.dryRun) journal.end();
  const elapsedMs = deps.now() - started;
  const summary: BulkSummary = {
    workflow: opts.workflow,
    runId: run.runId,
    recipients: {
      sent: counts.sent,
      failed: counts.failed,
      skipped: counts.skipped,
      alreadySent: counts.alreadySent,
      ...(counts.notSent ? { notSent: counts.notSent } : {}),
    },
    // `replayed`: answers the service replayed for a call that had reached it before a connection dropped.
    requests: { sent: counts.requests, failed: counts.failedRequests, ...(counts.replayed ? { replayed: counts.replayed } : {}) },
    elapsedMs,
    recipientsPerSecond: elapsedMs > 0 ? Math.round((counts.sent / elapsedMs) * 1000) : counts.sent,
    report: reportPath ?? null,
    journal: journalPath ?? null,
  };
  if (deps.globals.dryRun) return;
  deps.info(
    `${counts.sent} recipient${counts.sent === 1 ? '' : 's'} sent, ${counts.failed} failed, ${counts.skipped} skipped` +
      `${counts.alreadySent ? `, ${counts.alreadySent} already sent before` : ''}${counts.notSent ? `, ${counts.notSent} not sent yet` : ''} in ${formatDuration(elapsedMs)} ` +
      `(${summary.recipientsPerSecond}/s, ${counts.requests} request${counts.requests === 1 ? '' : 's'})`,
  );
  await deps.print(summary);

  const resumeHint = journalPath ? `continue with the same command and --resume (journal: ${journalPath})` : undefined;
  if (fatal instanceof InterruptedError) throw new InterruptedError('interrupted', resumeHint);
  // Nothing could be delivered because the service could not be reached: the network's exit code.
  if (counts.sent === 0 && counts.failed > 0 && counts.networkFailures === counts.failed) {
    const why = fatal instanceof NetworkError ? fatal.message : 'every request failed on the network';
    throw new SvcError(`nothing was sent: ${why}`, 'network_error', EXIT.network, resumeHint);
  }
  if (fatal) throw fatal;
  if (outOfTime) {
    throw new SvcError(
      `--max-time ${formatDuration(opts.maxTimeMs ?? 0)} ran out waiting for the rate limit: ${counts.notSent} recipient${counts.notSent === 1 ? '' : 's'} not sent yet`,
      'rate_limited',
      EXIT.rateLimited,
      resumeHint,
    );
  }
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

/** Lines of a file less the CSV header, for the progress bar's total (blank lines counted too). */
async function countRows(path: string, skipBlank = false): Promise<number | undefined> {
  let lines = 0;
  let blank = 0;
  let last = 10;
  // Whether the line being read has anything but spaces, tabs and CRs so far.
  let filled = false;
  let first: number | undefined;
  try {
    for await (const buf of createReadStream(path) as AsyncIterable<Buffer>) {
      first ??= buf
        .toString('utf8', 0, 64)
        .replace(/^\uFEFF/, '')
        .trimStart()
        .charCodeAt(0);
      if (skipBlank) {
        for (const b of buf) {
          if (b === 10) {
            lines++;
            if (!filled) blank++;
            filled = false;
          } else if (b !== 32 && b !== 9 && b !== 13) filled = true;
        }
      } else for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++;
      if (buf.length) last = buf[buf.length - 1]!;
    }
  } catch {
    return undefined;
  }
  if (last !== 10) {
    lines++;
    if (skipBlank && !filled) blank++;
  }
  const rows = lines - blank;
  return first === 123 /* { */ ? rows : Math.max(0, rows - 1);
}

function isRegularFile(file: string): boolean {
  try {
    return file !== '-' && statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The request of a chunk; a bulk chunk from its event `from` on (the first ones were sent before). */
function requestOf(runId: string, workflow: string, common: Record<string, unknown>, chunk: Chunk, from = 0) {
  const key = `svc-bulk-${runId}-${chunk.index}`;
  if (chunk.kind === 'trigger') {
    const transactionId = transactionIdOf(runId, chunk.index);
    return {
      op: 'triggerEvent' as const,
      path: routes.triggerEvent.path,
      key,
      transactionId,
      body: { name: workflow, ...common, to: chunk.rows.map((r) => r.recipient), transactionId },
    };
  }
  const commonPayload = (common.payload as Record<string, unknown> | undefined) ?? {};
  const events = chunk.rows.slice(from).map((r, i) => ({
    name: workflow,
    ...common,
    to: [r.recipient],
    payload: { ...commonPayload, ...r.payload },
    transactionId: transactionIdOf(runId, chunk.index, from + i),
  }));
  return { op: 'triggerBulk' as const, path: routes.triggerBulk.path, key, transactionId: null, body: { events } };
}

/** The flags that continue the run journaled at `journal`: its report's, or the journal's own path. */
function resumeFlags(file: string, journal: string): string {
  if (journal === `${file}.svc-journal`) return '--resume';
  if (journal.endsWith('.journal')) return `--resume --report ${journal.slice(0, -'.journal'.length)}`;
  return `--resume --journal ${journal}`;
}

/** Where the index of runs lives (the config folder) and the service a run goes to; none without settings. */
function runsScope(deps: Deps): { dir: string; service: string } | undefined {
  const state = localState(() => deps.settings());
  return state && { dir: state.dir, service: state.profile };
}

/**
 * A finished run of the same file and workflow is journaled: sending again would reach everyone twice.
 * A person is asked; otherwise the choice is refused in one line. Returns true to send a new run.
 */
async function askAgain(deps: Deps, line: string, resume = '--resume'): Promise<true> {
  const choice = `${resume} to finish it (nothing is left to send), or --again to send everyone again as a new run with a new journal`;
  if (deps.interactive()) {
    const { askConfirm } = await import('../io/prompt.js');
    if (await askConfirm(deps, `${line}. Send everyone again as a new run?`, false)) return true;
    throw new UsageError(`not sent again: ${line}`);
  }
  throw new UsageError(`${line}: ${choice}`);
}

/** --again: the earlier run's journal and report are renamed aside (…​.RUNID), not overwritten. */
function keepAside(deps: Deps, runId: string, journalPath: string, reportPath: string | undefined): void {
  for (const path of [journalPath, reportPath]) {
    if (!path || !existsSync(path)) continue;
    renameSync(path, `${path}.${runId}`);
    deps.info(`the earlier run's ${path === journalPath ? 'journal' : 'report'} is kept as ${path}.${runId}`);
  }
}

/** --resume: the file is read once before anything is sent; rows the journal says were sent must not have changed. */
async function checkUnchanged(deps: Deps, file: string, state: JournalState, chunkSize: number, journalPath: string): Promise<void> {
  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  const chunker = new Chunker(chunkSize);
  let chunks = 0;
  const check = (chunk: Chunk) => {
    chunks = chunk.index + 1;
    const why = changedRows(state, chunk);
    if (why) {
      throw new UsageError(`--resume: ${file} changed since the run in ${journalPath}: ${why}; nothing was sent (send the file as it is now with --again)`);
    }
  };
  for await (const row of opened.rows) {
    if (row.kind === 'bad') continue;
    for (const chunk of chunker.add(row)) check(chunk);
  }
  for (const chunk of chunker.flush()) check(chunk);
  const gone = [...state.done, ...state.partial.keys()].filter((i) => i >= chunks);
  if (gone.length) {
    throw new UsageError(
      `--resume: ${file} changed since the run in ${journalPath}: it no longer holds chunk ${Math.min(...gone)}, which was sent; nothing was sent (send the file as it is now with --again)`,
    );
  }
}

/** --strict on a file: every row is checked before anything is sent, so a bad file sends nothing. */
async function validateWholeFile(deps: Deps, file: string): Promise<void> {
  const opened = await openRecipients(file, deps.io.stdin, async (p) => statSync(p).size);
  for await (const row of opened.rows) {
    if (row.kind === 'bad') throw new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict: nothing was sent)`);
  }
}

interface Progress {
  update(): void;
  /** The pacer waits for the rate limit (ms > 0), or has stopped waiting (0). */
  waiting(ms: number): void;
  stop(): void;
}

/** Renders the progress line: recipients sent of the total, rate, ETA, and a rate-limit wait. Pure. */
export function progressLine(p: { sent: number; failed: number; total?: number; elapsedMs: number; waitMs: number }, columns = 80): string {
  const width = Math.max(20, Math.min(columns, 200)) - 1;
  const rate = p.elapsedMs > 0 ? (p.sent / p.elapsedMs) * 1000 : 0;
  const done = p.sent + p.failed;
  const total = p.total !== undefined ? Math.max(p.total, done) : undefined;
  const eta = total !== undefined && rate > 0 ? `ETA ${formatDuration(Math.round(((total - done) / rate) * 1000))}` : '';
  const wait = p.waitMs > 0 ? `rate limited, resuming in ${Math.ceil(p.waitMs / 1000)} s` : eta;
  const count = `${p.sent}${total !== undefined ? `/${total}` : ''} sent${p.failed ? ` · ${p.failed} failed` : ''}`;
  const tail = ` ${count} · ${Math.round(rate)}/s${wait ? ` · ${wait}` : ''}`;
  const barWidth = Math.max(0, Math.min(24, width - tail.length - 1));
  let bar = '';
  if (barWidth >= 5 && total) {
    const filled = Math.round((Math.min(done, total) / total) * barWidth);
    bar = `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}`;
  }
  const line = `${bar}${tail}`;
  return line.length > width ? line.slice(0, width) : line;
}

/** A progress line on stderr when it is a terminal, redrawn at most 10 times a second. */
async function startProgress(deps: Deps, counts: { sent: number; failed: number }, total: number | undefined): Promise<Progress | undefined> {
  if (!deps.io.stderr.isTTY || deps.globals.quiet) return undefined;
  const out = deps.io.stderr as NodeJS.WriteStream;
  const t0 = Date.now();
  let waitUntil = 0;
  let drawn = 0;
  const draw = () => {
    drawn = Date.now();
    const line = progressLine(
      { sent: counts.sent, failed: counts.failed, ...(total !== undefined ? { total } : {}), elapsedMs: drawn - t0, waitMs: Math.max(0, waitUntil - drawn) },
      out.columns || 80,
    );
    out.write(`\r\x1b[2K${line}`);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  out.write('\x1b[?25l');
  draw();
  return {
    update() {
      if (Date.now() - drawn >= 100) draw();
    },
    waiting(ms) {
      waitUntil = ms > 0 ? Date.now() + ms : 0;
      draw();
    },
    stop() {
      clearInterval(timer);
      out.write('\r\x1b[2K\x1b[?25h');
    },
  };
}

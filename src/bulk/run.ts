// svc trigger WORKFLOW --recipients-file FILE: streams the file, cuts it into chunks, sends them with
// bounded (adaptive) concurrency, reports every row, journals every acknowledged chunk so that a run
// killed part-way can be resumed without sending anyone twice. The pieces: the plan (plan.ts: which
// run, refused before anything is sent), the journal (journal.ts), the sending (send.ts), the report and
// progress line (report.ts); this file reads the rows into them and says how the run ended.
import { statSync } from 'node:fs';
import { formatDuration } from '../core/duration.js';
import { EXIT, InterruptedError, NetworkError, SvcError } from '../core/errors.js';
import type { Deps } from '../deps.js';
import { Chunker } from './chunks.js';
import { openJournal } from './journal.js';
import { type BulkOptions, countRows, isRegularFile, planRun, type RunPlan, runsScope } from './plan.js';
import { type Progress, ReportWriter, startProgress } from './report.js';
import { BulkSender, type Counts } from './send.js';
import { type BadRow, type GoodRow, openRecipients } from './rows.js';

interface BulkSummary {
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

export async function runBulk(deps: Deps, opts: Readonly<BulkOptions>): Promise<void> {
  const started = deps.now();
  const plan = await planRun(deps, opts, started);
  const sender = new BulkSender(deps, opts, plan, started);
  const onAbort = () => sender.stop.abort();
  deps.signal.addEventListener('abort', onAbort, { once: true });
  await sender.connect();
  const journal = await openJournal(deps, plan, opts, plan.file !== '-' ? runsScope(deps) : undefined);
  const report = new ReportWriter(deps.globals.dryRun ? undefined : plan.reportPath, Boolean(opts.resume));
  // The bar is drawn once the run is under way: what refuses it before (a read-only profile, an
  // unreadable file) or is said before it (--again's files kept aside) is a line of its own.
  let progress: Progress | undefined;
  sender.recordTo({ report, journal, progress: () => progress });
  try {
    const opened = await openRecipients(plan.file, deps.io.stdin, async (p) => statSync(p).size);
    // A pipe (a FIFO named as the file) is not read ahead for a total: that would wait for its writer.
    const showProgress = Boolean(deps.io.stderr.isTTY) && !deps.globals.quiet;
    const total = !showProgress || !isRegularFile(plan.file) ? undefined : await countRows(plan.file);
    progress = startProgress(deps, sender.counts, total);
    await sendRows(sender, opened.rows, opts.chunkSize);
  } finally {
    deps.signal.removeEventListener('abort', onAbort);
    sender.pacer.wakeAll();
    progress?.stop();
    report.close();
  }
  if (deps.signal.aborted && !(sender.fatal instanceof InterruptedError)) sender.fatal = new InterruptedError();
  if (sender.fatal instanceof InterruptedError && !opts.resume && isRegularFile(plan.file)) await countUnread(plan.file, sender.counts);
  const { counts, fatal, outOfTime } = sender;
  const complete = !fatal && !outOfTime && counts.failed === 0 && counts.notSent === 0;
  if (journal && complete) journal.end();
  if (deps.globals.dryRun) return;
  const summary = summarise(opts, plan, counts, deps.now() - started);
  deps.info(
    `${counts.sent} recipient${counts.sent === 1 ? '' : 's'} sent, ${counts.failed} failed, ${counts.skipped} skipped` +
      `${counts.alreadySent ? `, ${counts.alreadySent} already sent before` : ''}${counts.notSent ? `, ${counts.notSent} not sent yet` : ''} in ${formatDuration(summary.elapsedMs)} ` +
      `(${summary.recipientsPerSecond}/s, ${counts.requests} request${counts.requests === 1 ? '' : 's'})`,
  );
  await deps.print(summary);
  throwIfIncomplete(opts, plan, sender);
}

/** Reads the rows into chunks and sends them; a Ctrl-C (or a fatal error) stops the reading, and what is in flight finishes. */
async function sendRows(sender: BulkSender, rows: AsyncIterable<GoodRow | BadRow>, chunkSize: number): Promise<void> {
  const chunker = new Chunker(chunkSize);
  const { signal } = sender.stop;
  try {
    for await (const row of rows) {
      if (signal.aborted) throw new InterruptedError();
      if (sender.fatal && !(sender.fatal instanceof NetworkError)) break;
      if (row.kind === 'bad') {
        sender.badRow(row);
        continue;
      }
      for (const chunk of chunker.add(row)) await sender.schedule(chunk);
    }
    if (!signal.aborted) for (const chunk of chunker.flush()) await sender.schedule(chunk);
    await sender.drain();
  } catch (e) {
    await sender.drain(true);
    if (!(e instanceof InterruptedError) && !signal.aborted) throw e;
    sender.fatal = new InterruptedError();
  }
}

/**
 * Interrupted: the rows not read yet are not sent either (the file's rows less those accounted for).
 * Not for a pipe (reading it to its end would wait for its writer), nor a resumed run (its unread rows
 * include some the journal says were sent).
 */
async function countUnread(file: string, counts: Counts): Promise<void> {
  const rows = await countRows(file, true);
  const accounted = counts.sent + counts.failed + counts.skipped + counts.alreadySent + counts.notSent;
  if (rows !== undefined && rows > accounted) counts.notSent += rows - accounted;
}

function summarise(opts: Readonly<BulkOptions>, plan: RunPlan, counts: Counts, elapsedMs: number): BulkSummary {
  return {
    workflow: opts.workflow,
    runId: plan.run.runId,
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
    report: plan.reportPath ?? null,
    journal: plan.journalPath ?? null,
  };
}

/** How a run that did not send every row ends: its exit code and the line that says what to do. */
function throwIfIncomplete(opts: Readonly<BulkOptions>, plan: RunPlan, sender: BulkSender): void {
  const { counts, fatal, outOfTime } = sender;
  const resumeHint = plan.journalPath ? `continue with the same command and --resume (journal: ${plan.journalPath})` : undefined;
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
    const where = plan.reportPath ? ` (see ${opts.report})` : '';
    const resume = counts.failed > 0 && plan.journalPath ? `; send the failed chunks again with --resume` : '';
    const parts = [
      ...(counts.failed ? [`${counts.failed} recipient${counts.failed === 1 ? '' : 's'} failed`] : []),
      ...(counts.skipped ? [`${counts.skipped} bad row${counts.skipped === 1 ? ' was' : 's were'} skipped`] : []),
    ];
    throw new SvcError(`not every row was sent: ${parts.join(' and ')}${where}${resume}`, 'bulk_incomplete', 1);
  }
}

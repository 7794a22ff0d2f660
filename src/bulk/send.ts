// Sending a bulk run: each chunk as one request (a trigger to its recipients, or a bulk trigger of one
// event per row), with bounded concurrency (the pacer), waiting out 429s, retrying network errors and
// 5xx, and writing each row's outcome to the report and each acknowledged chunk to the journal.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { retryDelay } from '../api/http-rules.js';
import { routes } from '../api/routes.js';
import type { Api } from '../api/session.js';
import { ApiError, InterruptedError, NetworkError, SvcError, UsageError } from '../core/errors.js';
import type { Deps } from '../deps.js';
import { type Chunk, transactionIdOf } from './chunks.js';
import { changedRows, type Journal } from './journal.js';
import { OutOfTime, Pacer, TooExpensive } from './pacer.js';
import type { BulkOptions, RunPlan } from './plan.js';
import type { Progress, ReportLine, ReportWriter } from './report.js';
import type { BadRow, GoodRow } from './rows.js';

/** What a run has done so far, row by row and request by request. */
export interface Counts {
  sent: number;
  failed: number;
  skipped: number;
  alreadySent: number;
  notSent: number;
  requests: number;
  failedRequests: number;
  /** Rows that failed on the network (no answer). */
  networkFailures: number;
  /** Calls the service answered (with any status). */
  answered: number;
  replayed: number;
}

/** Where the outcomes go: the report, the journal (none under --dry-run or without a file), the progress line. */
interface Records {
  report: ReportWriter;
  journal: Journal | undefined;
  progress(): Progress | undefined;
}

type TriggerOp = 'triggerEvent' | 'triggerBulk';

/** The request of a chunk; a bulk chunk from its event `from` on (the first ones were sent before). */
function requestOf(runId: string, workflow: string, common: Record<string, unknown>, chunk: Chunk, from = 0) {
  if (chunk.kind === 'trigger') {
    const transactionId = transactionIdOf(runId, chunk.index);
    return {
      op: 'triggerEvent' as const,
      path: routes.triggerEvent.path,
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
  return { op: 'triggerBulk' as const, path: routes.triggerBulk.path, transactionId: null, body: { events } };
}

export class BulkSender {
  readonly counts: Counts = {
    sent: 0,
    failed: 0,
    skipped: 0,
    alreadySent: 0,
    notSent: 0,
    requests: 0,
    failedRequests: 0,
    networkFailures: 0,
    answered: 0,
    replayed: 0,
  };
  /** What ends the run: an error every other chunk would meet too, Ctrl-C, a changed file, --strict. */
  fatal: SvcError | undefined;
  /** --max-time ran out waiting for the rate limit. */
  outOfTime = false;
  readonly pacer: Pacer;
  /** Every wait of the run listens to this signal: at most one per request in flight plus the reader's. */
  readonly stop = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly deadline: number | undefined;
  private readonly keyPrefix: string;
  private api: Api | undefined;
  private records: Records | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly opts: Readonly<BulkOptions>,
    private readonly plan: RunPlan,
    started: number,
  ) {
    setMaxListeners(64 + 8, this.stop.signal);
    this.deadline = opts.maxTimeMs !== undefined ? started + opts.maxTimeMs : undefined;
    this.pacer = new Pacer({
      ...(opts.concurrency !== undefined ? { fixed: opts.concurrency } : {}),
      signal: this.stop.signal,
      ...(this.deadline !== undefined ? { deadline: this.deadline } : {}),
      onWait: (ms) => this.records?.progress()?.waiting(ms),
    });
    // A new idempotency key prefix for each invocation: a resumed run must not be answered with the
    // replay of a refusal; the transaction ids, derived from the run, still keep anyone from being sent twice.
    this.keyPrefix = `${deps.globals.idempotencyKey ?? 'svc-bulk'}-${plan.run.runId}-${randomBytes(3).toString('hex')}`;
  }

  /**
   * The client, from the one factory: a read-only profile refuses here, before the journal is written or
   * a row sent. The run retries by itself (a 429 waits for the bucket as long as progress is possible),
   * so the client makes one attempt per call and reports every answer to the pacer.
   */
  async connect(): Promise<void> {
    if (this.deps.globals.dryRun) return;
    this.api = await this.deps.client({ writes: true, retries: 0, onAttempt: (a) => this.pacer.observe(a.status, a.rateLimit, a.retryAfterMs) });
  }

  /** Where outcomes are written from now on. */
  recordTo(records: Records): void {
    this.records = records;
  }

  /** Takes the next chunk: waits for a slot of the pacer, then sends it while the next rows are read. */
  async schedule(chunk: Chunk): Promise<void> {
    const { counts, plan } = this;
    // Checked before the run too; a file changed while it runs stops it here.
    const changed = this.opts.resume && plan.state ? changedRows(plan.state, chunk) : undefined;
    if (changed) this.fatal ??= new UsageError(`--resume: ${plan.file} changed while it was read: ${changed}`);
    if (plan.done.has(chunk.index)) {
      counts.alreadySent += chunk.rows.length;
      return;
    }
    counts.alreadySent += plan.partial.get(chunk.index) ?? 0;
    if (this.fatal || this.outOfTime) {
      counts.notSent += chunk.rows.length;
      return;
    }
    const cost = chunk.kind === 'bulk' && !this.deps.globals.dryRun ? (routes.triggerBulk.cost ?? 100) : 1;
    let slotCost = chunk.kind === 'bulk' && this.pacer.tooExpensive(cost) ? 0 : cost;
    try {
      await this.pacer.acquire(slotCost).catch(async (e) => {
        if (!(e instanceof TooExpensive)) throw e;
        slotCost = 0;
        await this.pacer.acquire(0);
      });
    } catch (e) {
      if (!(e instanceof OutOfTime)) throw e;
      this.outOfTime = true;
      counts.notSent += chunk.rows.length;
      return;
    }
    const p = this.sendChunk(chunk, slotCost).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  /** A row that cannot be sent: reported as skipped, or the end of the run under --strict. */
  badRow(row: BadRow): void {
    this.counts.skipped++;
    this.deps.warn(`row ${row.row}: ${row.error}${this.opts.strict ? '' : ' (skipped)'}`);
    this.records?.report.write([
      { row: row.row, subscriberId: row.subscriberId ?? null, transactionId: null, status: 'skipped', error: row.error, chunk: null },
    ]);
    if (this.opts.strict) this.fatal ??= new UsageError(`--recipients-file row ${row.row}: ${row.error} (--strict stops at the first bad row)`);
  }

  /** Waits for the chunks in flight; `settled`: whatever each ends in. */
  async drain(settled = false): Promise<void> {
    if (settled) await Promise.allSettled(this.inFlight);
    else await Promise.all(this.inFlight);
  }

  /** Sends one request, waiting out 429s (pacer) and retrying network errors and 5xx (backoff). */
  private async post(op: TriggerOp, body: unknown, key: string, cost: number): Promise<unknown> {
    const { counts, pacer } = this;
    const maxRetries = this.deps.globals.retries;
    for (let failures = 0; ; ) {
      try {
        // Through the session like every command: read-only refusal, the answer's shape checked; a replay
        // (the answer to a call that reached the service before a connection dropped) is counted, not noted.
        const res = await this.api!.call(op, { body, idempotencyKey: key }, { onReplay: () => counts.replayed++ });
        counts.answered++;
        return res?.data;
      } catch (e) {
        if (this.stop.signal.aborted) throw new InterruptedError();
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
        if (this.deadline !== undefined && this.deps.now() + ms > this.deadline) throw new OutOfTime();
        try {
          await sleep(ms, undefined, { signal: this.stop.signal });
        } catch {
          throw new InterruptedError();
        }
        await pacer.acquire(cost, false);
        pacer.release(cost, true, false);
      }
    }
  }

  /** A row's line of the report from the service's result for it; counted as sent or failed. */
  private resultLine(row: GoodRow, r: { status?: string; error?: string[] }, transactionId: string | null, chunk: number): ReportLine {
    const sent = r.status === 'processed';
    if (sent) this.counts.sent++;
    else this.counts.failed++;
    return {
      row: row.row,
      subscriberId: row.subscriberId,
      transactionId,
      status: sent ? 'sent' : 'failed',
      error: sent ? null : `${r.status ?? 'no result'}${r.error?.length ? `: ${r.error.join('; ')}` : ''}`,
      chunk,
    };
  }

  private async sendChunk(chunk: Chunk, cost: number): Promise<void> {
    const { plan, records } = this;
    // Events a resumed run already sent one at a time (journaled): not sent, nor paid for, again.
    const from = plan.partial.get(chunk.index) ?? 0;
    const req = requestOf(plan.run.runId, this.opts.workflow, this.opts.common, chunk, from);
    const key = `${this.keyPrefix}-${chunk.index}`;
    const sent: Sent = { lines: [], rows: 0, failed: false };
    let ok = false;
    try {
      if (this.deps.globals.dryRun) {
        if (chunk.index === 0) await this.deps.print({ method: 'POST', path: req.path, idempotencyKey: key, body: req.body });
        ok = true;
      } else if (from >= chunk.rows.length) {
        // Every event was sent one at a time before the run stopped; only the journal did not say so.
        ok = true;
        records?.journal?.chunkDone(chunk.index, chunk.rows);
      } else {
        const whole = chunk.kind === 'bulk' && this.pacer.tooExpensive(100) ? undefined : await this.sendWhole(chunk, req, key, cost, from);
        if (whole) sent.lines = whole;
        else await this.sendOneByOne(chunk, req.body as { events: Record<string, unknown>[] }, key, from, sent);
        ok = true;
        records?.report.write(sent.lines);
        // Only a chunk whose every row the service processed is done: --resume sends the others again
        // (under a new idempotency key, with the same transaction ids).
        if (!sent.failed && sent.lines.every((l) => l.status === 'sent')) records?.journal?.chunkDone(chunk.index, chunk.rows);
      }
    } catch (e) {
      records?.report.write(sent.lines);
      this.chunkFailed(chunk, req.transactionId, from + sent.rows, e);
    } finally {
      this.pacer.release(cost, ok);
      records?.progress()?.update();
    }
  }

  /** The chunk as one request: its rows' report lines, or undefined when the call costs more than the rate limit ever allows. */
  private async sendWhole(chunk: Chunk, req: ReturnType<typeof requestOf>, key: string, cost: number, from: number): Promise<ReportLine[] | undefined> {
    let data: unknown;
    try {
      data = await this.post(req.op, req.body, key, cost);
    } catch (e) {
      if (e instanceof TooExpensive && chunk.kind === 'bulk') return undefined;
      throw e;
    }
    this.counts.requests++;
    const results = chunk.kind === 'trigger' ? chunk.rows.map(() => data) : (data as unknown[]);
    const runId = this.plan.run.runId;
    return chunk.rows
      .slice(from)
      .map((row, i) =>
        this.resultLine(
          row,
          (results[i] ?? {}) as { status?: string },
          chunk.kind === 'trigger' ? req.transactionId : transactionIdOf(runId, chunk.index, from + i),
          chunk.index,
        ),
      );
  }

  /**
   * One bulk call costs more than the bucket can ever hold: its events go one trigger each (same
   * transaction ids, so a resumed run that sent them in bulk sends nobody twice). Each processed event
   * is journaled as it goes: a run stopped part-way (--max-time, Ctrl-C) resumes after the last one
   * instead of paying for them again.
   */
  private async sendOneByOne(chunk: Chunk, body: { events: Record<string, unknown>[] }, key: string, from: number, sent: Sent): Promise<void> {
    const { records } = this;
    for (const [i, ev] of body.events.entries()) {
      await this.pacer.acquire(1, false);
      let data: unknown;
      try {
        data = await this.post('triggerEvent', ev, `${key}-${from + i}`, 1);
      } finally {
        this.pacer.release(1, true, false);
      }
      this.counts.requests++;
      const line = this.resultLine(chunk.rows[from + i]!, (data ?? {}) as { status?: string }, ev.transactionId as string, chunk.index);
      sent.lines.push(line);
      sent.rows++;
      if (line.status === 'sent' && sent.lines.every((l) => l.status === 'sent')) {
        records?.report.write([line]);
        sent.lines = [];
        records?.journal?.eventsDone(chunk.index, chunk.rows, from + sent.rows);
      } else {
        sent.failed = true;
      }
    }
  }

  /** A chunk that could not be sent (from row `sentUpTo` on): reported, counted, and the run ended when every chunk would fail alike. */
  private chunkFailed(chunk: Chunk, transactionId: string | null, sentUpTo: number, e: unknown): void {
    const { counts } = this;
    const rest = chunk.rows.slice(sentUpTo);
    if (e instanceof OutOfTime) {
      this.outOfTime = true;
      counts.notSent += rest.length;
      return;
    }
    if (e instanceof InterruptedError || this.stop.signal.aborted) {
      this.fatal ??= new InterruptedError();
      counts.notSent += rest.length;
      return;
    }
    counts.failedRequests++;
    counts.failed += rest.length;
    if (e instanceof NetworkError) counts.networkFailures += rest.length;
    const message = e instanceof SvcError ? e.message : String(e);
    const runId = this.plan.run.runId;
    this.records?.report.write(
      rest.map((row, i) => ({
        row: row.row,
        subscriberId: row.subscriberId,
        transactionId: chunk.kind === 'trigger' ? transactionId : transactionIdOf(runId, chunk.index, sentUpTo + i),
        status: 'failed' as const,
        error: message,
        chunk: chunk.index,
      })),
    );
    // Problems every other chunk would meet too end the run.
    if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404 || /workflow_not_found/.test(e.message))) this.fatal ??= e;
    if (e instanceof NetworkError && counts.answered === 0) this.fatal ??= e;
  }
}

/** A chunk's report lines not written yet, the rows sent one at a time so far, and whether one failed. */
interface Sent {
  lines: ReportLine[];
  rows: number;
  failed: boolean;
}

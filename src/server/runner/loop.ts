// The job runner, a plain loop: look for due jobs, run each through the handler of its step type, and
// write its outcome in the job's own transaction (a savepoint of the look's), then sleep on the Clock
// until the next job is due. A job whose handler has network work (a webhook, a call to the team's
// app) takes a slot: it is written `running`, its call runs outside any transaction, and its outcome
// is written when the call ends. State lives only in the jobs table, so a restarted process picks up
// every job that had not finished (those that were running when it died, and delays and digests that
// came due while it was down). How looks are committed, and the pieces that only buy throughput, are
// chosen in throughput.ts; this loop behaves the same with or without them.
import type { Clock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';
import { PLAIN, type RunnerPace } from '../throughput.js';
import { type Attempt, type AttemptDeps, needsNetwork, startAttempt } from './attempt.js';
import { NOTHING_RECORDED, recordFailure, recordOutcome } from './outcome.js';
import { STEP_RUNNING, STEP_REQUEUED } from './queue.js';
import { type Slot, Slots } from './slots.js';
import type { RunnerSettings, StepContext, StepRegistry } from './types.js';

export interface RunnerOptions {
  store: Store;
  clock: Clock;
  registry: StepRegistry;
  settings?: Partial<RunnerSettings>;
  /** How the runner commits and what it does for throughput (throughput.ts); plain when absent. */
  pace?: RunnerPace;
  /** A handler threw (the job is failed) or the store failed (job undefined): for the log. */
  onError?: (error: unknown, job: JobRecord | undefined) => void;
}

/** After the store itself failed (disk full, ...), the next look waits this long rather than spin. */
const RETRY_AFTER_STORE_FAILURE_MS = 1000;

export class JobRunner {
  /** What the one who started svc dev allowed (the routes read it too). */
  readonly settings: RunnerSettings;
  private readonly deps: AttemptDeps;
  private readonly pace: RunnerPace;
  private readonly slots: Slots;
  private running = false;
  private lookScheduled = false;
  private cancelSleep: (() => void) | undefined;

  constructor(private readonly opts: RunnerOptions) {
    this.settings = { allowRemoteWebhooks: false, allowRemoteBridge: false, ...opts.settings };
    this.pace = opts.pace ?? PLAIN;
    this.deps = { store: opts.store, clock: opts.clock, registry: opts.registry, settings: this.settings };
    this.slots = new Slots(this.pace.slots, this.pace.appSlots);
  }

  private get store(): Store {
    return this.opts.store;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.store.tx(() => this.store.jobs.requeueRunning(STEP_REQUEUED));
    this.kick();
  }

  /** New jobs may be due: look soon, after the current request has been answered. */
  kick(): void {
    if (!this.running || this.lookScheduled) return;
    this.lookScheduled = true;
    setImmediate(() => this.look());
  }

  /** Stops taking jobs and waits for the calls in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelSleep?.();
    this.cancelSleep = undefined;
    await this.slots.allReleased();
  }

  /**
   * Resolves once no job is running or due (delayed jobs in the future do not count) and what the
   * last ones wrote has committed. `inflight: false`: jobs whose network call is still running do
   * not count (a test holding one back waits for everything else this way); a job due but waiting for
   * a slot still does.
   */
  async idle(opts: { inflight?: boolean } = {}): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.store.batchOpen) {
        await new Promise<void>((r) => this.store.afterCommit(r));
        continue;
      }
      if (this.slots.busy && opts.inflight !== false) {
        await this.slots.allReleased();
        continue;
      }
      if (!this.running || !this.store.db.open) return;
      if (this.lookScheduled) continue;
      const next = this.store.jobs.nextRunAt();
      if (next === undefined || next > this.opts.clock.now()) return;
    }
  }

  private look(): void {
    this.lookScheduled = false;
    if (!this.running || !this.store.db.open) return;
    // Jobs are only taken from committed state: a job of a trigger whose batch is still open could
    // otherwise be delivered, the process die before the COMMIT, and the trigger never be
    // acknowledged. So the look waits for that COMMIT, and runs right after it (after the replies it
    // releases), before the requests of the next turn open another batch.
    if (this.store.batchOpen) return this.store.afterCommit(() => queueMicrotask(() => this.look()));
    let started = 0;
    try {
      this.pace.write(this.store, () => (started = this.runDue())).catch((e: unknown) => this.storeFailed(e));
    } catch (e) {
      return this.storeFailed(e);
    }
    // What ran may have queued more (an event's next step), and a full look left jobs behind it: look
    // again until a look starts nothing, then sleep.
    if (started > 0) this.kick();
    else this.sleepUntilDue();
  }

  /** Runs or launches the jobs due now, in due order; how many it started. */
  private runDue(): number {
    let started = 0;
    this.slots.startLook();
    for (const id of this.store.jobs.dueIds(this.opts.clock.now(), this.pace.lookLimit)) {
      if (this.slots.holds(id) || this.slots.mustWait(id)) continue;
      // Read now, not with the ids: a job run before it in this look may have changed it.
      const job = this.store.jobs.job(id);
      if (!job || (job.status !== 'queued' && job.status !== 'delayed')) continue;
      if (this.runOrLaunch(job)) started++;
    }
    return started;
  }

  /** Runs the job, or launches its network work in a slot; false when it waits for a slot. */
  private runOrLaunch(job: JobRecord): boolean {
    const attempt = startAttempt(this.deps, job);
    if (typeof attempt === 'string') {
      this.store.tx(() => recordOutcome(this.store, job, NOTHING_RECORDED, { status: 'failed', error: attempt }));
      return true;
    }
    let network: boolean;
    try {
      network = needsNetwork(attempt);
    } catch (e) {
      this.failed(job, e);
      return true;
    }
    if (!network) {
      this.runHere(attempt);
      return true;
    }
    const slot = this.slots.take(job.id, attempt.ctx.workflow.origin === 'external');
    if (slot) this.launch(attempt, slot);
    return slot !== undefined;
  }

  /** Runs a job without network work now; with chaining, the steps of its event that come due with it. */
  private runHere(first: Attempt): void {
    let next = this.settle(first, undefined);
    let ctx: StepContext = first.ctx;
    while (next !== undefined && this.pace.chain) {
      const attempt = startAttempt(this.deps, next, ctx);
      // A step with network work waits for a slot as every such job does: the next look finds it.
      if (typeof attempt === 'string' || needsNetwork(attempt)) return;
      ctx = attempt.ctx;
      next = this.settle(attempt, undefined);
    }
  }

  /**
   * The job's outcome from its handler's run, in a transaction of its own; a handler that throws
   * rolls its writes back and fails the job alone. Returns the event's next job when it is due now.
   */
  private settle(attempt: Attempt, prepared: unknown): JobRecord | undefined {
    const { job, handler, ctx } = attempt;
    try {
      return this.store.tx(() => recordOutcome(this.store, job, attempt, handler.run(ctx, prepared)));
    } catch (e) {
      return this.failed(job, e);
    }
  }

  private failed(job: JobRecord, e: unknown): JobRecord | undefined {
    this.opts.onError?.(e, job);
    return this.store.tx(() => recordFailure(this.store, job, e));
  }

  /**
   * Starts a job's network work in its slot. Called inside the look's transaction: the job is written
   * `running` in it. A job whose write is lost (the process died before the COMMIT) is still queued,
   * and runs again at the next start.
   */
  private launch(attempt: Attempt, slot: Slot): void {
    this.store.jobs.settleJob(attempt.job, { status: 'running' }, [STEP_RUNNING]);
    let call: Promise<unknown>;
    try {
      // (A native promise is itself; a handler answering a plain value works as with `await`.)
      call = Promise.resolve(attempt.handler.prepare!(attempt.ctx));
    } catch (e) {
      call = Promise.reject(e);
    }
    call.then(
      (value) => this.finish(attempt, slot, () => this.settle(attempt, value)),
      (e: unknown) => this.finish(attempt, slot, () => this.failed(attempt.job, e ?? new Error('prepare failed'))),
    );
  }

  /** A job's call ended: its outcome is written, its slot freed, and the freed slot sought a job. */
  private finish(attempt: Attempt, slot: Slot, outcome: () => unknown): void {
    if (!this.store.db.open) return slot.release();
    try {
      this.pace.write(this.store, () => void outcome()).catch((e: unknown) => this.storeFailed(e));
    } catch (e) {
      // The store itself failed: the job stays `running`, and runs again at the next start.
      this.opts.onError?.(e, attempt.job);
    }
    slot.release();
    this.kick();
  }

  /**
   * The store itself failed (disk full, ...): what the look wrote was rolled back and its jobs stay
   * due. Look again later rather than spin or take the server down.
   */
  private storeFailed(e: unknown): void {
    this.opts.onError?.(e, undefined);
    this.cancelSleep?.();
    this.cancelSleep = this.opts.clock.setTimer(() => this.kick(), RETRY_AFTER_STORE_FAILURE_MS);
  }

  /**
   * Sleeps until the earliest queued or delayed job is due, also while calls are in flight (a
   * webhook must not hold back a delay that comes due meanwhile). With every slot taken, the next
   * call to end looks again, and a job already due waits for it (a timer for it would spin).
   */
  private sleepUntilDue(): void {
    this.cancelSleep?.();
    this.cancelSleep = undefined;
    if (this.lookScheduled || this.slots.full) return;
    const next = this.store.jobs.nextRunAt();
    if (next === undefined) return;
    this.cancelSleep = this.opts.clock.setTimer(() => this.kick(), next - this.opts.clock.now());
  }
}

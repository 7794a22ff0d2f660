// The job runner, a plain loop: look for due jobs, run each through the handler of its step type, and
// write its outcome in the job's own transaction (a savepoint of the look's), then sleep on the Clock
// until the next job is due. A job whose handler has network work (a webhook, a call to the team's
// app) takes a slot: it is written `running`, its call runs outside any transaction, and its outcome
// is written when the call ends. State lives only in the jobs table, so a restarted process picks up
// every job that had not finished (those that were running when it died, and delays and digests that
// came due while it was down). How looks are committed, and the pieces that only buy throughput, are
// chosen in throughput.ts; this loop behaves the same with or without them.
import type { Clock, MovableClock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';
import { PLAIN, type RunnerPace } from '../throughput.js';
import type { Attempt, AttemptDeps, Known } from './attempt.js';
import { NOTHING_RECORDED, recordFailure, recordOutcome } from './outcome.js';
import { queueJob, STEP_REQUEUED, STEP_RUNNING } from './queue.js';
import { type Slot, Slots } from './slots.js';
import type { RunnerSettings, StepContext, StepRegistry } from './types.js';

interface RunnerOptions {
  store: Store;
  clock: Clock;
  /** The step handlers; the workflow engine's (runner/index.ts), loaded with the first due job, when absent. */
  registry?: StepRegistry | undefined;
  settings?: Partial<RunnerSettings>;
  /** How the runner commits and what it does for throughput (throughput.ts); plain when absent. */
  pace?: RunnerPace;
  /** A handler threw (the job is failed) or the store failed (job undefined): for the log. */
  onError?: (error: unknown, job: JobRecord | undefined) => void;
}

/** After the store itself failed (disk full, ...), the next look waits this long rather than spin. */
const RETRY_AFTER_STORE_FAILURE_MS = 1000;

/**
 * What running a job takes: its attempt (the workflow engine's view of its workflow, its Liquid scope)
 * and the step handlers. Loaded with the first job that comes due, not at start: a service that has
 * only listened has loaded no engine.
 */
interface Steps {
  startAttempt: typeof import('./attempt.js').startAttempt;
  needsNetwork: typeof import('./attempt.js').needsNetwork;
  deps: AttemptDeps;
}

export class JobRunner {
  /** What the one who started svc dev allowed (the routes read it too). */
  readonly settings: RunnerSettings;
  private steps: Steps | undefined;
  private loadingSteps: Promise<void> | undefined;
  private readonly pace: RunnerPace;
  private readonly slots: Slots;
  private running = false;
  private lookScheduled = false;
  private cancelSleep: (() => void) | undefined;

  constructor(private readonly opts: RunnerOptions) {
    this.settings = { allowRemoteWebhooks: false, allowRemoteBridge: false, ...opts.settings };
    this.pace = opts.pace ?? PLAIN;
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

  /**
   * Makes service time pass up to `target`: the clock moves to each job's due time in turn and the
   * runner runs what came due then (with what that queued), so that delays, digest windows and
   * throttle windows close in time order and each at its own time. Resolves at `target`, with
   * everything due by then run. The runner must be running.
   */
  async advanceTo(clock: MovableClock, target: number): Promise<void> {
    if (!this.running) throw new Error('the job runner is not running: time cannot pass for its jobs');
    for (;;) {
      await this.idle();
      const next = this.store.jobs.nextRunAt();
      if (next === undefined || next > target) break;
      clock.moveTo(next);
      this.kick();
    }
    clock.moveTo(target);
    this.kick();
    await this.idle();
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
    // One instant for the look and the sleep after it: a job that comes due between the two (service
    // time runs on, 600 ms per real ms at --time-scale 600) is then still ahead of it, and gets its timer.
    const lookedAt = this.opts.clock.now();
    try {
      // Ids first, outside any transaction: jobs in a slot, or known to wait for one, are passed over
      // without reading their rows, and a look with nothing to start writes nothing.
      this.slots.startLook();
      const ids = this.store.jobs.dueIds(lookedAt, this.pace.lookLimit).filter((id) => !this.slots.holds(id) && !this.slots.mustWait(id));
      if (ids.length > 0 && !this.steps) return this.loadSteps();
      if (ids.length > 0) this.pace.write(this.store, () => (started = this.runDue(ids))).catch((e: unknown) => this.storeFailed(e));
    } catch (e) {
      return this.storeFailed(e);
    }
    // What ran may have queued more (an event's next step), and a full look left jobs behind it: look
    // again until a look starts nothing, then sleep.
    if (started > 0) this.kick();
    else this.sleepUntilDue(lookedAt);
  }

  /** Loads what running a job takes (Steps), then looks again. */
  private loadSteps(): void {
    this.loadingSteps ??= (async () => {
      const [{ startAttempt, needsNetwork }, registry] = await Promise.all([
        import('./attempt.js'),
        this.opts.registry ?? import('./index.js').then(({ defaultRegistry }) => defaultRegistry()),
      ]);
      this.steps = { startAttempt, needsNetwork, deps: { store: this.opts.store, clock: this.opts.clock, registry, settings: this.settings } };
    })();
    this.loadingSteps.then(
      () => this.kick(),
      (e: unknown) => {
        // Tried again with the next look (storeFailed schedules one), not answered from this failure.
        this.loadingSteps = undefined;
        this.storeFailed(e);
      },
    );
  }

  /** startAttempt, once Steps are loaded (a look loads them before it runs anything). */
  private attemptAt(job: JobRecord, known?: Known): ReturnType<Steps['startAttempt']> {
    const steps = this.steps!;
    return steps.startAttempt(steps.deps, job, known);
  }

  /** needsNetwork, where a throw counts as yes: the job is left to a look of its own, which fails it. */
  private hasNetworkWork(attempt: Attempt): boolean {
    try {
      return this.steps!.needsNetwork(attempt);
    } catch {
      return true;
    }
  }

  /** Runs or launches the jobs due now, in due order; how many it started. */
  private runDue(ids: readonly string[]): number {
    let started = 0;
    const ready: Attempt[] = [];
    for (const { job, ...known } of this.store.jobs.due(ids)) {
      const attempt = this.attempt(job, known);
      if (attempt === undefined) started++;
      else if (attempt.network) {
        const slot = this.slots.take(job.id, attempt.ctx.workflow.origin === 'external');
        if (slot) {
          this.launch(attempt, slot);
          started++;
        }
      } else {
        ready.push(attempt);
        started++;
      }
    }
    this.pace.runReady(
      this.store,
      ready,
      (a, alone) => this.runHere(a, alone),
      (a) => this.attempt(a.job),
    );
    return started;
  }

  /**
   * The attempt at the job, and whether it has network work first; undefined when it cannot run (it
   * is failed now, saying why).
   */
  private attempt(job: JobRecord, known?: Known): (Attempt & { network: boolean }) | undefined {
    const attempt = this.attemptAt(job, known);
    if (typeof attempt === 'string') {
      this.store.tx(() => recordOutcome(this.store, job, NOTHING_RECORDED, { status: 'failed', error: attempt }));
      return undefined;
    }
    try {
      return Object.assign(attempt, { network: this.steps!.needsNetwork(attempt) });
    } catch (e) {
      this.failed(job, e);
      return undefined;
    }
  }

  /**
   * Runs a job without network work (`alone`: in a transaction of its own); with chaining, then the
   * steps of its event that come due with it.
   */
  private runHere(first: Attempt, alone: boolean): void {
    const chain = this.pace.chain;
    let next = this.settle(first, undefined, alone, chain);
    let ctx: StepContext = first.ctx;
    while (next !== undefined) {
      const attempt = this.attemptAt(next, ctx);
      // A step that cannot run, or has network work, is queued for a look, as any job.
      if (typeof attempt === 'string' || this.hasNetworkWork(attempt)) {
        const queued = next;
        this.store.tx(() => queueJob(this.store, queued, this.opts.clock.now()));
        return;
      }
      attempt.queuedNow = true;
      ctx = attempt.ctx;
      next = this.settle(attempt, undefined, alone, chain);
    }
  }

  /**
   * The job's outcome from its handler's run. `alone`: in a transaction of its own, so that a handler
   * that throws rolls its writes back and fails the job alone; else a throw leaves to the caller.
   * `handOver`: the event's next step is returned still pending, to be run at once (chaining).
   */
  private settle(attempt: Attempt, prepared: unknown, alone = true, handOver = false): JobRecord | undefined {
    const { job, handler, ctx } = attempt;
    const outcome = () => recordOutcome(this.store, job, attempt, handler.run(ctx, prepared), handOver);
    if (!alone) return outcome();
    try {
      return this.store.tx(outcome);
    } catch (e) {
      this.failed(job, e, attempt.queuedNow);
      return undefined;
    }
  }

  private failed(job: JobRecord, e: unknown, queuedNow = false): void {
    this.opts.onError?.(e, job);
    this.store.tx(() => recordFailure(this.store, job, e, queuedNow));
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
   * Sleeps until the next job comes due, also while calls are in flight (a webhook must not hold back
   * a delay that comes due meanwhile). A job already due that waits for a slot needs no timer: the
   * next call to end frees one and looks again.
   */
  private sleepUntilDue(lookedAt: number): void {
    this.cancelSleep?.();
    this.cancelSleep = undefined;
    if (this.lookScheduled) return;
    const next = this.store.jobs.nextRunAt(lookedAt);
    if (next === undefined) return;
    this.cancelSleep = this.opts.clock.setTimer(() => this.kick(), Math.max(0, next - this.opts.clock.now()));
  }
}

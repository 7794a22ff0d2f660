// The job runner: runs due jobs through the step handler of their type, the outcomes of a batch of
// jobs in one savepoint (run again job by job when a handler throws), and sleeps on the Clock until
// the next delayed job is due. State lives only in the jobs table, so a restarted process picks up
// every job that had not finished (including ones that were running when it died, and delays and
// digests that came due while it was down).
import type { JsonObject } from '../../api/schemas/common.js';
import type { Integration } from '../../api/schemas/resources.js';
import type { TemplateScope } from '../engine/index.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { DetailInput, JobHint, JobRecord } from '../store/jobs.js';
import { workflowRuntime } from '../workflow/runtime.js';
import { queueJob } from './queue.js';
import { jobScope } from './scope.js';
import type { RestOutcome, RunnerSettings, StepContext, StepHandler, StepRegistry, StepResult } from './types.js';

export interface RunnerOptions {
  store: Store;
  clock: Clock;
  registry: StepRegistry;
  /** Asynchronous jobs (webhooks, HTTP steps) in flight at once. */
  concurrency?: number;
  /**
   * Synchronous jobs run per turn of the event loop, in one transaction. Larger batches commit less
   * often; smaller ones hold requests back for less time (about 0.1 ms per job).
   */
  batchSize?: number;
  settings?: Partial<RunnerSettings>;
  /** A handler threw (the job is failed) or the store failed (job undefined): for the log. */
  onError?: (error: unknown, job: JobRecord | undefined) => void;
}

export class JobRunner {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly batchSize: number;
  /** Workflows read during one pump (a batch holds many jobs of the same few workflows). */
  private workflowMemo: Map<string, ReturnType<Store['workflows']['findById']>> | undefined;
  /** What the one who started svc dev allowed (the routes read it too). */
  readonly settings: RunnerSettings;
  private readonly inflight = new Map<string, Promise<void>>();
  /** Jobs of code-first workflows in flight in slots of their own (EXTERNAL_SLOTS). */
  private externalInflight = 0;
  /** Due jobs that need the asynchronous path and found no free slot (see pumpBatch). */
  private readonly waitingForSlot = new Set<string>();
  private running = false;
  private scheduled = false;
  private cancelTimer: (() => void) | undefined;
  /** Set while runSync runs a job: where queueNext leaves the next job to run at once. */
  private inline: Inline | undefined;
  /** Set while an asynchronous job of a code-first workflow settles: where queueNext leaves its next one (see settleFinished). */
  private chain: Inline | undefined;
  /** Asynchronous jobs whose prepare ended, for the next settleFinished. */
  private readonly finished: Finished[] = [];
  private settleScheduled = false;
  /** Set while a settling batch waits for more answers (see finish). */
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The next look is only for freed slots (see kickForSlots). */
  private narrow = false;
  /** Set during a batch's whole pass: failures reported once it commits (see holdErrors). */
  private heldErrors: [unknown, JobRecord][] | undefined;

  constructor(private readonly opts: RunnerOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.concurrency = opts.concurrency ?? 16;
    this.batchSize = opts.batchSize ?? 64;
    this.settings = { allowRemoteWebhooks: false, allowRemoteBridge: false, ...opts.settings };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.store.tx(() => this.store.jobs.requeueRunning());
    this.kick();
  }

  /** New jobs may be due: look soon, after the current request has been answered. */
  kick(): void {
    this.narrow = false;
    if (!this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Stops taking jobs and waits for the ones in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    await Promise.allSettled([...this.inflight.values()]);
  }

  /**
   * Resolves once no job is running or due (delayed jobs in the future do not count), and the batch
   * the last jobs ran in has committed (a checkpoint or a reader of the file sees them).
   * `inflight: false`: jobs whose asynchronous part is still running do not count (a test holding
   * one back waits for everything else this way); a job due but waiting for a slot still does.
   */
  async idle(opts: { inflight?: boolean } = {}): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.store.batchOpen) {
        await new Promise<void>((r) => this.store.afterCommit(r));
        continue;
      }
      if (this.inflight.size > 0 && opts.inflight !== false) {
        await Promise.allSettled([...this.inflight.values()]);
        continue;
      }
      if (!this.scheduled && this.store.jobs.dueJobs(this.clock.now(), 1).length === 0) return;
      if (!this.running) return;
    }
  }

  private pump(): void {
    if (!this.running || !this.store.db.open) return;
    // Jobs are only taken from committed state: a job of a trigger whose batch is still open could
    // otherwise be delivered, the process die before the COMMIT, and the trigger never be acknowledged.
    // So the runner looks right after that batch commits (after the batch's replies and the other
    // after-commit work: a microtask), instead of waiting for a turn of the event loop without
    // requests, which under a steady load never came (the backlog grew while triggers arrived).
    if (this.store.batchOpen) return this.store.afterCommit(() => queueMicrotask(() => this.pump()));
    try {
      // The jobs' writes go into a new group-commit batch, which the requests of the next turn of
      // the event loop join: one COMMIT for both instead of one each (COMMIT writes every page the
      // batch changed to the WAL; runner and triggers change the same pages of the jobs table).
      const { committed } = this.store.grouped(() => this.pumpOnce());
      committed.catch((e: unknown) => this.storeFailed(e));
    } catch (e) {
      this.storeFailed(e);
    }
  }

  /**
   * The store itself failed (disk full, ...): the batch was rolled back and its jobs stay due. Try
   * again in a second rather than spin or take the server down.
   */
  private storeFailed(e: unknown): void {
    this.opts.onError?.(e, undefined);
    this.cancelTimer?.();
    this.cancelTimer = this.clock.setTimer(() => this.kick(), 1000);
  }

  private pumpOnce(): void {
    this.workflowMemo = new Map();
    try {
      this.pumpBatch();
    } finally {
      this.workflowMemo = undefined;
    }
  }

  /**
   * Slots were freed and nothing else asked for a look (see kickForSlots): the look reads as many due
   * rows as there are free slots, not the 24 more that let synchronous jobs through (a trigger, a
   * timer or a synchronous batch asks for those).
   */
  private kickForSlots(): void {
    const scheduled = this.scheduled;
    this.kick();
    if (!scheduled && this.scheduled) this.narrow = true;
  }

  private pumpBatch(): void {
    let free = this.concurrency - (this.inflight.size - this.externalInflight);
    let freeExternal = EXTERNAL_SLOTS - this.externalInflight;
    const narrow = this.narrow;
    this.narrow = false;
    {
      // While asynchronous jobs wait for slots, each finishing job starts about one more: reading a
      // whole batch of due rows for it cost more than the job. 24 rows past the free slots still let
      // synchronous jobs behind a queue of waiting ones through (they are not prepared again); a look
      // only for freed slots skips them (they were read when the jobs ahead of them came due).
      const slots = Math.max(free, 0) + Math.max(freeExternal, 0);
      const want = this.waitingForSlot.size > 0 ? Math.min(this.batchSize, slots + (narrow ? 0 : 24)) : this.batchSize;
      // Jobs in flight are `running` in the table (launch writes it before their call), so not among
      // due rows: a row more per job in flight, read on every look, was for nothing (the filter is
      // for a job whose `running` write failed).
      const due = this.store.jobs.dueWithHints(this.clock.now(), want).filter((d) => !this.inflight.has(d.job.id));
      let waited = false;
      const sync: Prepared[] = [];
      for (const { job, hint } of due.slice(0, this.batchSize)) {
        // A job already found to need the asynchronous path waits for a slot without its context
        // being built again on every look (each job in flight that finishes looks).
        if (free <= 0 && freeExternal <= 0 && this.waitingForSlot.has(job.id)) {
          waited = true;
          continue;
        }
        const prepared = this.prepare(job, undefined, hint);
        if (prepared.async) {
          // A code-first workflow's job takes one of its own slots while there is one, else a shared one.
          const external = freeExternal > 0 && prepared.built?.ctx.workflow.origin === 'external';
          // No slot left: it stays due, and the first job in flight to finish looks again.
          if (!external && free <= 0) {
            waited = true;
            if (this.waitingForSlot.size < 10_000) this.waitingForSlot.add(job.id);
            continue;
          }
          this.waitingForSlot.delete(job.id);
          if (external) {
            freeExternal--;
            this.externalInflight++;
          } else free--;
          this.launch(prepared, external);
        } else {
          sync.push(prepared);
        }
      }
      // No job was left waiting for a slot: the backlog is gone (and ids of jobs settled otherwise with
      // it); a narrow look that filled its slots knows nothing of the rows past them.
      if (!waited && !(narrow && due.length >= want)) this.waitingForSlot.clear();
      // A narrow look whose rows were taken by jobs waiting for another kind of slot: a whole look next.
      if (narrow && waited) this.kick();
      // Jobs whose handler is synchronous run together in one transaction: one commit for the batch
      // instead of one per job is what keeps a file store fast.
      if (sync.length > 0) {
        this.runBatch(sync);
        this.kick();
      }
    }
    // Sleep until the next due job, also while asynchronous jobs are in flight (a webhook step must
    // not hold back a delay that comes due meanwhile). With every slot taken, the first job to finish
    // looks again, so no timer is needed (and one for an already-due job would spin).
    if (!this.scheduled && this.inflight.size - this.externalInflight < this.concurrency) this.armTimer();
  }

  /**
   * The job's context and handler, and whether it goes through the asynchronous path. `same`: the
   * context of a job of the same event just run, whose event, subscriber and workflow it shares.
   */
  private prepare(job: JobRecord, same?: StepContext, hint?: JobHint): Prepared {
    const built = this.context(job, same, hint);
    if (typeof built === 'string') return { job, built: undefined, error: built, async: false };
    const handler = this.opts.registry.forJob(job.type, built.ctx.workflow.origin);
    if (!handler) return { job, built, error: `No handler for step type ${job.type}`, async: false };
    let async = false;
    try {
      async = handler.prepare !== undefined && (handler.needsPrepare ? handler.needsPrepare(built.ctx) : true);
    } catch (e) {
      return { job, built, handler, thrown: e, async: false };
    }
    return { job, built, handler, async };
  }

  /**
   * Runs the batch in one savepoint, with no savepoint per job: a job's savepoint copied every page
   * it changed (the tails of the messages' and jobs' indexes) into the savepoint journal, ~8% of a
   * trigger's CPU. A handler that throws is rare: then the whole batch rolls back, and runs again
   * from a fresh context, each job in its own savepoint, so that the job that threw fails alone.
   */
  private runBatch(sync: Prepared[]): void {
    const errors = this.holdErrors(() =>
      this.store.tx(() => {
        for (const p of sync) this.runSync(p, false);
      }),
    );
    if (errors === undefined) {
      const again = sync.map((p) => this.prepare(p.job));
      this.store.tx(() => {
        for (const p of again) this.runSync(p, true);
      });
    } else this.report(errors);
  }

  /**
   * Runs a whole batch's pass, the errors its failing jobs report held back: the list of them when it
   * went through, undefined when it threw (its writes rolled back, and the batch runs again job by job,
   * which reports each failure itself: reported now as well, each would be logged twice).
   */
  private holdErrors(fn: () => void): [unknown, JobRecord][] | undefined {
    const held: [unknown, JobRecord][] = [];
    this.heldErrors = held;
    try {
      fn();
      return held;
    } catch {
      return undefined;
    } finally {
      this.heldErrors = undefined;
    }
  }

  private report(errors: [unknown, JobRecord][]): void {
    for (const [e, job] of errors) this.opts.onError?.(e, job);
  }

  /** `alone`: each job in its own savepoint (a throw fails that job); else a throw leaves the batch. */
  private runSync(first: Prepared, alone: boolean): void {
    let p: Prepared | undefined = first;
    // A step that ends with the next one due at once (the usual case: in-app, then email) runs that
    // one now, in the same batch and with the same event, subscriber and workflow, instead of queueing
    // it for the next turn (which read it back, built its context again and wrote it twice). Its
    // timeline is the same: "Step queued", then its run's details, at this instant.
    while (p !== undefined) {
      const inline: Inline = { next: undefined };
      this.inline = inline;
      try {
        this.runOne(p, alone);
      } finally {
        // Also when the store failed under it: a job settled later (an asynchronous one) must queue
        // its next step, not leave it here.
        this.inline = undefined;
      }
      p = inline.next;
    }
  }

  private runOne(p: Prepared, alone: boolean): void {
    const { job, built, handler } = p;
    if (!built || !handler || p.error !== undefined) {
      return this.settle(job, built, { status: 'failed', error: p.error ?? 'The job cannot run' });
    }
    if (p.thrown !== undefined) return this.fail(job, built, p.thrown);
    if (!alone) return this.settle(job, built, handler.run(built.ctx, undefined));
    try {
      this.store.tx(() => this.settle(job, built, handler.run(built.ctx, undefined)));
    } catch (e) {
      this.fail(job, built, e);
    }
  }

  /** The handler threw: its writes were rolled back, and so are the details and output it had set. */
  private fail(job: JobRecord, built: Built, e: unknown): void {
    if (this.heldErrors) this.heldErrors.push([e, job]);
    else this.opts.onError?.(e, job);
    if (this.inline) this.inline.next = undefined;
    if (this.chain) this.chain.next = undefined;
    built.details.length = 0;
    built.output = undefined;
    built.state = undefined;
    this.settle(job, built, { status: 'failed', error: `Step failed: ${(e as Error)?.message ?? String(e)}` });
  }

  /** Sleep until the earliest queued or delayed job is due. */
  private armTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const next = this.store.jobs.nextRunAt();
    if (next === undefined) return;
    this.cancelTimer = this.clock.setTimer(() => this.kick(), next - this.clock.now());
  }

  /**
   * A job whose handler has an asynchronous prepare phase (network calls outside any transaction)
   * takes a slot, which the jobs of its event that follow it keep (see settleFinished). Called inside
   * the pump's transaction: the job is written `running` in it, with no transaction of its own. A job
   * whose write is lost with its batch is run again (a running job is requeued at start).
   */
  private launch(p: Prepared, external: boolean): void {
    const id = p.job.id;
    let done!: () => void;
    this.inflight.set(id, new Promise<void>((r) => (done = r)));
    const slot: Slot = {
      release: () => {
        this.inflight.delete(id);
        if (external) this.externalInflight--;
        done();
      },
    };
    try {
      this.markRunning(p.job, false);
    } catch (e) {
      return this.finish({ p, slot, value: undefined, thrown: e });
    }
    this.call(p, slot);
  }

  /**
   * The job's `running` status and the detail that says so, written in the transaction open now.
   * `queued`: the job was queued at this instant too (a next step run at once), as queueJob records it.
   */
  private markRunning(job: JobRecord, queued: boolean): void {
    if (queued) this.store.jobs.settleJob(job, { status: 'running', runAt: this.clock.now() }, [QUEUED, RUNNING]);
    else this.store.jobs.settleJob(job, { status: 'running' }, [RUNNING]);
  }

  /** The prepare phase; its end (or failure) waits for the next settling batch. */
  private call(p: Prepared, slot: Slot): void {
    let pending: Promise<unknown>;
    try {
      // (A native promise is itself; a handler answering a plain value works as with `await`.)
      pending = Promise.resolve(p.handler!.prepare!(p.built!.ctx));
    } catch (e) {
      return this.finish({ p, slot, value: undefined, thrown: e });
    }
    pending.then(
      (value) => this.finish({ p, slot, value, thrown: undefined }),
      (e: unknown) => this.finish({ p, slot, value: undefined, thrown: e ?? new Error('prepare failed') }),
    );
  }

  /**
   * Queues a finished job for the next settling batch. With many calls in flight the batch waits for
   * SETTLE_BATCH answers or SETTLE_WAIT_MS, whichever comes first, rather than settling the one or two
   * read in each turn of the event loop: every COMMIT writes again the last page of each of the
   * messages' indexes and the pages of the jobs and events it touched, so settling a few jobs per
   * COMMIT wrote ~8 WAL pages per notification, and a few dozen per COMMIT ~5. The app meanwhile works on
   * the other calls in flight (EXTERNAL_SLOTS leaves it enough); with few in flight (a test, a quiet
   * service) nothing waits.
   */
  private finish(f: Finished): void {
    this.finished.push(f);
    if (this.settleScheduled) {
      if (this.settleTimer !== undefined && this.finished.length >= SETTLE_BATCH) {
        clearTimeout(this.settleTimer);
        this.settleTimer = undefined;
        setImmediate(this.settleNow);
      }
      return;
    }
    this.settleScheduled = true;
    if (this.inflight.size >= SETTLE_BATCH && this.finished.length < SETTLE_BATCH) this.settleTimer = setTimeout(this.settleNow, SETTLE_WAIT_MS);
    else setImmediate(this.settleNow);
  }

  private readonly settleNow = (): void => {
    this.settleTimer = undefined;
    this.settleScheduled = false;
    this.settleFinished();
  };

  /**
   * Settles every asynchronous job whose prepare ended since the last look (the answers read in one
   * turn of the event loop) in one savepoint of the group-commit batch, as runBatch does for
   * synchronous jobs: one savepoint, one look for due jobs and one wake-up for all of them instead of
   * one each. A handler that throws rolls the savepoint back, and the jobs are settled again each in
   * a savepoint of its own, so that the one that threw fails alone. The next step of a code-first
   * workflow's event is another call to the app: it is written `running` with the step that came
   * before (in its transaction) and called at once, in the same slot and with the same context,
   * instead of being queued for a later pump to read back.
   */
  private settleFinished(): void {
    const batch = this.finished.splice(0);
    if (batch.length === 0) return;
    if (!this.store.db.open) {
      for (const f of batch) f.slot.release();
      return;
    }
    const chains: (Prepared | undefined)[] = [];
    const pass = (alone: boolean) => {
      chains.length = 0;
      for (const f of batch) chains.push(this.settleOne(f, alone));
    };
    try {
      // A job alone is settled in its own savepoint at once: a throw then is not run twice. A batch
      // rolled back runs again job by job from what each job's prepare left (its details, provider).
      const before = batch.length === 1 ? undefined : batch.map((f) => snapshotRun(f.p.built!));
      const errors = before === undefined ? undefined : this.holdErrors(() => this.grouped(() => pass(false)));
      if (errors === undefined) {
        if (before) batch.forEach((f, i) => restoreRun(f.p.built!, before[i]!));
        this.grouped(() => pass(true));
      } else this.report(errors);
    } catch (e) {
      // The store itself failed: the jobs stay `running`, and are run again at the next start.
      for (const f of batch) f.slot.release();
      this.storeFailed(e);
      return;
    }
    // A job whose event goes on in its slot (chained) neither frees a slot nor queues a job: when all
    // of them did, there is nothing new for the pump to look at.
    let look = false;
    batch.forEach((f, i) => {
      const next = chains[i];
      if (next) this.call(next, f.slot);
      else {
        f.slot.release();
        look = true;
      }
    });
    if (look) this.kickForSlots();
  }

  /** One finished job's outcome; its event's next step when it runs at once in the same slot. */
  private settleOne(f: Finished, alone: boolean): Prepared | undefined {
    const { job } = f.p;
    const built = f.p.built!;
    const handler = f.p.handler!;
    if (f.thrown !== undefined) {
      this.fail(job, built, f.thrown);
      return undefined;
    }
    const chain: Inline = { next: undefined };
    this.chain = built.ctx.workflow.origin === 'external' ? chain : undefined;
    try {
      if (!alone) this.settle(job, built, handler.run(built.ctx, f.value));
      else {
        try {
          this.store.tx(() => this.settle(job, built, handler.run(built.ctx, f.value)));
        } catch (e) {
          this.fail(job, built, e);
        }
      }
    } finally {
      this.chain = undefined;
    }
    return chain.next;
  }

  private grouped(fn: () => void): void {
    this.store.grouped(fn).committed.catch((e: unknown) => this.storeFailed(e));
  }

  private settle(job: JobRecord, built: Built | undefined, result: StepResult): void {
    const jobs = this.store.jobs;
    // The step's details are written with the job's new status, in one row update.
    const details = [...(built?.queued ? [QUEUED] : []), ...(built?.details ?? [])];
    let state: JsonObject | undefined = built?.state;
    if (built?.output !== undefined) state = { ...(state ?? job.state), output: built.output };
    // A job run at once when queued (runSync) was queued now, as queueJob records it.
    const common = { providerId: built?.providerId, state, runAt: built?.queued ? this.clock.now() : undefined };
    switch (result.status) {
      case 'completed':
      case 'skipped':
        jobs.settleJob(job, { status: result.status, ...common }, details);
        if (result.status === 'completed' && result.rest) this.endRest(job, result.rest);
        else this.queueNext(job, built);
        break;
      case 'failed': {
        details.push({
          status: 'Failed',
          detail: result.error,
          source: result.source ?? 'Internal',
          providerId: built?.providerId,
          raw: result.raw,
        });
        jobs.settleJob(job, { status: 'failed', ...common }, details);
        const stop = result.stop === true || (job.step as { shouldStopOnFail?: boolean }).shouldStopOnFail === true;
        if (stop)
          this.endRest(
            job,
            result.rest ?? { status: 'canceled', detail: `Step canceled: step '${job.step.stepId}' failed, and its failure stops the workflow` },
          );
        else this.queueNext(job, built);
        break;
      }
      case 'delayed':
        jobs.settleJob(job, { status: 'delayed', ...common, runAt: result.until }, details);
        break;
      case 'merged':
      case 'canceled':
        jobs.settleJob(job, { status: result.status, ...common }, details);
        this.endRest(job, result.rest ?? { status: result.status, detail: `Step ${result.status}: step '${job.step.stepId}' ended this event's run` });
        break;
    }
    // The event changed when one of its jobs did (not when a message is read: that is the job's).
    this.store.activity.touchNotification(job.notificationId);
  }

  private queueNext(job: JobRecord, built: Built | undefined): void {
    // Jobs are only created by the trigger, all at once: its last one has no next to look for.
    if (built?.last) return;
    const next = this.store.jobs.nextPending(job);
    if (!next) return;
    if (this.inline && built) {
      const prepared = this.prepare(next, built.ctx);
      if (!prepared.async && prepared.built) {
        prepared.built.queued = true;
        this.inline.next = prepared;
        return;
      }
    }
    if (this.chain && built && this.running) {
      const prepared = this.prepare(next, built.ctx);
      if (prepared.async && prepared.built) {
        // Queued and running at this instant, in one write with the step before.
        this.markRunning(next, true);
        this.chain.next = prepared;
        return;
      }
    }
    queueJob(this.store, next, this.clock.now());
  }

  private endRest(job: JobRecord, rest: RestOutcome): void {
    for (const j of this.store.jobs.pendingAfter(job.notificationId, job.stepIndex)) {
      this.store.jobs.settleJob(j, { status: rest.status }, [{ status: 'Warning', detail: rest.detail, source: 'Internal' }]);
    }
  }

  /** Everything a handler may need, or why the job cannot run. */
  private context(job: JobRecord, same?: StepContext, hint?: JobHint): Built | string {
    const { store, clock } = this;
    const notification = same?.notification ?? hint?.notification ?? store.activity.notificationById(job.notificationId);
    const subscriber =
      same?.subscriber ??
      (hint !== undefined && hint.subscriberWrites === store.subscribers.writes ? hint.subscriber : store.subscribers.findById(job.subscriberId));
    const memo = this.workflowMemo;
    let workflow = same?.workflow ?? memo?.get(job.workflowId);
    if (workflow === undefined) {
      workflow = store.workflows.findById(job.workflowId);
      memo?.set(job.workflowId, workflow);
    }
    const environment = same?.environment ?? store.environments.findById(job.envId);
    if (!notification || !subscriber || !workflow || !environment) return 'The event, subscriber or workflow of this job no longer exists';
    const runtime = workflowRuntime(workflow);
    const step = runtime.steps[job.stepIndex];
    if (!step || step.type !== job.type) return `The workflow no longer has this ${job.type} step at position ${job.stepIndex + 1}`;
    const built: Built = {
      details: [],
      providerId: undefined,
      state: undefined,
      output: undefined,
      queued: false,
      last: hint?.last === true && hint.job === job,
      ctx: undefined as unknown as StepContext,
    };
    let scope: Required<TemplateScope> | undefined;
    let integrations: readonly Integration[] | undefined;
    const memos = new Map<string, unknown>();
    built.ctx = {
      job,
      notification,
      subscriber,
      workflow,
      runtime,
      step,
      environment,
      store,
      clock,
      settings: this.settings,
      scope: () => (scope ??= jobScope(store, notification, subscriber, job, step.readsSteps)),
      integrations: () => (integrations ??= store.integrations.ofEnvironment(environment.id)),
      memo: <T>(key: string, fn: () => T): T => {
        if (!memos.has(key)) memos.set(key, fn());
        return memos.get(key) as T;
      },
      detail: (d) => built.details.push(d),
      setState: (s) => (built.state = s),
      setOutput: (o) => (built.output = o),
      setProviderId: (p) => (built.providerId = p),
    };
    return built;
  }
}

interface Built {
  ctx: StepContext;
  details: DetailInput[];
  providerId: string | undefined;
  state: JsonObject | undefined;
  output: JsonObject | undefined;
  /** Run at once when its step came up (runSync): its timeline starts with "Step queued". */
  queued: boolean;
  /** Its trigger created no later job for its event (from the job's hint). */
  last: boolean;
}

/** The next job of the event run by runSync, once the one running has settled (see queueNext). */
interface Inline {
  next: Prepared | undefined;
}

/**
 * Slots of code-first workflows' jobs, besides the shared ones: each of their steps is a call to the
 * team's app, and with few calls in flight svc dev and the app mostly wait on each other (each paying
 * a wake-up per call); with some 50 in flight both work in batches, at about half the CPU per step.
 * 96: while svc dev holds up to SETTLE_BATCH answers back to settle them together, the app still has
 * some 60 calls to work on.
 */
const EXTERNAL_SLOTS = 96;

/** Answers settled together once this many are in (see finish), and a wait only with this many in flight. */
const SETTLE_BATCH = 32;
/** The longest an answer waits for others to be settled with (see finish). */
const SETTLE_WAIT_MS = 4;

/** What queueJob records (queue.ts), for a job run at once instead. */
const QUEUED: DetailInput = { status: 'Pending', detail: 'Step queued', source: 'Internal' };
/** An asynchronous job's call begins. */
const RUNNING: DetailInput = { status: 'Pending', detail: 'Step running', source: 'Internal' };

/** A slot of the asynchronous path, held by a job and then by the next steps of its event (chain). */
interface Slot {
  release(): void;
}

/** An asynchronous job whose prepare ended: its result, or what it threw. */
interface Finished {
  p: Prepared;
  slot: Slot;
  value: unknown;
  thrown: unknown;
}

/** What a job's run may change in its context, taken before a run that may be rolled back. */
type RunSnapshot = Pick<Built, 'output' | 'state' | 'providerId'> & { details: Built['details'] };

function snapshotRun(built: Built): RunSnapshot {
  return { details: [...built.details], output: built.output, state: built.state, providerId: built.providerId };
}

/** A run rolled back with its batch runs again from what its prepare left, without what the run set. */
function restoreRun(built: Built, snap: RunSnapshot): void {
  built.details.length = 0;
  built.details.push(...snap.details);
  built.output = snap.output;
  built.state = snap.state;
  built.providerId = snap.providerId;
}

interface Prepared {
  job: JobRecord;
  built: Built | undefined;
  handler?: StepHandler;
  /** The job cannot run: it fails with this. */
  error?: string;
  /** needsPrepare threw: the job fails as if run had. */
  thrown?: unknown;
  async: boolean;
}

// The job runner: runs due jobs through the step handler of their type, one transaction per job
// outcome, and sleeps on the Clock until the next delayed job is due. State lives only in the jobs
// table, so a restarted process picks up every job that had not finished (including ones that were
// running when it died).
import type { JsonObject } from '../../api/schemas/common.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { NotificationRecord } from '../store/activity.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { queueJob } from './queue.js';
import type { ControlRenderer, RunnerSettings, StepContext, StepRegistry, StepResult, TemplateVariables } from './types.js';

export interface RunnerOptions {
  store: Store;
  clock: Clock;
  registry: StepRegistry;
  render?: ControlRenderer;
  /** Jobs handled at once; sync handlers finish in one go, async ones overlap up to this many. */
  concurrency?: number;
  settings?: Partial<RunnerSettings>;
  /** A handler threw (the job is failed) or the store failed (job undefined): for the log. */
  onError?: (error: unknown, job: JobRecord | undefined) => void;
}

export class JobRunner {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly settings: RunnerSettings;
  private readonly inflight = new Map<string, Promise<void>>();
  private running = false;
  private scheduled = false;
  private cancelTimer: (() => void) | undefined;

  constructor(private readonly opts: RunnerOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.concurrency = opts.concurrency ?? 16;
    this.settings = { allowRemoteWebhooks: false, ...opts.settings };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.store.jobs.requeueRunning();
    this.kick();
  }

  /** New jobs may be due: look soon, after the current request has been answered. */
  kick(): void {
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

  /** Resolves once no job is running or due (delayed jobs in the future do not count). */
  async idle(): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.inflight.size > 0) {
        await Promise.allSettled([...this.inflight.values()]);
        continue;
      }
      if (!this.scheduled && this.store.jobs.dueJobs(this.clock.now(), 1).length === 0) return;
      if (!this.running) return;
    }
  }

  private pump(): void {
    if (!this.running || !this.store.db.open) return;
    try {
      this.pumpOnce();
    } catch (e) {
      // The store itself failed (disk full, ...): the batch was rolled back and stays due. Try again
      // in a second rather than spin or take the server down.
      this.opts.onError?.(e, undefined);
      this.cancelTimer?.();
      this.cancelTimer = this.clock.setTimer(() => this.kick(), 1000);
    }
  }

  private pumpOnce(): void {
    const free = this.concurrency - this.inflight.size;
    if (free > 0) {
      const due = this.store.jobs.dueJobs(this.clock.now(), free + this.inflight.size).filter((j) => !this.inflight.has(j.id));
      const batch = due.slice(0, free);
      // Jobs whose handler is synchronous run together in one transaction (each in its own
      // savepoint): one commit for the batch instead of one per job is what keeps a file store fast.
      const sync = batch.filter((j) => !this.opts.registry.get(j.type)?.prepare);
      if (sync.length > 0) {
        this.store.tx(() => {
          for (const job of sync) this.runSync(job);
        });
        this.kick();
      }
      for (const job of batch) {
        if (sync.includes(job)) continue;
        const p = this.process(job).finally(() => {
          this.inflight.delete(job.id);
          this.kick();
        });
        this.inflight.set(job.id, p);
      }
    }
    if (this.inflight.size === 0 && !this.scheduled) this.armTimer();
  }

  private runSync(job: JobRecord): void {
    const ctx = this.context(job);
    if (typeof ctx === 'string') return this.settle(job, undefined, { status: 'failed', error: ctx });
    const handler = this.opts.registry.get(job.type);
    try {
      this.store.tx(() => {
        const result: StepResult = handler ? handler.run(ctx.ctx, undefined) : { status: 'failed', error: `No handler for step type ${job.type}` };
        this.settle(job, ctx, result);
      });
    } catch (e) {
      this.fail(job, ctx, e);
    }
  }

  /** The handler threw: its writes were rolled back, and so are the details it had added. */
  private fail(job: JobRecord, ctx: Built, e: unknown): void {
    this.opts.onError?.(e, job);
    ctx.details.length = 0;
    this.settle(job, ctx, { status: 'failed', error: `Step failed: ${(e as Error)?.message ?? String(e)}` });
  }

  /** Sleep until the earliest queued or delayed job is due. */
  private armTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const next = this.store.jobs.nextRunAt();
    if (next === undefined) return;
    this.cancelTimer = this.clock.setTimer(() => this.kick(), next - this.clock.now());
  }

  /** A job whose handler has an asynchronous prepare phase. */
  private async process(job: JobRecord): Promise<void> {
    const ctx = this.context(job);
    if (typeof ctx === 'string') {
      this.store.tx(() => this.settle(job, undefined, { status: 'failed', error: ctx }));
      return;
    }
    const handler = this.opts.registry.get(job.type)!;
    let prepared: unknown;
    try {
      this.store.jobs.updateJob(job.id, { status: 'running' });
      prepared = await handler.prepare!(ctx.ctx);
    } catch (e) {
      if (this.store.db.open) this.store.tx(() => this.fail(job, ctx, e));
      return;
    }
    if (!this.store.db.open) return;
    this.store.tx(() => {
      try {
        this.store.tx(() => this.settle(job, ctx, handler.run(ctx.ctx, prepared)));
      } catch (e) {
        this.fail(job, ctx, e);
      }
    });
  }

  private settle(job: JobRecord, ctx: Built | undefined, result: StepResult): void {
    const jobs = this.store.jobs;
    for (const d of ctx?.details ?? []) jobs.addDetail(job, d);
    const common = { providerId: ctx?.providerId, state: ctx?.state };
    switch (result.status) {
      case 'completed':
      case 'skipped':
        jobs.updateJob(job.id, { status: result.status, ...common });
        this.queueNext(job);
        break;
      case 'failed': {
        jobs.addDetail(job, { status: 'Failed', detail: result.error, source: 'Internal', providerId: ctx?.providerId });
        jobs.updateJob(job.id, { status: 'failed', ...common });
        const stop = (job.step as { shouldStopOnFail?: boolean }).shouldStopOnFail === true;
        if (stop) this.endRest(job, 'canceled');
        else this.queueNext(job);
        break;
      }
      case 'delayed':
        jobs.updateJob(job.id, { status: 'delayed', runAt: result.until, ...common });
        break;
      case 'merged':
      case 'canceled':
        jobs.updateJob(job.id, { status: result.status, ...common });
        this.endRest(job, result.status);
        break;
    }
    this.store.activity.touchNotification(job.notificationId);
  }

  private queueNext(job: JobRecord): void {
    const next = this.store.jobs.pendingAfter(job.notificationId, job.stepIndex)[0];
    if (next) queueJob(this.store, next, this.clock.now());
  }

  private endRest(job: JobRecord, status: 'canceled' | 'merged'): void {
    for (const j of this.store.jobs.pendingAfter(job.notificationId, job.stepIndex)) {
      this.store.jobs.updateJob(j.id, { status });
    }
  }

  /** Everything a handler may need, or why the job cannot run. */
  private context(job: JobRecord): Built | string {
    const { store, clock } = this;
    const notification = store.activity.notificationById(job.notificationId);
    const subscriber = store.subscribers.findById(job.subscriberId);
    const workflow = store.workflows.findById(job.workflowId);
    const environment = store.environments.findById(job.envId);
    if (!notification || !subscriber || !workflow || !environment) return 'The event, subscriber or workflow of this job no longer exists';
    const built: Built = { details: [], providerId: undefined, state: undefined, ctx: undefined as unknown as StepContext };
    let vars: TemplateVariables | undefined;
    const variables = (): TemplateVariables => (vars ??= templateVariables(store, notification, subscriber, workflow));
    const render = this.opts.render;
    built.ctx = {
      job,
      notification,
      subscriber,
      workflow,
      environment,
      store,
      clock,
      settings: this.settings,
      variables,
      controls: () => (render ? render(job.step.controlValues, variables(), job.step) : job.step.controlValues),
      detail: (d) => built.details.push(d),
      setState: (s) => (built.state = s),
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
}

function templateVariables(store: Store, n: NotificationRecord, subscriber: Subscriber, wf: StoredWorkflow): TemplateVariables {
  const context: TemplateVariables['context'] = {};
  for (const key of n.doc.contextKeys) {
    const i = key.indexOf(':');
    const type = key.slice(0, i);
    const id = key.slice(i + 1);
    context[type] = { id, data: store.contexts.find(n.envId, type, id)?.data ?? {} };
  }
  return {
    subscriber,
    payload: n.doc.payload,
    context,
    workflow: { workflowId: wf.workflowId, name: wf.name, tags: wf.tags, severity: wf.severity },
    steps: {},
  };
}

// One attempt at running a job: everything its handler may need (the StepContext: event, subscriber,
// workflow, step, environment, Liquid scope) and what the handler records for the outcome (timeline
// details, provider, state, output), which the runner writes with the job's new status.
import type { JsonObject } from '../../api/schemas/common.js';
import type { Integration } from '../../api/schemas/resources.js';
import type { Clock } from '../clock.js';
import type { TemplateScope } from '../engine/index.js';
import type { Store } from '../store/index.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import { workflowRuntime } from '../workflow/runtime.js';
import { jobScope } from './scope.js';
import type { RunnerSettings, StepContext, StepHandler, StepRegistry } from './types.js';

export interface Attempt {
  job: JobRecord;
  ctx: StepContext;
  handler: StepHandler;
  /** Details the handler recorded, written with the outcome. */
  details: DetailInput[];
  providerId: string | undefined;
  state: JsonObject | undefined;
  output: JsonObject | undefined;
  /** Handed over still pending by the step before it (chaining): queued in the write of its outcome. */
  queuedNow: boolean;
}

export interface AttemptDeps {
  store: Store;
  clock: Clock;
  registry: StepRegistry;
  settings: RunnerSettings;
}

/** What the caller already has of a job's context: read with the job, or the context of the step before it. */
export type Known = Partial<Pick<StepContext, 'notification' | 'subscriber' | 'workflow' | 'environment'>>;

/**
 * The attempt at `job`, or why it cannot run (its event, subscriber or workflow is gone, the workflow
 * no longer has its step, no handler). `known`: its event, subscriber, workflow or environment when
 * the caller has them (read with the job, or shared with the job of the same event just run).
 */
export function startAttempt(deps: AttemptDeps, job: JobRecord, known: Known = {}): Attempt | string {
  const { store, clock } = deps;
  const notification = known.notification ?? store.activity.notificationById(job.notificationId);
  const subscriber = known.subscriber ?? store.subscribers.findById(job.subscriberId);
  const workflow = known.workflow ?? store.workflows.findById(job.workflowId);
  const environment = known.environment ?? store.environments.findById(job.envId);
  if (!notification || !subscriber || !workflow || !environment) return 'The event, subscriber or workflow of this job no longer exists';
  const runtime = workflowRuntime(workflow);
  const step = runtime.steps[job.stepIndex];
  if (!step || step.type !== job.type) return `The workflow no longer has this ${job.type} step at position ${job.stepIndex + 1}`;
  const handler = deps.registry.forJob(job.type, workflow.origin);
  if (!handler) return `No handler for step type ${job.type}`;
  const attempt: Attempt = { job, handler, details: [], providerId: undefined, state: undefined, output: undefined, queuedNow: false, ctx: undefined as never };
  let scope: Required<TemplateScope> | undefined;
  let integrations: readonly Integration[] | undefined;
  const memos = new Map<string, unknown>();
  attempt.ctx = {
    job,
    notification,
    subscriber,
    workflow,
    runtime,
    step,
    environment,
    store,
    clock,
    settings: deps.settings,
    scope: () => (scope ??= jobScope(store, notification, subscriber, job, step.readsSteps)),
    integrations: () => (integrations ??= store.integrations.ofEnvironment(environment.id)),
    memo: <T>(key: string, fn: () => T): T => {
      if (!memos.has(key)) memos.set(key, fn());
      return memos.get(key) as T;
    },
    detail: (d) => attempt.details.push(d),
    setState: (s) => (attempt.state = s),
    setOutput: (o) => (attempt.output = o),
    setProviderId: (p) => (attempt.providerId = p),
  };
  return attempt;
}

/** Whether the attempt has network work to do first (its handler's prepare), outside any transaction. */
export function needsNetwork(attempt: Attempt): boolean {
  const { handler, ctx } = attempt;
  return handler.prepare !== undefined && (handler.needsPrepare ? handler.needsPrepare(ctx) : true);
}

// The contract between the job runner and the step handlers. The runner owns scheduling, persistence
// and crash recovery; a handler owns what one step type does. The workflow engine's handlers (channels,
// flow control, http_request) read the step through `ctx.step` and the Liquid scope through `ctx.scope()`.
import type { JsonObject } from '../../api/schemas/common.js';
import type { ExecutionDetailSource, StepType } from '../../api/schemas/enums.js';
import type { Integration, Subscriber } from '../../api/schemas/resources.js';
import type { TemplateScope } from '../engine/index.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { NotificationRecord } from '../store/activity.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import type { Environment } from '../store/environments.js';
import type { StoredWorkflow } from '../store/workflows.js';
import type { StepRuntime, WorkflowRuntime } from '../workflow/runtime.js';

export interface StepContext {
  readonly job: JobRecord;
  readonly notification: NotificationRecord;
  readonly subscriber: Subscriber;
  readonly workflow: StoredWorkflow;
  /** The engine's view of the workflow (definition, per-step controls and issues), cached per version. */
  readonly runtime: WorkflowRuntime;
  /** This job's step: controls with defaults, filters, control issues. */
  readonly step: StepRuntime;
  readonly environment: Environment;
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: RunnerSettings;
  /** `{subscriber, payload, actor, tenant, context, steps, env}`, built on first use. */
  scope(): Required<TemplateScope>;
  /** The environment's integrations (active or not). */
  integrations(): readonly Integration[];
  /** Computes once per job attempt: lets needsPrepare, prepare and run share a plan. */
  memo<T>(key: string, fn: () => T): T;
  /** Adds an execution detail; it is written with the job's outcome, in the same transaction. */
  detail(d: DetailInput): void;
  /** State kept on the job between runs (a delayed job is run again with it). */
  setState(state: JsonObject): void;
  /** What later steps read as `steps.<stepId>`; written with the job's outcome. */
  setOutput(output: JsonObject): void;
  /** The provider the job delivered through, shown on the job. */
  setProviderId(providerId: string): void;
}

/** What happens to the notification's remaining (pending) steps when a step ends without them. */
export interface RestOutcome {
  status: 'skipped' | 'canceled' | 'merged';
  /** Execution detail written on each of them, saying why. */
  detail: string;
}

export type StepResult =
  | { status: 'completed'; rest?: RestOutcome }
  | { status: 'skipped' }
  /**
   * `error` becomes a Failed execution detail. The workflow goes on with its next step unless `stop`
   * (or the step's `shouldStopOnFail`): then the remaining steps are canceled, each with `rest`'s
   * detail when given.
   */
  | { status: 'failed'; error: string; stop?: boolean; source?: ExecutionDetailSource; raw?: string; rest?: RestOutcome }
  /** Run the handler again at `until` (service time), e.g. a delay that has not elapsed. */
  | { status: 'delayed'; until: number }
  /** Ends this notification's run here; its remaining steps take the same status. */
  | { status: 'merged'; rest?: RestOutcome }
  | { status: 'canceled'; rest?: RestOutcome };

export interface StepHandler {
  /**
   * Whether this job needs the asynchronous `prepare` (default: whenever the handler has one). A
   * channel step needs it only when its integration is a webhook provider; answering false runs the
   * job at once, without a slot. Must not write to the store.
   */
  needsPrepare?(ctx: StepContext): boolean;
  /**
   * Optional asynchronous part (network calls). It must not write to the store: its result is
   * handed to `run`, and the job is re-run from the start if the process dies in between.
   */
  prepare?(ctx: StepContext): Promise<unknown>;
  /** Synchronous part, run inside the job's transaction: its writes and the outcome commit together. */
  run(ctx: StepContext, prepared: unknown): StepResult;
}

export interface RunnerSettings {
  /** `--allow-remote-webhooks`: http_request steps and webhook providers may call non-loopback hosts. */
  allowRemoteWebhooks: boolean;
  /** `--allow-remote-bridge`: bridge URLs (sync, `--bridge-url`, a trigger's `bridgeUrl`) may be non-loopback. */
  allowRemoteBridge: boolean;
}

export class StepRegistry {
  private readonly handlers = new Map<StepType, StepHandler>();
  /** Runs every step of a code-first workflow (origin `external`) through the app that serves it. */
  private external: StepHandler | undefined;

  registerExternal(handler: StepHandler): this {
    this.external = handler;
    return this;
  }

  /** The handler of a job: the external one for a code-first workflow's steps, else its type's. */
  forJob(type: StepType, origin: string): StepHandler | undefined {
    return origin === 'external' && this.external ? this.external : this.handlers.get(type);
  }

  register(type: StepType, handler: StepHandler): this {
    this.handlers.set(type, handler);
    return this;
  }

  get(type: StepType): StepHandler | undefined {
    return this.handlers.get(type);
  }
}

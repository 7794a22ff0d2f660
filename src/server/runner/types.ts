// The contract between the job runner and the step handlers. The runner owns scheduling, persistence
// and crash recovery; a handler owns what one step type does. The workflow engine plugs in its
// delay/digest/throttle/custom/http_request handlers and its template renderer through these types.
import type { JsonObject } from '../../api/schemas/common.js';
import type { StepType } from '../../api/schemas/enums.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/index.js';
import type { NotificationRecord } from '../store/activity.js';
import type { DetailInput, JobRecord } from '../store/jobs.js';
import type { Environment } from '../store/environments.js';
import type { StoredStep, StoredWorkflow } from '../store/workflows.js';

/** What templates can refer to: `{{ subscriber.firstName }}`, `{{ payload.x }}`, `{{ context.tenant.id }}`, ... */
export interface TemplateVariables {
  subscriber: Subscriber;
  payload: JsonObject;
  context: Record<string, { id: string; data: JsonObject }>;
  workflow: { workflowId: string; name: string; tags: string[]; severity: string };
  /** Outputs of earlier steps of the same run, by stepId (filled by the engine's handlers). */
  steps: Record<string, unknown>;
}

/** Turns a step's stored control values into the values used for one delivery. */
export type ControlRenderer = (controls: JsonObject, variables: TemplateVariables, step: StoredStep) => JsonObject;

export interface StepContext {
  readonly job: JobRecord;
  readonly notification: NotificationRecord;
  readonly subscriber: Subscriber;
  readonly workflow: StoredWorkflow;
  readonly environment: Environment;
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: RunnerSettings;
  variables(): TemplateVariables;
  /** The step's control values through the renderer (as stored, when no renderer is plugged in). */
  controls(): JsonObject;
  /** Adds an execution detail; it is written with the job's outcome, in the same transaction. */
  detail(d: DetailInput): void;
  /** State kept on the job between runs (a delayed job is run again with it). */
  setState(state: JsonObject): void;
  /** The provider the job delivered through, shown on the job. */
  setProviderId(providerId: string): void;
}

export type StepResult =
  | { status: 'completed' }
  | { status: 'skipped' }
  /** `error` becomes a Failed execution detail. */
  | { status: 'failed'; error: string }
  /** Run the handler again at `until` (service time), e.g. a delay that has not elapsed. */
  | { status: 'delayed'; until: number }
  /** Ends this notification's run here; its remaining steps take the same status. */
  | { status: 'merged' }
  | { status: 'canceled' };

export interface StepHandler {
  /**
   * Optional asynchronous part (network calls). It must not write to the store: its result is
   * handed to `run`, and the job is re-run from the start if the process dies in between.
   */
  prepare?(ctx: StepContext): Promise<unknown>;
  /** Synchronous part, run inside the job's transaction: its writes and the outcome commit together. */
  run(ctx: StepContext, prepared: unknown): StepResult;
}

export interface RunnerSettings {
  /** `--allow-remote-webhooks`: http_request steps and chat webhooks may call non-loopback hosts. */
  allowRemoteWebhooks: boolean;
}

export class StepRegistry {
  private readonly handlers = new Map<StepType, StepHandler>();

  register(type: StepType, handler: StepHandler): this {
    this.handlers.set(type, handler);
    return this;
  }

  get(type: StepType): StepHandler | undefined {
    return this.handlers.get(type);
  }
}

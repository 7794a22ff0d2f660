// The workflow engine's view of a stored workflow: its definition (the create-body shape the engine
// reads) and, per step, what every execution of it needs and what never changes between executions:
// the control values with their defaults, the control issues, the step filters and the variables that
// have a `default`. Computed once per workflow version and kept, so a trigger of 1,000 recipients
// analyses its templates once, not 1,000 times.
import { LRUCache } from 'lru-cache';
import type { StepFilter } from '../../api/schemas/resources.js';
import type { StepIssues, Workflow } from '../../api/schemas/workflow.js';
import {
  analyzeTemplate,
  controlTemplates,
  resolveSteps,
  stepIssues,
  toWorkflowResponse,
  withControlDefaults,
  type Preferences,
  type StepKind,
  type WorkflowDefinition,
} from '../engine/index.js';
import type { Store } from '../store/index.js';
import type { StoredWorkflow } from '../store/workflows.js';

export interface StepRuntime {
  index: number;
  stepId: string;
  name: string;
  type: StepKind;
  /** Control values with the kind's defaults (a throttle's threshold 1, a delay's type regular). */
  controls: Record<string, unknown>;
  filters: StepFilter[];
  /** Control issues only: integration issues depend on the environment, and are checked per job. */
  issues: StepIssues;
  /** Variables the templates give a `default` filter: no value there is intended, not worth a warning. */
  defaulted: ReadonlySet<string>;
  /** Whether the templates, keys or skip rule read `steps.`: only then are earlier outputs loaded. */
  readsSteps: boolean;
}

export interface WorkflowRuntime {
  stored: StoredWorkflow;
  definition: WorkflowDefinition;
  steps: StepRuntime[];
}

/** The stored workflow as the engine reads it (the create body), step ids and database ids included. */
export function definitionOf(stored: StoredWorkflow): WorkflowDefinition {
  const def: WorkflowDefinition = {
    workflowId: stored.workflowId,
    name: stored.name,
    tags: stored.tags,
    active: stored.active,
    validatePayload: stored.validatePayload,
    payloadSchema: stored.payloadSchema,
    isTranslationEnabled: stored.isTranslationEnabled,
    severity: stored.severity,
    critical: stored.critical,
    preferences: {
      user: stored.preferences.user as Preferences | null,
      workflow: stored.preferences.default as Preferences,
    },
    steps: stored.steps.map((s) => ({ _id: s._id, stepId: s.stepId, name: s.name, type: s.type as StepKind, controlValues: s.controlValues })),
  };
  if (stored.description !== undefined) def.description = stored.description;
  return def;
}

function defaultedVariables(controls: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const { source } of controlTemplates(controls)) {
    const analysis = analyzeTemplate(source);
    if (!analysis.ok) continue;
    for (const f of analysis.filters) if (f.name === 'default' && f.subject) out.add(f.subject);
  }
  return out;
}

/** Any mention of `steps` counts (templates, digest/throttle keys, skip rules, dynamic paths). */
function readsSteps(controls: Record<string, unknown>): boolean {
  return /\bsteps\b/.test(JSON.stringify(controls));
}

/** Runtimes by workflow version (database id and update time): a new version is a new key. */
const cache = new LRUCache<string, WorkflowRuntime>({ max: 200 });

/** The runtime view of a workflow version (kept by database id and update time). */
export function workflowRuntime(stored: StoredWorkflow): WorkflowRuntime {
  const key = `${stored._id}@${stored.updatedAt}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const definition = definitionOf(stored);
  // A code-first workflow's steps are the app's code: no control values here to analyse or check.
  const external = stored.origin === 'external';
  const steps = resolveSteps(definition).map(
    (step): StepRuntime =>
      external
        ? externalStep(step, stored)
        : {
            index: step.index,
            stepId: step.stepId,
            name: step.name,
            type: step.type,
            controls: withControlDefaults(step.type, step.controlValues),
            filters: stored.steps[step.index]?.filters ?? [],
            issues: stepIssues(definition, step.index),
            defaulted: defaultedVariables(step.controlValues),
            readsSteps: readsSteps(step.controlValues),
          },
  );
  const runtime = { stored, definition, steps };
  cache.set(key, runtime);
  return runtime;
}

function externalStep(step: ReturnType<typeof resolveSteps>[number], stored: StoredWorkflow): StepRuntime {
  return {
    index: step.index,
    stepId: step.stepId,
    name: step.name,
    type: step.type,
    controls: {},
    filters: stored.steps[step.index]?.filters ?? [],
    issues: {},
    defaulted: new Set(),
    // Earlier steps reach the app in the execute request's state, not through templates here.
    readsSteps: false,
  };
}

/**
 * A code-first workflow as the service shows it: its steps' controls are the schemas the app declared
 * and the values stored here (the dashboard's, sent to the app with each execution and preview; the
 * app's defaults apply to the rest), it has no control issues, and its status is its activity.
 */
function externalView(view: Workflow, stored: StoredWorkflow): Workflow {
  const schemas = stored.bridge?.controlSchemas ?? {};
  const { issues: _issues, ...rest } = view;
  return {
    ...rest,
    status: stored.active ? 'ACTIVE' : 'INACTIVE',
    steps: view.steps.map((s) => {
      const { issues: _i, ...step } = s;
      const schema = schemas[s.stepId];
      const values = stored.steps.find((x) => x.stepId === s.stepId)?.controlValues ?? {};
      return { ...step, controls: { ...step.controls, ...(schema && { dataSchema: schema }), values } };
    }),
    ...(stored.bridge && { bridgeUrl: stored.bridge.url }),
  };
}

/** GET /v2/workflows/{id} and the create answer: the engine's full workflow shape. */
export function workflowResponse(store: Store, stored: StoredWorkflow): Workflow {
  const view = engineView(store, stored);
  return stored.origin === 'external' ? externalView(view, stored) : view;
}

function engineView(store: Store, stored: StoredWorkflow): Workflow {
  return toWorkflowResponse(workflowRuntime(stored).definition, {
    _id: stored._id,
    environmentId: stored._environmentId,
    organizationId: stored._organizationId,
    activeIntegrations: store.integrations.ofEnvironment(stored._environmentId),
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    lastTriggeredAt: stored.lastTriggeredAt ?? null,
    origin: stored.origin,
    now: store.clock.now(),
  });
}

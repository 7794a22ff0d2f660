// The full workflow response of GET /v2/workflows/{workflowId}, computed from the stored definition:
// every step with its controls metadata, variables schema and issues, the payload example, the
// completed preferences and the status the issues imply.
import type { z } from 'zod';
import type { Integration } from '../../api/schemas/resources.js';
import type { StepIssues, StepResponse, User, Workflow } from '../../api/schemas/workflow.js';
import { controlsMetadata } from './controls-meta.js';
import { objectIdFrom, stepSlug, workflowSlug } from './derived-ids.js';
import { hasIssues, stepIssues } from './issues.js';
import { exampleFromPaths, payloadExampleFromSchema } from './payload.js';
import { workflowPreferences } from './workflow-preferences.js';
import type { WorkflowDefinition } from './types.js';
import { resolveSteps, stepVariablesSchema, workflowPayloadPaths } from './variables.js';

type WorkflowOrigin = 'svc-cloud' | 'svc-cloud-v1' | 'external';

interface WorkflowViewOptions {
  /** The workflow's database id; derived from environment and workflowId when absent. */
  _id?: string;
  environmentId: string;
  organizationId?: string;
  /** The environment's integrations (active or not); channel steps without one report an issue. */
  activeIntegrations: readonly Integration[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt?: string | null;
  lastPublishedAt?: string | null;
  updatedBy?: z.infer<typeof User>;
  /** Workflows created through the API are `svc-cloud`; code-first ones `external`. */
  origin?: WorkflowOrigin;
  /** Used for date examples in the payload example. */
  now?: number;
}

/** ACTIVE when active and no step has issues, ERROR when one has, INACTIVE when not active. */
function workflowStatus(workflow: WorkflowDefinition, issues: readonly StepIssues[]): 'ACTIVE' | 'INACTIVE' | 'ERROR' {
  if (workflow.active !== true) return 'INACTIVE';
  return issues.some(hasIssues) ? 'ERROR' : 'ACTIVE';
}

/** The payload example: from the payload schema, else placeholders where the steps read the payload. */
export function workflowPayloadExample(workflow: WorkflowDefinition, now?: number): Record<string, unknown> | null {
  if (workflow.payloadSchema) return payloadExampleFromSchema(workflow.payloadSchema, now);
  const example = exampleFromPaths(workflowPayloadPaths(workflow));
  return Object.keys(example).length > 0 ? example : null;
}

export function toWorkflowResponse(workflow: WorkflowDefinition, options: WorkflowViewOptions): Workflow {
  const databaseId = options._id ?? objectIdFrom(`${options.environmentId}/${workflow.workflowId}`);
  const origin = options.origin ?? 'svc-cloud';
  const issues = workflow.steps.map((_, i) => stepIssues(workflow, i, { integrations: options.activeIntegrations }));
  const steps: StepResponse[] = resolveSteps(workflow).map((step) => {
    const response: StepResponse = {
      controls: controlsMetadata(step.type, step.controlValues),
      controlValues: step.controlValues,
      variables: stepVariablesSchema(workflow, step.index),
      stepId: step.stepId,
      _id: step._id,
      name: step.name,
      slug: stepSlug(step.name, step._id),
      type: step.type,
      origin,
      workflowId: workflow.workflowId,
      workflowDatabaseId: databaseId,
    };
    const stepProblems = issues[step.index];
    if (stepProblems && hasIssues(stepProblems)) response.issues = stepProblems;
    return response;
  });
  const response: Workflow = {
    name: workflow.name,
    tags: workflow.tags ?? [],
    active: workflow.active ?? false,
    validatePayload: workflow.validatePayload ?? false,
    payloadSchema: workflow.payloadSchema ?? null,
    isTranslationEnabled: workflow.isTranslationEnabled ?? false,
    _id: databaseId,
    workflowId: workflow.workflowId,
    slug: workflowSlug(workflow.name, databaseId),
    createdAt: options.createdAt,
    updatedAt: options.updatedAt,
    lastPublishedAt: options.lastPublishedAt ?? null,
    lastTriggeredAt: options.lastTriggeredAt ?? null,
    steps,
    origin,
    preferences: workflowPreferences(workflow),
    status: workflowStatus(workflow, issues),
    payloadExample: workflowPayloadExample(workflow, options.now),
    severity: workflow.severity ?? 'none',
  };
  if (workflow.description !== undefined) response.description = workflow.description;
  if (options.updatedBy) response.updatedBy = options.updatedBy;
  return response;
}

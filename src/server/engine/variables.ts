// What a step's templates may read: the variable roots, the subscriber's fields, the outputs of earlier
// steps, and the payload (its schema, or the shape the steps' own templates imply). Used to flag
// illegal variables and to publish each step's `variables` JSON Schema.
import { analyzeTemplate, controlTemplates, type Segment, type VariableUse } from './analysis.js';
import { skipVariables } from './conditions.js';
import { defaultControlValues } from './controls-meta.js';
import { databaseIdFromSlug, objectIdFrom, slugify } from './derived-ids.js';
import { schemaFromPaths, type JsonSchema } from './payload.js';
import { SCOPE_ROOTS, type StepKind, type WorkflowDefinition } from './types.js';

interface ResolvedStep {
  index: number;
  _id: string;
  stepId: string;
  name: string;
  type: StepKind;
  controlValues: Record<string, unknown>;
}

/**
 * The steps with their identifiers settled: a missing `stepId` is the slugified name (made unique
 * with `-2`, `-3`... like the service's suffixes), a missing `_id` is derived from workflow and step,
 * and a step created without control values has its kind's defaults.
 */
export function resolveSteps(workflow: WorkflowDefinition): ResolvedStep[] {
  const seen = new Set<string>();
  return workflow.steps.map((step, index) => {
    const base = step.stepId ?? slugify(step.name);
    let stepId = base;
    for (let n = 2; seen.has(stepId); n += 1) stepId = `${base}-${n}`;
    seen.add(stepId);
    return {
      index,
      _id: step._id ?? objectIdFrom(`${workflow.workflowId}/${stepId}`),
      stepId,
      name: step.name,
      type: step.type,
      controlValues: step.controlValues ?? defaultControlValues(step.type),
    };
  });
}

/** Finds a step by step id, database id or slug (the preview route accepts any of them). */
export function findStep(steps: readonly ResolvedStep[], idOrSlug: string): ResolvedStep | undefined {
  const fromSlug = databaseIdFromSlug(idOrSlug);
  return steps.find((s) => s.stepId === idOrSlug || s._id === idOrSlug || (fromSlug !== null && s._id === fromSlug));
}

const SUBSCRIBER_FIELDS = [
  'subscriberId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'avatar',
  'locale',
  'timezone',
  'data',
  'isOnline',
  'lastOnlineAt',
  'channels',
] as const;

const SUBSCRIBER_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The subscriber the step runs for',
  properties: {
    subscriberId: { type: 'string' },
    firstName: { type: 'string' },
    lastName: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    avatar: { type: 'string' },
    locale: { type: 'string' },
    timezone: { type: 'string' },
    isOnline: { type: 'boolean' },
    lastOnlineAt: { type: 'string', format: 'date-time' },
    channels: { type: 'array', items: { type: 'object', additionalProperties: true } },
    data: { type: 'object', additionalProperties: true },
  },
  required: ['subscriberId'],
  additionalProperties: false,
};

const FREE_OBJECT: JsonSchema = { type: 'object', additionalProperties: true };

/** What each kind of step hands to later steps as `steps.<stepId>`. */
function stepOutputSchema(kind: StepKind, payloadSchema?: JsonSchema | null): JsonSchema {
  switch (kind) {
    case 'digest':
      return {
        type: 'object',
        properties: {
          eventCount: { type: 'number' },
          events: {
            type: 'array',
            items: {
              type: 'object',
              properties: { id: { type: 'string' }, time: { type: 'string' }, payload: payloadSchema ?? FREE_OBJECT },
              required: ['id', 'time', 'payload'],
            },
          },
        },
        required: ['events', 'eventCount'],
        additionalProperties: false,
      };
    case 'in_app':
      return {
        type: 'object',
        properties: {
          seen: { type: 'boolean' },
          read: { type: 'boolean' },
          lastSeenDate: { type: ['string', 'null'] },
          lastReadDate: { type: ['string', 'null'] },
        },
        additionalProperties: false,
      };
    case 'delay':
      return { type: 'object', properties: { duration: { type: 'number' } }, additionalProperties: false };
    case 'custom':
    case 'http_request':
      return { ...FREE_OBJECT };
    default:
      return { type: 'object', properties: {}, additionalProperties: false };
  }
}

function asSchema(value: unknown): JsonSchema | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : null;
}

/** Whether a payload path is declared by the workflow's payload schema (undeclared keys are typos). */
export function payloadPathAllowed(schema: JsonSchema | null | undefined, path: readonly Segment[]): boolean {
  let current = asSchema(schema);
  for (const segment of path) {
    if (!current) return true;
    if (Array.isArray(current.anyOf) || Array.isArray(current.oneOf) || Array.isArray(current.allOf) || current.$ref) return true;
    const properties = asSchema(current.properties);
    const key = String(segment);
    if (properties && asSchema(properties[key])) {
      current = asSchema(properties[key]);
      continue;
    }
    const isArray = current.type === 'array' || (Array.isArray(current.type) && current.type.includes('array')) || current.items !== undefined;
    if (isArray && (typeof segment === 'number' || /^\d+$/.test(key))) {
      current = asSchema(current.items) ?? {};
      continue;
    }
    if (key === 'size' || key === 'first' || key === 'last') return true;
    if (current.additionalProperties === true || asSchema(current.additionalProperties)) return true;
    // A schema that names no properties describes a free-form value.
    if (!properties && (current.type === undefined || current.type === 'object')) return true;
    return false;
  }
  return true;
}

const STEP_OUTPUT_FIELDS: Partial<Record<StepKind, readonly string[]>> = {
  digest: ['events', 'eventCount'],
  in_app: ['seen', 'read', 'lastSeenDate', 'lastReadDate'],
  delay: ['duration'],
};

export interface VariableContext {
  /** Steps before the one being checked, in order. */
  earlierSteps: ReadonlyArray<Pick<ResolvedStep, 'stepId' | 'type'>>;
  /** Every step of the workflow, to tell "runs later" from "does not exist". */
  allStepIds: ReadonlySet<string>;
  payloadSchema?: JsonSchema | null;
}

/** Why a variable may not be used here, or null when it may. Messages follow `Variable "x" <message>`. */
export function variableProblem(variable: Pick<VariableUse, 'root' | 'segments' | 'path'>, ctx: VariableContext): string | null {
  const { root, segments } = variable;
  // `{{t.key}}` is a translation key, put in the subscriber's language before rendering (translations.ts).
  if (root === 't' && segments && segments.length > 1) return null;
  if (!(SCOPE_ROOTS as readonly string[]).includes(root)) {
    if (segments && segments.length === 1) return `is missing a namespace. Did you mean {{ payload.${root} }}?`;
    return `is not supported: variables start with ${SCOPE_ROOTS.map((r) => `${r}.`).join(', ')}`;
  }
  if (!segments || segments.length < 2) return null;
  const [, second, third] = segments;
  switch (root) {
    case 'subscriber':
      return (SUBSCRIBER_FIELDS as readonly Segment[]).includes(second as Segment)
        ? null
        : `is not supported: subscriber fields are ${SUBSCRIBER_FIELDS.join(', ')} (custom ones live in subscriber.data)`;
    case 'steps': {
      const stepId = String(second);
      const step = ctx.earlierSteps.find((s) => s.stepId === stepId);
      if (!step) {
        return ctx.allStepIds.has(stepId)
          ? `is not supported: step "${stepId}" runs after this step`
          : `is not supported: there is no step "${stepId}" before this step`;
      }
      const fields = STEP_OUTPUT_FIELDS[step.type];
      if (third === undefined || step.type === 'custom' || step.type === 'http_request') return null;
      if (!fields) return `is not supported: a ${step.type} step has no outputs`;
      return fields.includes(String(third)) ? null : `is not supported: a ${step.type} step outputs ${fields.join(', ')}`;
    }
    case 'payload':
      return payloadPathAllowed(ctx.payloadSchema, segments.slice(1)) ? null : 'is not supported: it is not declared in the payload schema';
    default:
      return null;
  }
}

/** Every payload path (segments after `payload`) the workflow's templates and skip rules read. */
export function workflowPayloadPaths(workflow: WorkflowDefinition): Segment[][] {
  const paths: Segment[][] = [];
  for (const step of resolveSteps(workflow)) {
    const controls = step.controlValues;
    for (const { source } of controlTemplates(controls)) {
      const analysis = analyzeTemplate(source);
      if (!analysis.ok) continue;
      for (const path of analysis.dataPaths) if (path[0] === 'payload' && path.length > 1) paths.push(path.slice(1));
    }
    for (const variable of skipVariables(controls.skip)) {
      const parts = variable.split('.');
      if (parts[0] === 'payload' && parts.length > 1) paths.push(parts.slice(1));
    }
  }
  return paths;
}

/** The payload schema the workflow declares, or one inferred from what its steps read. */
export function effectivePayloadSchema(workflow: WorkflowDefinition): JsonSchema {
  return asSchema(workflow.payloadSchema) ?? schemaFromPaths(workflowPayloadPaths(workflow));
}

/** The `variables` JSON Schema of a step: everything its templates may read. */
export function stepVariablesSchema(workflow: WorkflowDefinition, stepIndex: number): JsonSchema {
  const steps = resolveSteps(workflow);
  const declared = asSchema(workflow.payloadSchema);
  const earlier: Record<string, JsonSchema> = {};
  for (const step of steps.slice(0, Math.max(0, stepIndex))) earlier[step.stepId] = stepOutputSchema(step.type, declared);
  return {
    type: 'object',
    properties: {
      subscriber: SUBSCRIBER_SCHEMA,
      payload: effectivePayloadSchema(workflow),
      steps: { type: 'object', description: 'Outputs of earlier steps', properties: earlier, required: [], additionalProperties: false },
      actor: {
        type: 'object',
        description: 'The subscriber who caused the event (trigger `actor`)',
        properties: SUBSCRIBER_SCHEMA.properties,
        additionalProperties: true,
      },
      tenant: {
        type: 'object',
        description: 'The trigger tenant',
        properties: { identifier: { type: 'string' }, name: { type: 'string' }, data: FREE_OBJECT },
        additionalProperties: true,
      },
      context: {
        type: 'object',
        description: 'Trigger contexts by type, each {id, data}',
        additionalProperties: { type: 'object', properties: { id: { type: 'string' }, data: FREE_OBJECT } },
      },
      env: { type: 'object', description: 'Environment variables', additionalProperties: true },
    },
    additionalProperties: false,
  };
}

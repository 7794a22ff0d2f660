// Environment variables (openapi.json EnvironmentVariablesController_*) and what moves between
// environments (EnvironmentsController_getEnvironmentTags, _diffEnvironment, _publishEnvironment,
// WorkflowController_sync, _getWorkflowStepData): bodies, queries and answers.
import { z } from 'zod';

/** The service's rule for a key: a letter, then letters, digits and underscores; 256 at most. */
const VariableKey = z
  .string()
  .max(256, 'must be at most 256 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'must start with a letter and contain only letters, digits, and underscores');

const VariableValueInput = z.looseObject({
  _environmentId: z.string().min(1, 'must not be empty'),
  value: z.string().max(256, 'must be at most 256 characters'),
});

export const CreateEnvironmentVariableBody = z.looseObject({
  key: VariableKey,
  type: z.enum(['string']).optional(),
  isSecret: z.boolean().optional(),
  values: z.array(VariableValueInput).optional(),
});

export const UpdateEnvironmentVariableBody = z.looseObject({
  key: VariableKey.optional(),
  type: z.enum(['string']).optional(),
  isSecret: z.boolean().optional(),
  values: z.array(VariableValueInput).optional(),
});

export const ListEnvironmentVariablesQuery = z.looseObject({ search: z.string().optional() });

export const EnvironmentVariable = z.looseObject({
  _id: z.string(),
  _organizationId: z.string(),
  key: z.string(),
  type: z.enum(['string']),
  isSecret: z.boolean(),
  /** Per environment; a secret's value reads as the mask. */
  values: z.array(z.looseObject({ _environmentId: z.string(), value: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EnvironmentVariable = z.infer<typeof EnvironmentVariable>;

export const EnvironmentVariableUsage = z.looseObject({
  workflows: z.array(z.looseObject({ name: z.string(), workflowId: z.string() })),
});

// --- between environments ---------------------------------------------------------------------

/** What the service names in a diff or a publish (its sync types): workflows and their steps, layouts, translations. */
const SyncResourceType = z.string();
const DiffAction = z.enum(['added', 'modified', 'deleted', 'unchanged', 'moved']);

const ResourceInfo = z.looseObject({
  id: z.string().nullable().optional(),
  name: z.string().nullable().optional(),
  updatedAt: z.string().nullable().optional(),
});

export const ResourceDiff = z.looseObject({
  sourceResource: ResourceInfo.nullable().optional(),
  targetResource: ResourceInfo.nullable().optional(),
  resourceType: SyncResourceType,
  action: DiffAction,
  diffs: z.looseObject({ previous: z.record(z.string(), z.unknown()).nullable(), new: z.record(z.string(), z.unknown()).nullable() }).optional(),
  stepType: z.string().optional(),
  previousIndex: z.number().optional(),
  newIndex: z.number().optional(),
});
export type ResourceDiff = z.infer<typeof ResourceDiff>;

const ChangeCounts = z.looseObject({ added: z.number(), modified: z.number(), deleted: z.number(), unchanged: z.number() });

export const ResourceDiffResult = z.looseObject({
  resourceType: SyncResourceType,
  sourceResource: ResourceInfo.nullable().optional(),
  targetResource: ResourceInfo.nullable().optional(),
  changes: z.array(ResourceDiff),
  summary: ChangeCounts,
  dependencies: z.array(z.looseObject({})).optional(),
});
export type ResourceDiffResult = z.infer<typeof ResourceDiffResult>;

export const DiffEnvironmentBody = z.looseObject({ sourceEnvironmentId: z.string().optional() });

export const EnvironmentDiff = z.looseObject({
  sourceEnvironmentId: z.string(),
  targetEnvironmentId: z.string(),
  resources: z.array(ResourceDiffResult),
  summary: z.looseObject({ totalEntities: z.number(), totalChanges: z.number(), hasChanges: z.boolean() }),
});
export type EnvironmentDiff = z.infer<typeof EnvironmentDiff>;

export const PublishEnvironmentBody = z.looseObject({
  sourceEnvironmentId: z.string().optional(),
  dryRun: z.boolean().optional(),
  resources: z.array(z.looseObject({ resourceType: z.string(), resourceId: z.string() })).optional(),
});

const Synced = z.looseObject({ resourceType: SyncResourceType, resourceId: z.string(), resourceName: z.string() });
export const SyncResult = z.looseObject({
  resourceType: SyncResourceType,
  successful: z.array(Synced.extend({ action: z.enum(['created', 'updated', 'skipped', 'deleted']) })),
  failed: z.array(Synced.extend({ error: z.string() })),
  skipped: z.array(Synced.extend({ reason: z.string() })),
  totalProcessed: z.number(),
});
export type SyncResult = z.infer<typeof SyncResult>;

export const PublishResult = z.looseObject({
  results: z.array(SyncResult),
  summary: z.looseObject({ resources: z.number(), successful: z.number(), failed: z.number(), skipped: z.number() }),
});
export type PublishResult = z.infer<typeof PublishResult>;

export const EnvironmentTag = z.looseObject({ name: z.string() });

export const SyncWorkflowBody = z.looseObject({ targetEnvironmentId: z.string().min(1, 'must not be empty') });

// Workflows (v2): step control values per kind, the create body, the workflow and step responses, and
// the step preview (api-spec.md "Workflow (v2)", "Step preview"; openapi.json for the shapes it leaves out).
import { z } from 'zod';
import {
  ControlIssueType,
  HttpMethod,
  IntegrationIssueType,
  OrderDirection,
  Origin,
  RedirectTarget,
  Severity,
  StepType,
  TimeUnit,
  WorkflowStatus,
} from './enums.js';
import { ContextPayload, JsonObject, queryArray, queryInt } from './common.js';
import { PartialSubscriber } from './resources.js';

/** Workflow and step identifiers: a slug. */
const SLUG_RE = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
const Slug = z.string().min(1).max(100).regex(SLUG_RE, 'must be a slug: letters, digits, ".", "_" and "-"');

const Redirect = z.looseObject({ url: z.string().min(1, 'must not be empty'), target: RedirectTarget.optional() });
const Action = z.looseObject({ label: z.string().optional(), redirect: Redirect.optional() });
/** JSON-logic conditions that skip the step when they hold. */
const skip = { skip: JsonObject.optional() };

const InAppControls = z
  .looseObject({
    ...skip,
    body: z.string().optional(),
    subject: z.string().optional(),
    avatar: z.string().optional(),
    primaryAction: Action.optional(),
    secondaryAction: Action.optional(),
    redirect: Redirect.optional(),
    disableOutputSanitization: z.boolean().optional(),
    data: JsonObject.optional(),
  })
  .refine((v) => Boolean(v.body) || Boolean(v.subject), {
    message: 'body is required when subject is empty, and subject when body is empty',
    path: ['body'],
  });
const EmailControls = z.looseObject({
  ...skip,
  subject: z.string().min(1, 'must not be empty'),
  body: z.union([z.string(), JsonObject]).default(''),
  editorType: z.enum(['block', 'html']).optional(),
  disableOutputSanitization: z.boolean().optional(),
  layoutId: z.string().nullable().optional(),
});
const SmsControls = z.looseObject({ ...skip, body: z.string().optional() });
const PushControls = z.looseObject({ ...skip, subject: z.string().optional(), body: z.string().optional() });
const ChatControls = z.looseObject({ ...skip, body: z.string().optional() });
/** `regular` waits amount×unit; `timed` waits until a cron time; `dynamic` (alias `scheduled`) reads the
 * date or duration from the payload path in `dynamicKey` (alias `delayPath`). */
const DelayControls = z.looseObject({
  ...skip,
  type: z.enum(['regular', 'timed', 'dynamic', 'scheduled']).default('regular'),
  amount: z.number().min(1).optional(),
  unit: TimeUnit.optional(),
  cron: z.string().min(1).optional(),
  dynamicKey: z.string().optional(),
  delayPath: z.string().optional(),
});
const LookBackWindow = z.looseObject({ amount: z.number().min(1), unit: TimeUnit });
const DigestControls = z.looseObject({
  ...skip,
  type: z.enum(['regular', 'timed']).optional(),
  amount: z.number().min(1).optional(),
  unit: TimeUnit.optional(),
  lookBackWindow: LookBackWindow.optional(),
  cron: z.string().min(1).optional(),
  digestKey: z.string().optional(),
});
const ThrottleControls = z.looseObject({
  ...skip,
  type: z.enum(['fixed', 'dynamic']).default('fixed'),
  amount: z.number().min(1).optional(),
  unit: z.enum(['minutes', 'hours', 'days']).optional(),
  dynamicKey: z.string().optional(),
  threshold: z.number().int().min(1).default(1),
  throttleKey: z.string().optional(),
});
const CustomControls = z.looseObject({ ...skip, custom: JsonObject.optional() });
const KeyValue = z.looseObject({ key: z.string(), value: z.string() });
const HttpRequestControls = z.looseObject({
  ...skip,
  method: HttpMethod,
  url: z.string().min(1, 'must not be empty'),
  headers: z.array(KeyValue).optional(),
  body: z.union([z.string(), z.array(KeyValue)]).optional(),
  responseBodySchema: JsonObject.optional(),
  enforceSchemaValidation: z.boolean().optional(),
  continueOnFailure: z.boolean().optional(),
  timeout: z.number().int().min(1).optional(),
});

export const CONTROL_SCHEMAS = {
  in_app: InAppControls,
  email: EmailControls,
  sms: SmsControls,
  push: PushControls,
  chat: ChatControls,
  delay: DelayControls,
  digest: DigestControls,
  throttle: ThrottleControls,
  custom: CustomControls,
  http_request: HttpRequestControls,
} as const;
export type StepKind = keyof typeof CONTROL_SCHEMAS;
export const STEP_KINDS = Object.keys(CONTROL_SCHEMAS) as StepKind[];

// --- preferences --------------------------------------------------------------------------------------

const WorkflowPreference = z.looseObject({ enabled: z.boolean().default(true), readOnly: z.boolean().default(false) });
const ChannelPreference = z.looseObject({ enabled: z.boolean().default(true) });
export const WorkflowPreferences = z.looseObject({
  all: WorkflowPreference,
  channels: z.record(z.string(), ChannelPreference),
});
const PreferencesRequest = z.looseObject({
  user: WorkflowPreferences.nullable().optional(),
  workflow: WorkflowPreferences.optional(),
});

// --- create workflow (POST /v2/workflows) --------------------------------------------------------------

export const StepUpsert = z.looseObject({
  _id: z.string().optional(),
  stepId: Slug.optional(),
  name: z.string().min(1, 'must not be empty'),
  type: z.enum(STEP_KINDS as [StepKind, ...StepKind[]]),
  controlValues: JsonObject.optional(),
});
export type StepUpsert = z.infer<typeof StepUpsert>;

/** The service's limits on a workflow's name, description and tags (its create and update DTOs). */
const WORKFLOW_LIMITS = { name: 64, description: 256, tags: 16, tag: 32 } as const;
const WorkflowName = z
  .string()
  .min(1, 'must be longer than or equal to 1 characters')
  .max(WORKFLOW_LIMITS.name, `must be shorter than or equal to ${WORKFLOW_LIMITS.name} characters`);
const WorkflowDescription = z.string().max(WORKFLOW_LIMITS.description, `must be shorter than or equal to ${WORKFLOW_LIMITS.description} characters`);
const WorkflowTags = z
  .array(z.string())
  .max(WORKFLOW_LIMITS.tags, `must contain no more than ${WORKFLOW_LIMITS.tags} elements`)
  .superRefine((tags, ctx) => {
    // The service's own wording (one length rule, 1 to 32, so one sentence for either side of it).
    if (tags.some((t) => t.length < 1 || t.length > WORKFLOW_LIMITS.tag)) {
      ctx.addIssue({
        code: 'custom',
        message: `each value in tags must be longer than or equal to 1 and shorter than or equal to ${WORKFLOW_LIMITS.tag} characters`,
      });
    }
    if (new Set(tags).size !== tags.length) ctx.addIssue({ code: 'custom', message: "All tags's elements must be unique" });
  });

export const CreateWorkflowBody = z.looseObject({
  name: WorkflowName,
  description: WorkflowDescription.optional(),
  tags: WorkflowTags.optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  workflowId: Slug,
  steps: z.array(StepUpsert),
  preferences: PreferencesRequest.optional(),
  severity: Severity.optional(),
  critical: z.boolean().optional(),
});
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

/** PUT /v2/workflows/{workflowId}: the whole workflow again; steps keep their `_id` to stay the same step. */
export const UpdateWorkflowBody = z.looseObject({
  name: WorkflowName,
  description: WorkflowDescription.optional(),
  tags: WorkflowTags.optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  workflowId: z.string().optional(),
  steps: z.array(StepUpsert),
  preferences: PreferencesRequest.optional(),
  // Required by the service's DTO, but the service decides a workflow's origin itself: any value is
  // accepted and ignored (the official SDK sends `novu-cloud`, the spec's name here is `svc-cloud`).
  origin: z.string().optional(),
  severity: Severity.optional(),
  critical: z.boolean().optional(),
});
export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBody>;

/** PATCH /v2/workflows/{workflowId}: only the fields sent change (`active` activates or deactivates). */
export const PatchWorkflowBody = z.looseObject({
  active: z.boolean().optional(),
  name: WorkflowName.optional(),
  description: WorkflowDescription.optional(),
  tags: WorkflowTags.optional(),
  payloadSchema: JsonObject.nullable().optional(),
  validatePayload: z.boolean().optional(),
  isTranslationEnabled: z.boolean().optional(),
});
export type PatchWorkflowBody = z.infer<typeof PatchWorkflowBody>;

const WORKFLOW_ORDER_BY = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const;
export const ListWorkflowsQuery = z.looseObject({
  limit: queryInt({ min: 1, max: 100 }).optional(),
  offset: queryInt({ min: 0 }).optional(),
  orderDirection: OrderDirection.optional(),
  orderBy: z.enum(WORKFLOW_ORDER_BY).optional(),
  query: z.string().optional(),
  tags: queryArray(z.string()).optional(),
  status: queryArray(WorkflowStatus).optional(),
});
export type ListWorkflowsQuery = z.infer<typeof ListWorkflowsQuery>;

// --- workflow response ---------------------------------------------------------------------------------

export const StepIssue = z.looseObject({ issueType: ControlIssueType, variableName: z.string().optional(), message: z.string() });
export const IntegrationIssue = z.looseObject({
  issueType: IntegrationIssueType,
  variableName: z.string().optional(),
  message: z.string(),
});
export const StepIssues = z.looseObject({
  controls: z.record(z.string(), z.array(StepIssue)).optional(),
  integration: z.record(z.string(), z.array(IntegrationIssue)).optional(),
});
export type StepIssues = z.infer<typeof StepIssues>;

const UiSchema = z.looseObject({ group: z.string().optional(), properties: z.record(z.string(), z.unknown()).optional() });

export const StepResponse = z.looseObject({
  controls: z.looseObject({ dataSchema: JsonObject.optional(), uiSchema: UiSchema.optional(), values: JsonObject }),
  controlValues: JsonObject.optional(),
  variables: JsonObject,
  stepId: z.string(),
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  type: StepType,
  origin: Origin,
  workflowId: z.string(),
  workflowDatabaseId: z.string(),
  issues: StepIssues.optional(),
  stepResolverHash: z.string().optional(),
});
export type StepResponse = z.infer<typeof StepResponse>;

export const User = z.looseObject({
  _id: z.string(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  externalId: z.string().nullable().optional(),
});

export const Workflow = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  _id: z.string(),
  workflowId: z.string(),
  slug: z.string(),
  updatedAt: z.string(),
  createdAt: z.string(),
  updatedBy: User.optional(),
  lastPublishedAt: z.string().nullable().optional(),
  lastPublishedBy: User.optional(),
  steps: z.array(StepResponse),
  origin: Origin,
  preferences: z.looseObject({ user: WorkflowPreferences.nullable().optional(), default: WorkflowPreferences }),
  status: WorkflowStatus,
  issues: z.record(z.string(), z.unknown()).optional(),
  lastTriggeredAt: z.string().nullable().optional(),
  payloadExample: JsonObject.nullable().optional(),
  severity: Severity,
});
export type Workflow = z.infer<typeof Workflow>;

/** One row of GET /v2/workflows: the workflow without its controls, with an overview of its step kinds. */
export const WorkflowListItem = z.looseObject({
  name: z.string(),
  tags: z.array(z.string()).optional(),
  updatedAt: z.string(),
  createdAt: z.string(),
  updatedBy: User.nullable().optional(),
  lastPublishedAt: z.string().nullable().optional(),
  lastPublishedBy: User.nullable().optional(),
  _id: z.string(),
  workflowId: z.string(),
  slug: z.string(),
  status: WorkflowStatus,
  origin: Origin,
  lastTriggeredAt: z.string().nullable().optional(),
  stepTypeOverviews: z.array(StepType),
  isTranslationEnabled: z.boolean().optional(),
  steps: z.array(z.looseObject({ slug: z.string(), type: StepType, issues: StepIssues.optional() })),
});
export type WorkflowListItem = z.infer<typeof WorkflowListItem>;
export const ListWorkflowsResponse = z.looseObject({ workflows: z.array(WorkflowListItem), totalCount: z.number() });
export type ListWorkflowsResponse = z.infer<typeof ListWorkflowsResponse>;

// --- step preview ----------------------------------------------------------------------------------------

export const PreviewPayload = z.looseObject({
  subscriber: PartialSubscriber.optional(),
  payload: JsonObject.optional(),
  steps: JsonObject.optional(),
  context: ContextPayload.optional(),
  env: JsonObject.optional(),
});
export type PreviewPayload = z.infer<typeof PreviewPayload>;

export const PreviewBody = z.looseObject({
  controlValues: JsonObject.optional(),
  previewPayload: PreviewPayload.optional(),
});
export type PreviewBody = z.infer<typeof PreviewBody>;

const PreviewError = z.looseObject({ title: z.string(), message: z.string(), hint: z.string() });
const PreviewResult = z.looseObject({
  type: z.string().optional(),
  preview: JsonObject.optional(),
  error: PreviewError.optional(),
});
export const PreviewResponse = z.looseObject({
  previewPayloadExample: PreviewPayload,
  schema: JsonObject.nullable().optional(),
  svcSignature: z.string().optional(),
  result: PreviewResult,
});
export type PreviewResponse = z.infer<typeof PreviewResponse>;

// The workflow engine's public API: pure functions over plain data (workflow definitions, subscribers,
// integrations, `now` in ms): no network, no timers, no store. See README.md beside this file.
export type { ChannelKind, JsonRecord, ScopeRoot, StepDefinition, StepKind, TemplateScope, WorkflowDefinition } from './types.js';
export { CHANNEL_KINDS, SCOPE_ROOTS, isChannelKind } from './types.js';

export {
  formatPath,
  jsonOutputEscape,
  parseTemplate,
  renderControls,
  renderTemplate,
  toTemplateError,
  type ControlsRenderResult,
  type ParseResult,
  type RenderOptions,
  type RenderResult,
  type TemplateError,
  type TemplateErrorKind,
  type UndefinedVariable,
} from './template.js';
export { digest, englishPlural, pluralize, singleQuotedJson, toSentence } from './filters.js';
export {
  analyzeTemplate,
  controlTemplates,
  type ControlTemplate,
  type FilterArgument,
  type FilterUse,
  type Segment,
  type TemplateAnalysis,
  type VariableUse,
} from './analysis.js';
export { blockDocumentToLiquid, escapeOutsideLiquid, parseBlockDocument, type BlockNode } from './block-editor.js';
export { sanitizeHtml } from './sanitize.js';

export { databaseIdFromSlug, objectIdFrom, slugify, stepSlug, workflowSlug } from './derived-ids.js';
export {
  SUBSCRIBER_FIELDS,
  effectivePayloadSchema,
  findStep,
  payloadPathAllowed,
  resolveSteps,
  stepOutputSchema,
  stepVariablesSchema,
  variableProblem,
  workflowPayloadPaths,
  type ResolvedStep,
  type VariableContext,
} from './variables.js';
export {
  describeIssues,
  hasIssues,
  isValidUrlControl,
  stepIssues,
  workflowIssues,
  type ControlIssue,
  type IssueContext,
} from './issues.js';
export {
  UI_COMPONENTS,
  UI_SCHEMA_GROUPS,
  controlsDataSchema,
  controlsMetadata,
  controlsUiSchema,
  defaultControlValues,
  withControlDefaults,
  type UiComponent,
  type UiSchema,
  type UiSchemaGroup,
  type UiSchemaProperty,
} from './controls-meta.js';
export {
  channelPreference,
  completePreferences,
  defaultPreferences,
  workflowPreferences,
  type ChannelDecision,
  type Preferences,
} from './workflow-preferences.js';
export {
  toWorkflowResponse,
  workflowPayloadExample,
  workflowStatus,
  type WorkflowOrigin,
  type WorkflowViewOptions,
} from './workflow-view.js';

export {
  exampleFromPaths,
  payloadExampleFromSchema,
  schemaFromPaths,
  validatePayload,
  type JsonSchema,
  type PayloadValidation,
  type PayloadValidationError,
} from './payload.js';
export {
  DEFAULT_EMAIL_LAYOUT,
  inAppMessageFields,
  renderCustomOutput,
  renderHttpRequest,
  renderStep,
  requestBodyText,
  type ChannelContent,
  type ChatContent,
  type EmailContent,
  type InAppContent,
  type PushContent,
  type RedirectTarget,
  type RenderRequestResult,
  type RenderStepOptions,
  type RenderStepResult,
  type RenderedAction,
  type RenderedRedirect,
  type RenderedRequest,
  type SmsContent,
} from './render-step.js';
export { EXAMPLE_SUBSCRIBER, EXAMPLE_SUBSCRIBER_ID, StepNotFoundError, earlierStepExample, generatePreview, type PreviewInput } from './preview.js';
export { buildScope, contextScope, type ScopeInput } from './scope.js';

export {
  matchesField,
  matchesFilters,
  shouldSkip,
  skipVariables,
  unknownSkipOperators,
  type FilterSubject,
  type SkipDecision,
} from './conditions.js';
export {
  WEBHOOK_PROVIDERS,
  chooseIntegration,
  subscriberCredentials,
  webhookTarget,
  type IntegrationChoice,
  type MissingIntegration,
} from './integrations.js';
export {
  addDuration,
  cronProblem,
  delayUntil,
  digestGroupKey,
  digestKeyValue,
  digestOutput,
  digestWindow,
  durationMs,
  isTimeUnit,
  nextCronTime,
  parseDuration,
  readPath,
  throttleDecision,
  throttleGroupKey,
  type DelayControlsInput,
  type DelayDecision,
  type DigestControlsInput,
  type DigestDecision,
  type DigestEvent,
  type DigestKeyValue,
  type Duration,
  type Instant,
  type PathValue,
  type ThrottleControlsInput,
  type ThrottleDecision,
} from './timing.js';
export { deliveryOverrides, integrationByOverride, type DeliveryOverrides, type OverrideChoice } from './overrides.js';
export { minutesOf, nextScheduledTime, wallClockText, withinSchedule, type DeliverySchedule, type TimeRange, type Weekday } from './schedule.js';

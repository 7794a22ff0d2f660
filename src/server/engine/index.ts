// The workflow engine's public API: pure functions over plain data (workflow definitions, subscribers,
// integrations, `now` in ms): no network, no timers, no store. See README.md beside this file.
export type { ChannelKind, JsonRecord, StepKind, TemplateScope, WorkflowDefinition } from './types.js';
export { isChannelKind } from './types.js';

export { renderControls, renderTemplate, type TemplateError, type UndefinedVariable } from './template.js';
export { analyzeTemplate, controlTemplates } from './analysis.js';
export { blockDocumentToLiquid } from './block-editor.js';
export { sanitizeHtml } from './sanitize.js';

export { resolveSteps } from './variables.js';
export { describeIssues, hasIssues, stepIssues } from './issues.js';
export { withControlDefaults } from './controls-meta.js';
export { channelPreference, type Preferences } from './workflow-preferences.js';
export { toWorkflowResponse } from './workflow-view.js';

export { payloadExampleFromSchema, validatePayload, type JsonSchema } from './payload.js';
export {
  inAppMessageFields,
  renderCustomOutput,
  renderHttpRequest,
  renderStep,
  requestBodyText,
  type ChannelContent,
  type RenderedRequest,
} from './render-step.js';
export { EXAMPLE_SUBSCRIBER, EXAMPLE_SUBSCRIBER_ID, StepNotFoundError, earlierStepExample, generatePreview } from './preview.js';
export { buildScope } from './scope.js';

export { matchesFilters, shouldSkip } from './conditions.js';
export { WEBHOOK_PROVIDERS, chooseIntegration, subscriberCredentials, webhookTarget } from './integrations.js';
export {
  delayUntil,
  digestGroupKey,
  digestKeyValue,
  digestOutput,
  digestWindow,
  throttleDecision,
  throttleGroupKey,
  type DelayControlsInput,
  type DigestControlsInput,
  type DigestEvent,
  type ThrottleControlsInput,
} from './timing.js';
export { deliveryOverrides, integrationByOverride } from './overrides.js';
export { minutesOf, nextScheduledTime, wallClockText, withinSchedule, type DeliverySchedule } from './schedule.js';

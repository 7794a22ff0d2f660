// Plain-data inputs of the workflow engine. The engine never reads a store or a clock: callers hand it a
// workflow definition shaped like the create body, the environment's integrations and `now` in ms.
import type { CreateWorkflowBody, StepKind, StepUpsert } from '../../api/schemas/workflow.js';
import type { Channel } from '../../api/schemas/enums.js';

export type { StepKind };
export type WorkflowDefinition = CreateWorkflowBody;
export type StepDefinition = StepUpsert;
export type JsonRecord = Record<string, unknown>;

/** The step kinds that deliver a message over a channel. */
export type ChannelKind = Channel;
export const CHANNEL_KINDS: readonly ChannelKind[] = ['in_app', 'email', 'sms', 'push', 'chat'];
export function isChannelKind(kind: string): kind is ChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(kind);
}

/**
 * What templates, skip conditions and payload paths can read. `context` holds the trigger's contexts
 * by type, each `{id, data}`; `steps` holds the outputs of earlier steps by step id (a digest step's
 * output is `{events: [{id, time, payload}], eventCount}`).
 */
export interface TemplateScope {
  subscriber?: JsonRecord;
  payload?: JsonRecord;
  actor?: JsonRecord;
  tenant?: JsonRecord;
  context?: JsonRecord;
  steps?: JsonRecord;
  env?: JsonRecord;
}

/** The roots a template may read; anything else is an illegal variable. */
export const SCOPE_ROOTS = ['subscriber', 'payload', 'actor', 'tenant', 'context', 'steps', 'env'] as const;

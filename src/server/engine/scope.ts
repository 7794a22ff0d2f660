// Builds the Liquid scope of one execution from trigger-shaped data, so the job runner and the preview
// read templates against the same shape.
import type { JsonRecord, TemplateScope } from './types.js';

function isObject(value: unknown): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Trigger-style contexts (`{tenant: "acme"}` or `{tenant: {id, data}}`) as templates read them: `{id, data}`. */
export function contextScope(context: Record<string, unknown> | null | undefined): JsonRecord {
  const out: JsonRecord = {};
  for (const [type, value] of Object.entries(context ?? {})) {
    if (typeof value === 'string') out[type] = { id: value, data: {} };
    else if (isObject(value)) out[type] = { id: value.id, data: isObject(value.data) ? value.data : {} };
  }
  return out;
}

interface ScopeInput {
  subscriber?: JsonRecord | null;
  payload?: JsonRecord | null;
  /** The trigger's actor: a subscriber record, or a subscriber id. */
  actor?: JsonRecord | string | null;
  /** The trigger's tenant: `{identifier, name?, data?}` or an identifier. */
  tenant?: JsonRecord | string | null;
  context?: Record<string, unknown> | null;
  /** Outputs of earlier steps by step id (see digestOutput for digests). */
  steps?: JsonRecord | null;
  env?: JsonRecord | null;
}

/** The scope `{subscriber, payload, actor, tenant, context, steps, env}`, every root present. */
export function buildScope(input: ScopeInput): Required<TemplateScope> {
  const actor = typeof input.actor === 'string' ? { subscriberId: input.actor } : (input.actor ?? {});
  const tenant = typeof input.tenant === 'string' ? { identifier: input.tenant } : (input.tenant ?? {});
  return {
    subscriber: input.subscriber ?? {},
    payload: input.payload ?? {},
    actor,
    tenant,
    context: contextScope(input.context),
    steps: input.steps ?? {},
    env: input.env ?? {},
  };
}

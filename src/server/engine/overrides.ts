// Trigger `overrides` as a channel step reads them (openapi.json `TriggerOverrides`): the step's own
// (`steps.<stepId>`), then the channel's (`channels.<channel>`), then the workflow-wide deprecated
// per-channel objects (`email`, `sms`, `push`, `chat`) and `layoutIdentifier`.
import type { Integration } from '../../api/schemas/resources.js';
import type { ChannelKind } from './types.js';

interface DeliveryOverrides {
  /** `<channel>.integrationIdentifier`: deliver through this integration, not the primary/first one. */
  integrationIdentifier?: string;
  /** `email.toRecipient`: the address the email goes to, instead of the subscriber's. */
  toRecipient?: string;
  /** `steps.<id>.layoutId`, `channels.email.layoutId`, `layoutIdentifier`: null means no layout. */
  layoutId?: string | null;
  /** Where each value came from, for error messages (`overrides.email.integrationIdentifier`). */
  source: Partial<Record<'integrationIdentifier' | 'toRecipient' | 'layoutId', string>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function deliveryOverrides(overrides: unknown, kind: ChannelKind, stepId: string): DeliveryOverrides {
  const out: DeliveryOverrides = { source: {} };
  if (!isObject(overrides)) return out;
  const step = isObject(overrides.steps) && isObject(overrides.steps[stepId]) ? overrides.steps[stepId] : {};
  const channels = isObject(overrides.channels) && isObject(overrides.channels[kind]) ? overrides.channels[kind] : {};
  const legacy = kind !== 'in_app' && isObject(overrides[kind]) ? (overrides[kind] as Record<string, unknown>) : {};

  for (const [where, from] of [
    [`steps.${stepId}`, step],
    [`channels.${kind}`, channels],
    [kind, legacy],
  ] as const) {
    if (out.integrationIdentifier === undefined && nonEmpty(from.integrationIdentifier)) {
      out.integrationIdentifier = from.integrationIdentifier;
      out.source.integrationIdentifier = `overrides.${where}.integrationIdentifier`;
    }
  }
  if (kind === 'email') {
    const to = legacy.toRecipient;
    if (nonEmpty(to)) {
      out.toRecipient = to.trim();
      out.source.toRecipient = 'overrides.email.toRecipient';
    }
    const layouts: [string, unknown][] = [
      [`steps.${stepId}.layoutId`, step.layoutId],
      ['channels.email.layoutId', channels.layoutId],
      ['email.layoutIdentifier', legacy.layoutIdentifier],
      ['layoutIdentifier', overrides.layoutIdentifier],
    ];
    const found = layouts.find(([, v]) => v === null || nonEmpty(v));
    if (found) {
      out.layoutId = found[1] as string | null;
      out.source.layoutId = `overrides.${found[0]}`;
    }
  }
  return out;
}

type OverrideChoice = { ok: true; integration: Integration } | { ok: false; message: string };

/** The integration an `integrationIdentifier` override names: it must exist, be active and of the channel. */
export function integrationByOverride(kind: ChannelKind, integrations: readonly Integration[], identifier: string, source: string): OverrideChoice {
  const found = integrations.find((i) => i.identifier === identifier && !i.deleted);
  if (!found) return { ok: false, message: `Integration '${identifier}' named by ${source} was not found in this environment` };
  if (found.channel !== kind)
    return { ok: false, message: `Integration '${identifier}' named by ${source} is a ${found.channel ?? 'channel-less'} integration, not ${kind}` };
  if (!found.active) return { ok: false, message: `Integration '${identifier}' named by ${source} is not active` };
  return { ok: true, integration: found };
}

// Which integration delivers a channel step, and the subscriber's credentials for it.
import type { Channel } from '../../api/schemas/enums.js';
import type { z } from 'zod';
import type { Integration, Subscriber } from '../../api/schemas/resources.js';
import type { IntegrationIssue } from '../../api/schemas/workflow.js';
import { matchesFilters, type FilterSubject } from './conditions.js';

type MissingIntegration = z.infer<typeof IntegrationIssue> & { issueType: 'MISSING_INTEGRATION' };

type IntegrationChoice = { ok: true; integration: Integration } | { ok: false; issue: MissingIntegration };

const LABEL: Record<Channel, string> = { in_app: 'In-App', email: 'Email', sms: 'SMS', chat: 'Chat', push: 'Push' };

/**
 * The integration that delivers a channel step, from the environment's integrations: active, not
 * deleted, of that channel, a delivery (not agent) integration. The primary one wins (it is the
 * service's choice for email and sms; other channels have no primary), else the first active one.
 * With a subject, integrations whose `conditions` reject the subscriber and payload are passed over;
 * without one (when computing workflow issues) conditions are not evaluated.
 */
export function chooseIntegration(channel: Channel, integrations: readonly Integration[], subject?: FilterSubject): IntegrationChoice {
  const active = integrations.filter((i) => i.channel === channel && i.active && !i.deleted && (i.kind ?? 'delivery') === 'delivery');
  if (active.length === 0) {
    return {
      ok: false,
      issue: { issueType: 'MISSING_INTEGRATION', message: `Missing active ${LABEL[channel]} integration provider: add or activate one in this environment` },
    };
  }
  const eligible = subject ? active.filter((i) => matchesFilters(i.conditions, subject)) : active;
  if (eligible.length === 0) {
    return {
      ok: false,
      issue: {
        issueType: 'MISSING_INTEGRATION',
        message: `No active ${LABEL[channel]} integration's conditions match this subscriber and payload (${active.map((i) => i.identifier).join(', ')})`,
      },
    };
  }
  const chosen = eligible.find((i) => i.primary) ?? (eligible[0] as Integration);
  return { ok: true, integration: chosen };
}

type ChannelSettings = NonNullable<Subscriber['channels']>[number];

/** The subscriber's credentials (device tokens, webhook URL...) for an integration, if any. */
export function subscriberCredentials(
  subscriber: Pick<Subscriber, 'channels'> | null | undefined,
  integration: Pick<Integration, '_id' | 'identifier' | 'providerId'>,
): ChannelSettings['credentials'] | undefined {
  const settings = subscriber?.channels ?? [];
  const match = (s: ChannelSettings) =>
    s.providerId === integration.providerId && (s.integrationIdentifier === undefined || s.integrationIdentifier === integration.identifier);
  return settings.find((s) => integration._id !== undefined && s._integrationId === integration._id)?.credentials ?? settings.find(match)?.credentials;
}

export const WEBHOOK_PROVIDERS = ['chat-webhook', 'email-webhook', 'push-webhook'] as const;

/**
 * Where a webhook provider delivers: the subscriber's own webhook URL for chat (set through their
 * channel credentials) or the integration's `webhookUrl`; signed with the integration's
 * `secretKey` when it has one. Null when the integration is not a webhook provider or has no URL.
 */
export function webhookTarget(integration: Integration, subscriber?: Pick<Subscriber, 'channels'> | null): { url: string; secret?: string } | null {
  if (!(WEBHOOK_PROVIDERS as readonly string[]).includes(integration.providerId)) return null;
  const credentials = (integration.credentials ?? {}) as Record<string, unknown>;
  const own = subscriberCredentials(subscriber, integration)?.webhookUrl;
  const url = own || (typeof credentials.webhookUrl === 'string' ? credentials.webhookUrl : '');
  if (!url) return null;
  const secret = typeof credentials.secretKey === 'string' && credentials.secretKey ? credentials.secretKey : undefined;
  return secret ? { url, secret } : { url };
}

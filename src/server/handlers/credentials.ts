// A subscriber's provider credentials (PUT replaces a provider's device tokens, PATCH adds to them,
// DELETE forgets the provider) and bulk subscriber creation, as the service's v1 subscriber API keeps
// them: one entry of `channels` per provider integration, which push and chat steps deliver to.
import type { z } from 'zod';
import type { Integration, Subscriber } from '../../api/schemas/resources.js';
import type { SubscriberCredentialsBody } from '../../api/schemas/subscriber-api.js';
import type { ChannelSettings } from '../../api/schemas/resources.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { upsertSubscriber } from '../recipients.js';
import type { Environment, Store } from '../store/index.js';
import type { Call, Route } from './types.js';

type Settings = z.infer<typeof ChannelSettings>;

/** The service's limit of device tokens per provider entry of a subscriber (its SYSTEM_LIMITS). */
const MAX_DEVICE_TOKENS = 100;
type Credentials = Settings['credentials'];

/** The environment's active integration of the provider (the one named, else the newest), as the service picks it. */
function activeIntegration(store: Store, env: Environment, providerId: string, identifier: string | undefined): Integration | undefined {
  const candidates = store.integrations
    .ofEnvironment(env.id)
    .filter((i) => i.providerId === providerId && i.active && !i.deleted && (identifier === undefined || i.identifier === identifier));
  return candidates.sort((a, b) => String(b.createdAt ?? '').localeCompare(String(a.createdAt ?? '')))[0];
}

/** Only the credentials the service keeps from a request: the webhook URL, device tokens (each once), the channel. */
function keptCredentials(given: SubscriberCredentialsBody['credentials']): Credentials {
  const out: Credentials = {};
  if (given.webhookUrl != null) out.webhookUrl = given.webhookUrl;
  if (given.deviceTokens != null) out.deviceTokens = [...new Set(given.deviceTokens)];
  if (given.channel != null) out.channel = given.channel;
  return out;
}

/**
 * The provider's entry after the request. A new entry takes the credentials sent. An existing one
 * keeps what was not sent; its device tokens become those sent (`replace`, PUT) or the union of both
 * (PATCH); an empty list sent clears them; none sent leaves an empty list, as the service writes it.
 */
function mergedChannel(existing: Settings | undefined, integration: Integration, body: SubscriberCredentialsBody, replace: boolean): Settings {
  const sent = keptCredentials(body.credentials);
  const base = { providerId: body.providerId, integrationIdentifier: integration.identifier, _integrationId: integration._id! };
  if (!existing) return { ...base, credentials: sent };
  if (JSON.stringify(existing.credentials) === JSON.stringify(sent)) return existing;
  let deviceTokens: string[] = [];
  if (sent.deviceTokens) {
    deviceTokens = sent.deviceTokens.length === 0 ? [] : [...new Set([...(replace ? [] : (existing.credentials.deviceTokens ?? [])), ...sent.deviceTokens])];
  }
  return { ...base, credentials: { ...existing.credentials, ...sent, deviceTokens } };
}

function setCredentials(replace: boolean): (call: Call<'updateSubscriberCredentials'> | Call<'appendSubscriberCredentials'>) => Subscriber {
  return ({ svc, env, params, body }) => {
    const id = params.subscriberId!;
    const { store } = svc;
    return store.tx(() => {
      const sub = store.subscribers.find(env.id, id);
      if (!sub) throw badRequest(`SubscriberId: ${id} not found`);
      const integration = activeIntegration(store, env, body.providerId, body.integrationIdentifier);
      if (!integration) throw badRequest(`Subscribers environment (${env.id}) do not have active ${body.providerId} integration.`);
      const channels = [...(sub.channels ?? [])];
      const i = channels.findIndex((c) => c.providerId === body.providerId && c._integrationId === integration._id);
      const next = mergedChannel(i >= 0 ? channels[i] : undefined, integration, body, replace);
      if (i >= 0 && next === channels[i]) return sub;
      const count = next.credentials.deviceTokens?.length ?? 0;
      if (count > MAX_DEVICE_TOKENS) {
        throw new HttpError(
          400,
          `Device tokens limit exceeded. Maximum allowed tokens per subscriber channel is ${MAX_DEVICE_TOKENS}, but got ${count} tokens.`,
          { ctx: { currentCount: count, limit: MAX_DEVICE_TOKENS } },
        );
      }
      if (i >= 0) channels[i] = next;
      else channels.push(next);
      return store.subscribers.update({ ...sub, channels } as Subscriber);
    });
  };
}

export const updateSubscriberCredentials: Route<'updateSubscriberCredentials'> = { envelope: 'data', handle: setCredentials(true) };
export const appendSubscriberCredentials: Route<'appendSubscriberCredentials'> = { envelope: 'data', handle: setCredentials(false) };

/** Forgets every entry of the provider (all its integrations); a provider without one changes nothing. */
export const deleteSubscriberCredentials: Route<'deleteSubscriberCredentials'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    const id = params.subscriberId!;
    const { store } = svc;
    store.tx(() => {
      const sub = store.subscribers.find(env.id, id);
      if (!sub) throw notFound(`Subscriber not found for id ${id}`);
      const channels = (sub.channels ?? []).filter((c) => c.providerId !== params.providerId);
      if (channels.length !== (sub.channels ?? []).length) store.subscribers.update({ ...sub, channels });
    });
    return undefined;
  },
};

/**
 * Creates or updates each subscriber, in order: one the store did not hold is `created`, the others
 * (a repeat in the same request too) `updated`; one that cannot be written is `failed` with why,
 * and the others still go through.
 */
export const bulkCreateSubscribers: Route<'bulkCreateSubscribers'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const { store } = svc;
    const result = {
      updated: [] as { subscriberId: string }[],
      created: [] as { subscriberId: string }[],
      failed: [] as { message: string; subscriberId: string }[],
    };
    for (const s of body.subscribers) {
      try {
        const existed = store.subscribers.find(env.id, s.subscriberId) !== undefined;
        store.tx(() => upsertSubscriber(store, env, s));
        (existed ? result.updated : result.created).push({ subscriberId: s.subscriberId });
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        result.failed.push({ message: e.message, subscriberId: s.subscriberId });
      }
    }
    return result;
  },
};

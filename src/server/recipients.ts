// Recipient normalisation (ground truth, "Trigger" 2-3): strings are subscriber ids, a single value
// becomes a list, topics fan out to their subscribers (less `exclude` and the actor), duplicates
// collapse into one recipient whose fields are merged in the order given.
import type { Subscriber } from '../api/schemas/resources.js';
import type { Recipient, SubscriberRecipient, TopicRecipient } from '../api/schemas/requests.js';
import type { Environment, Store } from './store/index.js';
import type { SubscriberFields } from './store/subscribers.js';

export interface Resolved {
  recipients: SubscriberRecipient[];
  topics: { _topicId: string; topicKey: string }[];
  /** Why recipients were dropped (unknown topics, ...), reported when none is left. */
  problems: string[];
}

export function resolveRecipients(store: Store, env: Environment, to: Recipient | Recipient[], actorId?: string): Resolved {
  const list = Array.isArray(to) ? to : [to];
  const byId = new Map<string, SubscriberRecipient>();
  const topics: Resolved['topics'] = [];
  const problems: string[] = [];
  const add = (r: SubscriberRecipient) => byId.set(r.subscriberId, { ...byId.get(r.subscriberId), ...r });
  for (const r of list) {
    if (typeof r === 'string') add({ subscriberId: r });
    else if ((r as { type?: unknown }).type === 'Topic' && typeof (r as { topicKey?: unknown }).topicKey === 'string') {
      const t = r as TopicRecipient;
      const topic = store.topics.find(env.id, t.topicKey);
      if (!topic) {
        problems.push(`Topic with key '${t.topicKey}' not found`);
        continue;
      }
      topics.push({ _topicId: topic.id, topicKey: topic.key });
      const exclude = new Set(t.exclude ?? []);
      const members = store.topics.subscriberIds(topic.id).filter((id) => !exclude.has(id) && id !== actorId);
      if (members.length === 0) problems.push(`Topic '${t.topicKey}' has no subscribers to notify`);
      for (const id of members) if (!byId.has(id)) add({ subscriberId: id });
    } else add(r as SubscriberRecipient);
  }
  return { recipients: [...byId.values()], topics, problems };
}

const FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

/**
 * Creates the subscriber or updates only the fields sent; `channels` merge credentials per provider.
 * `shared`: the caller only reads the record, so a recipient given by id alone that exists may be
 * the store's shared copy (Subscribers.current).
 */
export function upsertSubscriber(store: Store, env: Environment, r: SubscriberRecipient, shared = false): Subscriber {
  if (shared && onlyId(r)) {
    const existing = store.subscribers.current(env.id, r.subscriberId);
    if (existing) return existing;
  }
  const fields: SubscriberFields = {};
  for (const f of FIELDS) if (r[f] !== undefined) (fields as Record<string, unknown>)[f] = r[f];
  if (r.channels?.length) {
    const current = store.subscribers.find(env.id, r.subscriberId)?.channels ?? [];
    const channels = [...current];
    for (const ch of r.channels) {
      const integration = store.integrations.forProvider(env.id, ch.providerId, ch.integrationIdentifier);
      // Credentials for a provider the environment has no integration of cannot be used: dropped.
      if (!integration) continue;
      const i = channels.findIndex((c) => c.providerId === ch.providerId && c._integrationId === integration._id);
      const old = i >= 0 ? channels[i]!.credentials : {};
      const tokens = [...new Set([...(old.deviceTokens ?? []), ...(ch.credentials.deviceTokens ?? [])])];
      const merged = {
        providerId: ch.providerId,
        integrationIdentifier: integration.identifier,
        _integrationId: integration._id!,
        credentials: { ...old, ...ch.credentials, ...(tokens.length > 0 && { deviceTokens: tokens }) },
      };
      if (i >= 0) channels[i] = merged;
      else channels.push(merged);
    }
    fields.channels = channels;
  }
  return store.subscribers.upsert(env, r.subscriberId, fields);
}

/** A recipient that names a subscriber and sets nothing: an upsert of it writes nothing. */
function onlyId(r: SubscriberRecipient): boolean {
  for (const k in r) if (k !== 'subscriberId' && (r as Record<string, unknown>)[k] !== undefined) return false;
  return true;
}

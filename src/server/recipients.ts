// Recipient normalisation (ground truth, "Trigger" 2-3): strings are subscriber ids, a single value
// becomes a list, topics fan out to their subscribers (less `exclude`, the actor and those named
// themselves), duplicates collapse into one recipient whose fields are merged in the order given. A
// subscriber reached through topics is left out when each of their subscriptions there turned the
// workflow off, or holds a condition the payload fails, as the hosted worker weighs them.
import jsonLogic from 'json-logic-js';
import type { JsonObject } from '../api/schemas/common.js';
import type { Subscriber } from '../api/schemas/resources.js';
import type { Recipient, SubscriberRecipient, TopicRecipient } from '../api/schemas/requests.js';
import type { FanOutSubscription } from './store/inbox-subscriptions.js';
import type { Environment, Store } from './store/index.js';
import type { SubscriberFields } from './store/subscribers.js';

type TopicRef = { _topicId: string; topicKey: string };

interface Resolved {
  recipients: SubscriberRecipient[];
  /** The topics of the trigger each recipient is on and was let through by (none for one on none of them). */
  topicsOf: Map<string, TopicRef[]>;
  /** Why recipients were dropped (unknown topics, ...), reported when none is left. */
  problems: string[];
  /** How many subscribers reached through topics their subscriptions' preferences left out. */
  filtered: number;
}

/** The triggered workflow and payload, which a subscription's preference is weighed against. */
interface FanOutScope {
  workflowDbId: string;
  payload: JsonObject;
}

const isTopic = (r: Recipient): r is TopicRecipient =>
  typeof r !== 'string' && (r as { type?: unknown }).type === 'Topic' && typeof (r as { topicKey?: unknown }).topicKey === 'string';

export function resolveRecipients(store: Store, env: Environment, to: Recipient | Recipient[], actorId?: string, scope?: FanOutScope): Resolved {
  const list = Array.isArray(to) ? to : [to];
  const byId = new Map<string, SubscriberRecipient>();
  const topicsOf = new Map<string, TopicRef[]>();
  const problems: string[] = [];
  // Those named themselves are not part of a topic's fan-out (the service excludes them from it).
  const named = new Set(list.filter((r) => !isTopic(r)).map((r) => (typeof r === 'string' ? r : (r as SubscriberRecipient).subscriberId)));
  // Subscribers reached through topics, and those of them some topic lets through.
  const passed = new Set<string>();
  const add = (r: SubscriberRecipient) => byId.set(r.subscriberId, { ...byId.get(r.subscriberId), ...r });
  for (const r of list) {
    if (typeof r === 'string') add({ subscriberId: r });
    else if (isTopic(r)) {
      const topic = store.topics.find(env.id, r.topicKey);
      if (!topic) {
        problems.push(`Topic with key '${r.topicKey}' not found`);
        continue;
      }
      const ref = { _topicId: topic.id, topicKey: topic.key };
      const exclude = new Set(r.exclude ?? []);
      const members = store.topics.subscriberIds(topic.id).filter((id) => !exclude.has(id) && id !== actorId);
      if (members.length === 0) problems.push(`Topic '${r.topicKey}' has no subscribers to notify`);
      const blocked = scope ? blockedIn(store.inbox.subscriptions.forFanOut(topic.id, scope.workflowDbId), scope.payload) : new Set<string>();
      for (const id of members) {
        if (!named.has(id) && !byId.has(id)) add({ subscriberId: id });
        if (blocked.has(id)) continue;
        passed.add(id);
        // The event names the topics it came through (one named in `to` who is a member too included).
        topicsOf.set(id, [...(topicsOf.get(id) ?? []), ref]);
      }
    } else add(r as SubscriberRecipient);
  }
  let filtered = 0;
  const recipients = [...byId.values()].filter((r) => {
    const keep = named.has(r.subscriberId) || passed.has(r.subscriberId);
    if (!keep) filtered++;
    return keep;
  });
  return { recipients, topicsOf, problems, filtered };
}

/**
 * The subscribers of a topic it does not reach: each of their subscriptions there has a preference for
 * the workflow that fails. A subscription without one passes; with a condition, the condition decides
 * (JSON logic over `{ payload }`, anything but `true` fails, an error too), else its `enabled`.
 */
function blockedIn(subscriptions: readonly FanOutSubscription[], payload: JsonObject): Set<string> {
  const verdict = new Map<string, boolean>();
  for (const s of subscriptions) {
    if (verdict.get(s.subscriberId) === true) continue;
    verdict.set(s.subscriberId, s.preference === undefined || preferencePasses(s.preference, payload));
  }
  return new Set([...verdict].filter(([, passes]) => !passes).map(([id]) => id));
}

function preferencePasses(p: { enabled: boolean; condition: unknown }, payload: JsonObject): boolean {
  if (p.condition === undefined || p.condition === null) return p.enabled;
  try {
    return jsonLogic.apply(p.condition as jsonLogic.RulesLogic, { payload }) === true;
  } catch {
    return false;
  }
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

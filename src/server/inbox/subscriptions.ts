// The subscriber's own topic subscriptions through the Inbox API, as `@novu/js` 3.19 calls them
// (`novu.subscriptions.*`): list, get, create, rename and delete a subscription of a topic, and its
// preferences per workflow (on or off, or a JSON Logic condition), one at a time or in bulk. A
// subscriber sees and changes only their own subscriptions: another's identifier is "not found".
// And `POST /v1/inbox/events`, the keyless demo's trigger, refused as the service refuses it outside
// a keyless environment (svc dev has none).
import type { z } from 'zod';
import {
  CreateInboxSubscriptionBody,
  InboxBulkPreferenceBody,
  InboxEventBody,
  InboxSubscriptionPreferenceBody,
  MAX_SUBSCRIPTIONS_PER_TOPIC,
  TopicKey,
  UpdateInboxSubscriptionBody,
} from '../../api/schemas/inbox.js';
import { HttpError } from '../errors.js';
import { defaultSubscriptionIdentifier, type SubscriptionPreferenceRow, type SubscriptionRow } from '../store/inbox-subscriptions.js';
import type { Store } from '../store/index.js';
import type { ChannelSwitches } from '../store/subscriber-preferences.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { CHANNEL_KINDS } from '../engine/types.js';
import type { InboxRouteName } from '../../api/inbox-routes.js';
import { type InboxRoute, subscriberRoute, validate, type Who } from './http.js';
import { setPreference, workflowPreference } from './preference-views.js';

type PreferenceInput = NonNullable<z.infer<typeof CreateInboxSubscriptionBody>['preferences']>[number];
interface Group {
  filter: { workflowIds?: string[] | undefined; tags?: string[] | undefined };
  enabled?: boolean | undefined;
  condition?: unknown;
}

/**
 * Without context-aware preferences (svc dev's sessions carry no context), the service drops the
 * `:ctx_…` part a context-aware client adds to the identifiers it builds.
 */
const withoutContext = (identifier: string) => {
  const i = identifier.lastIndexOf(':ctx_');
  return i === -1 ? identifier : identifier.slice(0, i);
};

const workflowView = (w: StoredWorkflow) => ({
  id: w._id,
  identifier: w.workflowId,
  name: w.name,
  critical: w.critical,
  tags: w.tags,
  severity: w.severity,
});

function preferenceView(store: Store, s: SubscriptionRow, p: SubscriptionPreferenceRow) {
  const w = store.workflows.findById(p.workflowDbId);
  return {
    ...(w && { workflow: workflowView(w) }),
    subscriptionId: s.identifier,
    enabled: p.enabled,
    ...(p.condition !== undefined && { condition: p.condition }),
  };
}

function subscriptionView(store: Store, s: SubscriptionRow) {
  const preferences = s.implicit ? [] : store.inbox.subscriptions.preferences(s.id).map((p) => preferenceView(store, s, p));
  return { id: s.id, identifier: s.identifier, name: s.name ?? undefined, ...(preferences.length > 0 && { preferences }) };
}

/** As a preference of the Inbox's (PATCH …/preferences/:workflow) shows it, with its subscription. */
function subscriptionPreferenceView(store: Store, s: SubscriptionRow, w: StoredWorkflow) {
  const p = store.inbox.subscriptions.preference(s.id, w._id);
  const enabled = p?.enabled ?? true;
  const kinds = new Set<string>(w.steps.map((step) => step.type));
  const channels = Object.fromEntries(CHANNEL_KINDS.filter((c) => kinds.has(c)).map((c) => [c, p?.channels[c] ?? enabled]));
  return {
    level: 'template',
    enabled,
    channels,
    workflow: workflowView(w),
    subscriptionId: s.identifier,
    ...(p?.condition !== undefined && { condition: p.condition }),
  };
}

const asGroup = (p: PreferenceInput): Group =>
  typeof p === 'string'
    ? { filter: { workflowIds: [p] } }
    : 'filter' in p
      ? p
      : { filter: { workflowIds: [p.workflowId] }, enabled: p.enabled, condition: p.condition };

/**
 * The workflows the groups name (by id, identifier or tag), each with the first group that names it.
 * `strict`: a name that matches nothing is a 404, as the service's create answers (its update skips it).
 */
function resolveGroups(store: Store, w: Who, groups: Group[], strict: boolean): { workflow: StoredWorkflow; group: Group }[] {
  const found = new Map<string, { workflow: StoredWorkflow; group: Group }>();
  const missingIds: string[] = [];
  const missingTags: string[] = [];
  const active = () => store.workflows.all(w.env.id).filter((x) => x.active);
  for (const group of groups) {
    const byTag = group.filter.tags?.length ? active().filter((x) => x.tags.some((t) => group.filter.tags!.includes(t))) : [];
    for (const tag of group.filter.tags ?? []) if (!byTag.some((x) => x.tags.includes(tag))) missingTags.push(tag);
    const byId: StoredWorkflow[] = [];
    for (const id of group.filter.workflowIds ?? []) {
      const x = store.workflows.find(w.env.id, id);
      if (x) byId.push(x);
      else missingIds.push(id);
    }
    for (const x of [...byTag, ...byId]) if (!found.has(x._id)) found.set(x._id, { workflow: x, group });
  }
  if (strict && (missingIds.length > 0 || missingTags.length > 0)) {
    const parts = [];
    if (missingIds.length > 0) parts.push(`Workflows not found: ${missingIds.join(', ')}. Please verify the workflow IDs or identifiers exist.`);
    if (missingTags.length > 0)
      parts.push(`No workflows found for tags: ${missingTags.join(', ')}. Please verify the tags exist and have associated workflows.`);
    throw new HttpError(404, parts.join(' '));
  }
  return [...found.values()];
}

/** Replaces the subscription's preferences with those of `groups`. */
function setPreferences(store: Store, w: Who, s: SubscriptionRow, groups: Group[], strict: boolean): void {
  const resolved = resolveGroups(store, w, groups, strict);
  store.inbox.subscriptions.clearPreferences(s.id);
  for (const { workflow, group } of resolved) {
    // Not given: the subscriber's own choice for the workflow now.
    const enabled = group.enabled ?? workflowPreference(store, w.env, w.subscriber._id, workflow._id).enabled;
    store.inbox.subscriptions.setPreference(s.id, { workflowDbId: workflow._id, enabled, condition: group.condition, channels: {} });
  }
}

function topicOf(store: Store, w: Who, key: string) {
  const t = store.topicAdmin.find(w.env.id, key);
  if (!t) throw new HttpError(404, `Topic with key ${key} not found`);
  return t;
}

/** The subscriber's subscription with that identifier (in any topic), or a 404. */
function ownSubscription(store: Store, w: Who, identifier: string): SubscriptionRow {
  const s = store.inbox.subscriptions.byIdentifier(w.subscriber._id, w.subscriber.subscriberId, withoutContext(identifier));
  if (!s) throw new HttpError(404, `Subscription with identifier ${identifier} not found`);
  return s;
}

/** Sets a subscription's preference for one workflow; the workflow named by id or identifier. */
function setSubscriptionPreference(store: Store, w: Who, identifier: string, workflowId: string, body: z.infer<typeof InboxSubscriptionPreferenceBody>) {
  const s = store.inbox.subscriptions.materialize(ownSubscription(store, w, identifier));
  const workflow = store.workflows.find(w.env.id, workflowId);
  if (!workflow) throw new HttpError(404, `Workflow with id: ${workflowId} is not found`);
  if (workflow.critical) throw new HttpError(400, `Critical workflow with id: ${workflowId} can not be updated`);
  const { enabled, condition, ...switches } = body;
  const channels = Object.fromEntries(Object.entries(switches).filter(([, v]) => v !== undefined)) as ChannelSwitches;
  const kept = store.inbox.subscriptions.preference(s.id, workflow._id);
  store.inbox.subscriptions.setPreference(s.id, {
    workflowDbId: workflow._id,
    enabled: enabled ?? kept?.enabled ?? true,
    condition: condition !== undefined ? condition : kept?.condition,
    channels,
  });
  return subscriptionPreferenceView(store, s, workflow);
}

/** `PATCH /v1/inbox/preferences/bulk`: workflow switches, and subscription preferences for items naming one. */
function bulkPreferences(store: Store, w: Who, input: unknown) {
  const { preferences } = validate(InboxBulkPreferenceBody, input ?? {});
  const missing = preferences.filter((p) => !store.workflows.find(w.env.id, p.workflowId)).map((p) => p.workflowId);
  if (missing.length > 0) throw new HttpError(404, `Workflows with ids: ${missing.join(', ')} not found`);
  return preferences.map(({ workflowId, subscriptionIdentifier, enabled, condition, ...channels }) => {
    if (subscriptionIdentifier !== undefined)
      return setSubscriptionPreference(store, w, subscriptionIdentifier, workflowId, { enabled, condition, ...channels });
    const id = setPreference(store, w.env, w.subscriber._id, workflowId, channels);
    return workflowPreference(store, w.env, w.subscriber._id, id);
  });
}

type Topic = { topicKey: string };
type One = { topicKey: string; identifier: string };

/** The routes of `inboxRoutes` this file answers. */
export const subscriptionHandlers = {
  // A workflow's switches, or a topic subscription's (items naming a subscriptionIdentifier).
  bulkInboxPreferences: subscriberRoute((req, w, { svc: { store } }) => ({ status: 200, body: { data: bulkPreferences(store, w, req.body) } })),

  listInboxTopicSubscriptions: subscriberRoute<Topic>((req, w, { svc: { store } }) => {
    const t = store.topicAdmin.find(w.env.id, req.params.topicKey);
    const rows = t ? store.inbox.subscriptions.ofTopic(t._id, w.subscriber._id, w.subscriber.subscriberId) : [];
    return { status: 200, body: { data: rows.map((s) => subscriptionView(store, s)) } };
  }),

  getInboxTopicSubscription: subscriberRoute<One>((req, w, { svc: { store } }) => {
    const t = store.topicAdmin.find(w.env.id, req.params.topicKey);
    const s = t && store.inbox.subscriptions.find(t._id, w.subscriber._id, w.subscriber.subscriberId, withoutContext(req.params.identifier));
    // None of the subscriber's: an empty answer, as the service gives.
    return s ? { status: 200, body: { data: subscriptionView(store, s) } } : { status: 204 };
  }),

  createInboxTopicSubscription: subscriberRoute<Topic>((req, w, { svc: { store } }) => {
    const body = validate(CreateInboxSubscriptionBody, req.body ?? {});
    const { topicKey } = req.params;
    const identifier = withoutContext(body.identifier || defaultSubscriptionIdentifier(topicKey, w.subscriber.subscriberId));
    const groups = (body.preferences ?? []).map(asGroup);
    resolveGroups(store, w, groups, true);
    let t = store.topicAdmin.find(w.env.id, topicKey);
    if (!t) {
      if (!TopicKey.safeParse(topicKey).success) {
        throw new HttpError(
          400,
          `Invalid topic key: "${topicKey}". Topic keys must contain only alphanumeric characters (a-z, A-Z, 0-9), hyphens (-), underscores (_) or colons (:).`,
        );
      }
      store.topics.upsert(w.env, topicKey, body.topic?.name);
      t = store.topicAdmin.find(w.env.id, topicKey)!;
    } else if (body.topic?.name) t = store.topicAdmin.rename(w.env.id, topicKey, body.topic.name)!;
    const existing = store.inbox.subscriptions.find(t._id, w.subscriber._id, w.subscriber.subscriberId, identifier);
    if (existing) return { status: 201, body: { data: subscriptionView(store, existing) } };
    if (store.inbox.subscriptions.count(t._id, w.subscriber._id) >= MAX_SUBSCRIPTIONS_PER_TOPIC) {
      throw new HttpError(
        400,
        `Subscriber ${w.subscriber.subscriberId} has reached the maximum allowed of ${MAX_SUBSCRIPTIONS_PER_TOPIC} subscriptions for topic "${t.key}"`,
      );
    }
    const s = store.inbox.subscriptions.create(t._id, w.subscriber._id, identifier, body.name);
    if (groups.length > 0) setPreferences(store, w, s, groups, true);
    return { status: 201, body: { data: subscriptionView(store, s) } };
  }),

  updateInboxTopicSubscription: subscriberRoute<One>((req, w, { svc: { store } }) => {
    const body = validate(UpdateInboxSubscriptionBody, req.body ?? {});
    const { topicKey, identifier } = req.params;
    const t = topicOf(store, w, topicKey);
    const found = store.inbox.subscriptions.find(t._id, w.subscriber._id, w.subscriber.subscriberId, withoutContext(identifier));
    if (!found) throw new HttpError(404, `Subscription with identifier ${identifier} not found for topic ${topicKey}`);
    const s = store.inbox.subscriptions.materialize(found);
    if (body.preferences !== undefined) setPreferences(store, w, s, body.preferences.map(asGroup), false);
    if (body.name !== undefined) store.inbox.subscriptions.rename(s.id, body.name);
    return { status: 200, body: { data: subscriptionView(store, store.inbox.subscriptions.byId(s.id)!) } };
  }),

  deleteInboxTopicSubscription: subscriberRoute<One>((req, w, { svc: { store } }) => {
    const { topicKey, identifier } = req.params;
    const t = topicOf(store, w, topicKey);
    const s = store.inbox.subscriptions.find(t._id, w.subscriber._id, w.subscriber.subscriberId, withoutContext(identifier));
    if (!s) throw new HttpError(404, `Subscription with identifier ${identifier} not found`);
    if (s.implicit) store.topicAdmin.unsubscribe(t._id, w.subscriber._id);
    else store.inbox.subscriptions.remove(s);
    return { status: 200, body: { data: { success: true } } };
  }),

  updateInboxSubscriptionPreference: subscriberRoute<{ identifier: string; workflow: string }>((req, w, { svc: { store } }) => {
    const body = validate(InboxSubscriptionPreferenceBody, req.body ?? {});
    return { status: 200, body: { data: setSubscriptionPreference(store, w, req.params.identifier, req.params.workflow, body) } };
  }),

  triggerInboxEvent: subscriberRoute((req, w) => {
    const body = validate(InboxEventBody, req.body ?? {});
    if (body.name !== 'hello-world') throw new HttpError(403, 'Inbox subscribers may only trigger the "hello-world" workflow.');
    const to = body.to as { subscriberId?: unknown } | string | undefined;
    const self = typeof to === 'string' ? to : to !== null && typeof to === 'object' && !Array.isArray(to) ? to.subscriberId : undefined;
    if (self !== w.subscriber.subscriberId) throw new HttpError(403, 'Inbox subscribers may only trigger notifications for themselves.');
    throw new HttpError(403, 'Inbox events can only be triggered from a keyless environment.');
  }),
} satisfies Partial<Record<InboxRouteName, InboxRoute>>;

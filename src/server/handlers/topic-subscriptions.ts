// Topic subscriptions read and changed by the operator: a subscriber's subscriptions, the v1 check of
// one subscriber's membership, and one subscription of a topic by its identifier (read, renamed, its
// workflow preferences replaced). The same rows as the Inbox's own subscriptions (store/inbox-
// subscriptions.ts): a subscriber put on a topic by the API holds one under the default identifier.
import type { Subscriber } from '../../api/schemas/resources.js';
import type { UpdateTopicSubscriptionBody } from '../../api/schemas/subscriber-api.js';
import { badRequest, notFound } from '../errors.js';
import { workflowPreference } from '../inbox/preference-views.js';
import { defaultSubscriptionIdentifier, type SubscriptionRow } from '../store/inbox-subscriptions.js';
import type { Environment, Store } from '../store/index.js';
import type { TopicRecord } from '../store/topic-admin.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { cursorArgs, type Route } from './types.js';

const topicView = (t: { _id: string; key: string; name: string | null }) => ({ _id: t._id, key: t.key, name: t.name });
const subscriberView = (s: Subscriber) => ({
  _id: s._id!,
  subscriberId: s.subscriberId,
  avatar: s.avatar ?? null,
  firstName: s.firstName ?? null,
  lastName: s.lastName ?? null,
  email: s.email ?? null,
});

function topicOf(store: Store, env: Environment, key: string): TopicRecord {
  const t = store.topicAdmin.find(env.id, key);
  if (!t) throw notFound(`Topic with key ${key} not found`);
  return t;
}

/** The subscriber a default identifier names (`tk_{key}:si_{id}`, or the operator list's `tk={key}:si={id}`). */
function namedSubscriber(identifier: string, key: string): string | undefined {
  for (const [tk, si] of [
    ['tk_', ':si_'],
    ['tk=', ':si='],
  ] as const) {
    const prefix = `${tk}${key}${si}`;
    if (identifier.startsWith(prefix) && identifier.length > prefix.length) return identifier.slice(prefix.length);
  }
  return undefined;
}

/** The topic's subscription with that identifier, whoever holds it, with its subscriber; or a 404. */
function subscriptionOf(store: Store, env: Environment, key: string, identifier: string): { row: SubscriptionRow; subscriber: Subscriber; topic: TopicRecord } {
  const topic = topicOf(store, env, key);
  const holder = store.subscriptionLookup.holderOf(topic._id, identifier);
  const named = holder === undefined ? namedSubscriber(identifier, key) : undefined;
  const subscriber = holder !== undefined ? store.subscribers.findById(holder) : named !== undefined ? store.subscribers.find(env.id, named) : undefined;
  const wanted = holder !== undefined || named === undefined ? identifier : defaultSubscriptionIdentifier(key, named);
  const row = subscriber && store.inbox.subscriptions.find(topic._id, subscriber._id!, subscriber.subscriberId, wanted);
  if (!row || !subscriber) throw notFound(`Subscription with identifier ${identifier} not found for topic ${key}`);
  return { row, subscriber, topic };
}

function detailsView(store: Store, row: SubscriptionRow, subscriber: Subscriber, topic: TopicRecord) {
  const preferences = row.implicit
    ? []
    : store.inbox.subscriptions.preferences(row.id).map((p) => {
        const w = store.workflows.findById(p.workflowDbId);
        return {
          subscriptionId: row.id,
          ...(w && { workflow: { id: w._id, identifier: w.workflowId, name: w.name, critical: w.critical, tags: w.tags, severity: w.severity } }),
          enabled: p.enabled,
          ...(p.condition !== undefined && { condition: p.condition }),
        };
      });
  return {
    _id: row.id,
    identifier: row.identifier,
    ...(row.name !== null && { name: row.name }),
    topic: topicView(topic),
    subscriber: subscriberView(subscriber),
    preferences,
    contextKeys: [],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export const getTopicSubscription: Route<'getTopicSubscription'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const { row, subscriber, topic } = subscriptionOf(svc.store, env, params.topicKey!, params.identifier!);
    // The service answers this one without its topic, subscriber and dates.
    const { _id, identifier, name, preferences, contextKeys } = detailsView(svc.store, row, subscriber, topic);
    return { id: _id, identifier, ...(name !== undefined && { name }), preferences, contextKeys };
  },
};

type PreferenceInput = NonNullable<UpdateTopicSubscriptionBody['preferences']>[number];
interface Group {
  workflowIds: string[];
  tags: string[];
  enabled?: boolean | undefined;
  condition?: unknown;
}
function asGroup(p: PreferenceInput): Group {
  if (typeof p === 'string') return { workflowIds: [p], tags: [] };
  if ('workflowId' in p && typeof p.workflowId === 'string') return { workflowIds: [p.workflowId], tags: [], enabled: p.enabled, condition: p.condition };
  const filter = (p as { filter: { workflowIds?: string[] | undefined; tags?: string[] | undefined } }).filter;
  return { workflowIds: filter.workflowIds ?? [], tags: filter.tags ?? [], enabled: p.enabled, condition: p.condition };
}

/** The workflows the groups name (id, identifier or tag of an active one), each with the first group naming it; unknown names are passed over. */
function namedWorkflows(store: Store, env: Environment, groups: Group[]): { workflow: StoredWorkflow; group: Group }[] {
  const found = new Map<string, { workflow: StoredWorkflow; group: Group }>();
  for (const group of groups) {
    const byTag = group.tags.length > 0 ? store.workflows.all(env.id).filter((w) => w.active && w.tags.some((t) => group.tags.includes(t))) : [];
    const byId = group.workflowIds.map((id) => store.workflows.find(env.id, id)).filter((w): w is StoredWorkflow => w !== undefined);
    for (const workflow of [...byTag, ...byId]) if (!found.has(workflow._id)) found.set(workflow._id, { workflow, group });
  }
  return [...found.values()];
}

export const updateTopicSubscription: Route<'updateTopicSubscription'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const found = subscriptionOf(store, env, params.topicKey!, params.identifier!);
      const row = store.inbox.subscriptions.materialize(found.row);
      if (body.preferences !== undefined) {
        const named = namedWorkflows(store, env, body.preferences.map(asGroup));
        store.inbox.subscriptions.clearPreferences(row.id);
        for (const { workflow, group } of named) {
          // Not given: the subscriber's own choice for the workflow now.
          const enabled = group.enabled ?? workflowPreference(store, env, found.subscriber._id!, workflow._id).enabled;
          store.inbox.subscriptions.setPreference(row.id, { workflowDbId: workflow._id, enabled, condition: group.condition, channels: {} });
        }
      }
      if (body.name !== undefined) store.inbox.subscriptions.rename(row.id, body.name);
      return detailsView(store, store.inbox.subscriptions.byId(row.id)!, found.subscriber, found.topic);
    });
  },
};

/** GET /v1/topics/{topicKey}/subscribers/{externalSubscriberId}: whether the subscriber is on the topic. */
export const getTopicSubscriber: Route<'getTopicSubscriber'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const key = params.topicKey!;
    const external = params.externalSubscriberId!;
    const topic = svc.store.topicAdmin.find(env.id, key);
    const sub = svc.store.subscribers.find(env.id, external);
    const member = topic && sub ? svc.store.topicAdmin.subscription(topic._id, sub._id!) : undefined;
    if (!topic || !sub || !member) throw notFound(`Subscriber ${external} not found for topic ${key} in the environment ${env.id}`);
    return {
      _id: member._id,
      _organizationId: env.orgId,
      _environmentId: env.id,
      _subscriberId: sub._id!,
      _topicId: topic._id,
      topicKey: topic.key,
      externalSubscriberId: external,
      createdAt: member.createdAt,
    };
  },
};

/** GET /v2/subscribers/{subscriberId}/subscriptions: every subscription the subscriber holds, by id, in pages. */
export const listSubscriberSubscriptions: Route<'listSubscriberSubscriptions'> = {
  envelope: 'raw',
  handle({ svc, env, params, query }) {
    const { store } = svc;
    const id = params.subscriberId!;
    const sub = store.subscribers.find(env.id, id);
    if (!sub) throw notFound('Subscriber not found');
    if (query.after !== undefined && query.before !== undefined) throw badRequest('Cannot specify both "before" and "after" cursors at the same time.');
    const { after, before, includeCursor, limit, orderDirection } = cursorArgs(query);
    // Subscriptions carry no context here: a filter naming any context matches none.
    const all =
      query.contextKeys && query.contextKeys.length > 0
        ? []
        : store.subscriptionLookup.topicsOf(sub._id!, query.key).flatMap((m) =>
            store.inbox.subscriptions.ofTopic(m.topicId, sub._id!, sub.subscriberId).map((row) => ({
              _id: row.id,
              identifier: row.identifier,
              createdAt: row.createdAt,
              topic: { _id: m.topicId, key: m.topicKey, name: m.topicName },
              subscriber: subscriberView(sub),
              contextKeys: [] as string[],
            })),
          );
    all.sort((a, b) => (orderDirection === 'ASC' ? a._id.localeCompare(b._id) : b._id.localeCompare(a._id)));
    const at = (cursor: string) => all.findIndex((s) => s._id === cursor);
    let start = 0;
    let end = all.length;
    if (after !== undefined) start = at(after) < 0 ? all.length : at(after) + (includeCursor ? 0 : 1);
    if (before !== undefined) end = at(before) < 0 ? 0 : at(before) + (includeCursor ? 1 : 0);
    const window = all.slice(start, end);
    const data = before !== undefined ? window.slice(-limit) : window.slice(0, limit);
    const firstAt = data.length > 0 ? all.indexOf(data[0]!) : -1;
    const lastAt = data.length > 0 ? all.indexOf(data.at(-1)!) : -1;
    return {
      data,
      next: lastAt >= 0 && lastAt < all.length - 1 ? data.at(-1)!._id : null,
      previous: firstAt > 0 ? data[0]!._id : null,
      totalCount: all.length,
      totalCountCapped: false,
    };
  },
};

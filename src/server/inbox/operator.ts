// The operator API around the Inbox (API-key routes of the operation table): the environment with its
// application identifier, a subscriber's preferences, topics and their subscriptions, and the
// integration update that switches the in-app integration's HMAC on.
import type { Subscriber } from '../../api/schemas/resources.js';
import { conflict, HttpError, notFound } from '../errors.js';
import type { Route } from '../handlers/types.js';
import type { Environment, Store } from '../store/index.js';
import type { SubscriptionRecord, TopicRecord } from '../store/topic-admin.js';
import { parseDoc } from '../store/repo.js';
import { integrationView } from '../views.js';
import { listPreferences, setPreference, workflowPreference } from './preference-views.js';

export const getCurrentEnvironment: Route<'getCurrentEnvironment'> = {
  envelope: 'data',
  handle: ({ svc, env }) => ({
    _id: env.id,
    name: env.name,
    _organizationId: env.orgId,
    identifier: svc.store.tx(() => svc.store.inbox.settings(env.id).identifier),
    _parentId: env.parentId,
  }),
};

export const updateIntegration: Route<'updateIntegration'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const id = params.integrationId!;
    const { store } = svc;
    return store.tx(() => {
      const doc = store.topicAdmin.integrationDoc(env.id, id);
      if (!doc) throw notFound(`Integration with id ${id} not found`);
      if (body.identifier !== undefined && body.identifier !== doc.identifier && store.integrations.findByIdentifier(env.id, body.identifier)) {
        throw conflict(`Integration with identifier ${body.identifier} already exists`);
      }
      const next = {
        ...doc,
        ...(body.name !== undefined && { name: body.name }),
        ...(body.identifier !== undefined && { identifier: body.identifier }),
        ...(body.active !== undefined && { active: body.active }),
        // Credentials are merged, as the service's update does: `{hmac: true}` keeps the others.
        ...(body.credentials !== undefined && { credentials: { ...doc.credentials, ...body.credentials } }),
        ...(body.conditions !== undefined && { conditions: body.conditions as typeof doc.conditions }),
        ...(body.configurations !== undefined && { configurations: { ...doc.configurations, ...body.configurations } }),
      };
      // An inactive integration cannot stay primary.
      if (next.active === false) next.primary = false;
      store.integrations.replace(next);
      return integrationView(store.topicAdmin.integrationDoc(env.id, id)!);
    });
  },
};

// --- subscriber preferences ------------------------------------------------------------------------

function subscriberOf(store: Store, env: Environment, subscriberId: string): Subscriber & { _id: string } {
  const s = store.subscribers.find(env.id, subscriberId);
  if (!s) throw notFound(`Subscriber: ${subscriberId} was not found`);
  return s as Subscriber & { _id: string };
}

function preferencesView(store: Store, env: Environment, subscriberDbId: string) {
  const [global, ...workflows] = listPreferences(store, env, subscriberDbId, { criticality: 'all' });
  return {
    global: { enabled: global!.enabled, channels: global!.channels, ...(global!.schedule && { schedule: global!.schedule }) },
    workflows: workflows.map(workflowView),
  };
}

function workflowView(p: ReturnType<typeof workflowPreference>) {
  const w = p.workflow!;
  return {
    enabled: p.enabled,
    channels: p.channels,
    overrides: [],
    workflow: { slug: w.identifier, identifier: w.identifier, name: w.name, critical: w.critical, ...(w.tags && { tags: w.tags }) },
  };
}

export const getSubscriberPreferences: Route<'getSubscriberPreferences'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const s = subscriberOf(svc.store, env, params.subscriberId!);
    return preferencesView(svc.store, env, s._id);
  },
};

export const patchSubscriberPreferences: Route<'patchSubscriberPreferences'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const s = subscriberOf(store, env, params.subscriberId!);
      if (body.schedule !== undefined && body.workflowId !== undefined) throw new HttpError(400, 'schedule is a global preference: leave workflowId out');
      setPreference(store, env, s._id, body.workflowId, body.channels ?? {}, body.schedule);
      return preferencesView(store, env, s._id);
    });
  },
};

export const bulkSubscriberPreferences: Route<'bulkSubscriberPreferences'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const s = subscriberOf(store, env, params.subscriberId!);
      const ids = body.preferences.map((p) => setPreference(store, env, s._id, p.workflowId, p.channels));
      return ids.map((id) => workflowView(workflowPreference(store, env, s._id, id)));
    });
  },
};

// --- topics ------------------------------------------------------------------------------------------

function topicOf(store: Store, env: Environment, key: string): TopicRecord {
  const t = store.topicAdmin.find(env.id, key);
  if (!t) throw notFound(`Topic with key ${key} not found`);
  return t;
}

function subscriptionView(t: TopicRecord, r: SubscriptionRecord) {
  const s = parseDoc<Subscriber>(r.subscriberDoc);
  return {
    _id: r._id,
    // As the service names a subscription: topic key and subscriber id.
    identifier: `tk=${t.key}:si=${r.subscriberId}`,
    topic: { _id: t._id, key: t.key, name: t.name },
    subscriber: {
      _id: r.subscriberDbId,
      subscriberId: r.subscriberId,
      firstName: s.firstName ?? null,
      lastName: s.lastName ?? null,
      email: s.email ?? null,
      avatar: s.avatar ?? null,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    },
    createdAt: r.createdAt,
    updatedAt: r.createdAt,
  };
}

export const listTopics: Route<'listTopics'> = {
  envelope: 'raw',
  handle: ({ svc, env, query }) => svc.store.topicAdmin.list(env.id, { ...query, limit: query.limit ?? 10 }),
};

export const createTopic: Route<'createTopic'> = {
  envelope: 'data',
  handle({ svc, env, body, query }) {
    const { store } = svc;
    return store.tx(() => {
      const existing = store.topicAdmin.find(env.id, body.key);
      if (existing && query.failIfExists === 'true') throw conflict(`Topic with key ${body.key} already exists`);
      if (existing) return body.name !== undefined ? store.topicAdmin.rename(env.id, body.key, body.name)! : existing;
      store.topics.upsert(env, body.key, body.name);
      return store.topicAdmin.find(env.id, body.key)!;
    });
  },
};

export const getTopic: Route<'getTopic'> = {
  envelope: 'data',
  handle: ({ svc, env, params }) => topicOf(svc.store, env, params.topicKey!),
};

export const updateTopic: Route<'updateTopic'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      topicOf(svc.store, env, params.topicKey!);
      return svc.store.topicAdmin.rename(env.id, params.topicKey!, body.name)!;
    });
  },
};

export const deleteTopic: Route<'deleteTopic'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    if (!svc.store.tx(() => svc.store.topicAdmin.remove(env.id, params.topicKey!))) throw notFound(`Topic with key ${params.topicKey} not found`);
    return { acknowledged: true };
  },
};

export const listTopicSubscriptions: Route<'listTopicSubscriptions'> = {
  envelope: 'raw',
  handle({ svc, env, params, query }) {
    const t = topicOf(svc.store, env, params.topicKey!);
    const page = svc.store.topicAdmin.subscriptions(t._id, { ...query, limit: query.limit ?? 10 });
    return {
      data: page.rows.map((r) => subscriptionView(t, r)),
      next: page.more ? (page.rows.at(-1)?.subscriberDbId ?? null) : null,
      previous: null,
      totalCount: page.totalCount,
      totalCountCapped: false,
    };
  },
};

function subscriptionsChange(store: Store, env: Environment, key: string, subscriberIds: string[], subscribe: boolean) {
  // Subscribing to a topic that does not exist makes it, as the service does.
  if (subscribe && !store.topicAdmin.find(env.id, key)) store.topics.upsert(env, key);
  const t = topicOf(store, env, key);
  const data: ReturnType<typeof subscriptionView>[] = [];
  const errors: { subscriberId: string; code: string; message: string }[] = [];
  for (const id of [...new Set(subscriberIds)]) {
    const s = store.subscribers.find(env.id, id);
    if (!s?._id) {
      errors.push({ subscriberId: id, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber with id '${id}' could not be found` });
      continue;
    }
    const before = store.topicAdmin.subscription(t._id, s._id);
    if (subscribe) {
      if (!before) store.topics.subscribe(t._id, s._id);
      data.push(subscriptionView(t, store.topicAdmin.subscription(t._id, s._id)!));
    } else if (before) {
      store.topicAdmin.unsubscribe(t._id, s._id);
      data.push(subscriptionView(t, before));
    } else {
      errors.push({ subscriberId: id, code: 'SUBSCRIPTION_NOT_FOUND', message: `Subscriber '${id}' is not subscribed to topic '${key}'` });
    }
  }
  store.topicAdmin.touch(t._id);
  return { data, meta: { totalCount: subscriberIds.length, successful: data.length, failed: errors.length }, errors };
}

export const createTopicSubscriptions: Route<'createTopicSubscriptions'> = {
  envelope: 'raw',
  handle: ({ svc, env, params, body }) => svc.store.tx(() => subscriptionsChange(svc.store, env, params.topicKey!, body.subscriberIds, true)),
};

export const deleteTopicSubscriptions: Route<'deleteTopicSubscriptions'> = {
  envelope: 'raw',
  handle: ({ svc, env, params, body }) => svc.store.tx(() => subscriptionsChange(svc.store, env, params.topicKey!, body.subscriberIds, false)),
};

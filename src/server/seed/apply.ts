// Loading seed content into an environment. Records are matched by their natural key (workflowId,
// integration identifier, subscriberId, context type+id, tenant identifier, topic key): existing ones
// are left as they are, so starting again with the same seed file adds nothing twice.
import { ServiceInputError } from '../errors.js';
import { upsertSubscriber } from '../recipients.js';
import type { Environment, Store } from '../store/index.js';
import { SERVICE_PROVIDER } from '../store/integrations.js';
import { demoSeed } from './demo.js';
import type { SeedContent, SeedFile } from './schema.js';

const IN_APP_IDENTIFIER = 'svc-in-app';

/**
 * What every new environment of the service starts with, demo data or not: the service's own in-app
 * integration, without which in-app steps have nothing to deliver through (MISSING_INTEGRATION).
 */
export function addBuiltInIntegrations(store: Store, env: Environment): void {
  if (store.integrations.findByIdentifier(env.id, IN_APP_IDENTIFIER)) return;
  store.integrations.create(env, {
    name: 'In-app',
    identifier: IN_APP_IDENTIFIER,
    providerId: SERVICE_PROVIDER,
    channel: 'in_app',
    active: true,
    primary: false,
  });
}

/**
 * What an environment created through the API starts with, as the service gives a new environment
 * its own delivery providers: the built-in integrations and the demo's provider integrations (one
 * per channel), so every step kind delivers from the first trigger. No workflows or subscribers.
 */
export function setUpCreatedEnvironment(store: Store, env: Environment): void {
  addBuiltInIntegrations(store, env);
  applyContent(store, env, { ...NO_CONTENT, integrations: demoSeed().integrations });
}

export function applySeed(store: Store, env: Environment, seed: SeedFile): void {
  store.tx(() => {
    applyContent(store, env, seed);
    for (const e of seed.environments) {
      let target = store.environments.findByName(env.orgId, e.name);
      if (e.apiKey !== undefined) {
        const owner = store.environments.findByKey(e.apiKey);
        if (owner && owner.id !== target?.id)
          throw new ServiceInputError(`seed environment '${e.name}': its apiKey is already the key of environment '${owner.name}'`);
      }
      if (!target) {
        target = store.environments.create(env.orgId, e.name, e.apiKey);
        addBuiltInIntegrations(store, target);
      } else if (e.apiKey !== undefined && e.apiKey !== target.apiKey) store.environments.setKey(target.id, e.apiKey);
      applyContent(store, store.environments.findById(target.id)!, e);
    }
  });
}

/** A seed with nothing in it, as the seed schema reads `{}`. */
export const NO_CONTENT: SeedContent = { workflows: [], integrations: [], subscribers: [], contexts: [], tenants: [], topics: [] };

function applyContent(store: Store, env: Environment, c: SeedContent): void {
  for (const i of c.integrations) {
    if (store.integrations.findByIdentifier(env.id, i.identifier)) continue;
    const created = store.integrations.create(env, { ...i, name: i.name ?? i.identifier });
    // A seeded primary must be the only primary of its channel.
    // A seed file says what it wants: its conditions stay, unlike a set-primary call's.
    if (i.primary) store.integrations.setPrimary(created, { keepConditions: true });
  }
  for (const s of c.subscribers) upsertSubscriber(store, env, s);
  for (const w of c.workflows) if (!store.workflows.findByTrigger(env.id, w.workflowId)) store.workflows.create(env, w);
  for (const x of c.contexts) store.contexts.findOrCreate(env, x.type, x.id, x.data);
  for (const t of c.tenants) store.tenants.upsert(env, t);
  for (const t of c.topics) {
    const topic = store.topics.upsert(env, t.key, t.name);
    for (const id of t.subscribers) {
      const sub = store.subscribers.find(env.id, id) ?? store.subscribers.upsert(env, id, {});
      store.topics.subscribe(topic.id, sub._id!);
    }
  }
}

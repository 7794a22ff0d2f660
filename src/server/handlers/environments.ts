// The organisation's environments (GET/POST /v1/environments, PUT/DELETE /v1/environments/{id}), as
// the service keeps them: each has its own secret key, application identifier and records, and a
// new one starts with the service's integrations. An API key sees the keys of its own environment
// only (the others list with `apiKeys: []`), and changes or deletes its own environment and those
// created from it (their parent); anything else is another environment's, which an API key cannot
// touch. The answer to a create carries the new key: svc dev has no dashboard to read it from later.
import { createHash } from 'node:crypto';
import { objectIdFrom } from '../engine/derived-ids.js';
import { badRequest, HttpError, notFound, unprocessable } from '../errors.js';
import { setUpCreatedEnvironment } from '../seed/apply.js';
import type { Environment, Store } from '../store/index.js';
import type { Route } from './types.js';

/** The environments every organisation has, which keep their names and cannot be deleted. */
const PROTECTED = ['Development', 'Production'];
const isProtectedName = (name: string) => PROTECTED.some((p) => p.toLowerCase() === name.trim().toLowerCase());

function environmentView(store: Store, e: Environment, withKeys: boolean) {
  return {
    _id: e.id,
    name: e.name,
    _organizationId: e.orgId,
    identifier: store.inbox.settings(e.id).identifier,
    type: e.name === 'Development' ? ('dev' as const) : ('prod' as const),
    apiKeys: withKeys ? [{ key: e.apiKey, _userId: objectIdFrom(`user:${e.orgId}`), hash: createHash('sha256').update(e.apiKey).digest('hex') }] : [],
    ...(e.parentId !== null && { _parentId: e.parentId }),
    ...(e.color !== null && { color: e.color }),
    createdAt: e.createdAt,
  };
}

/** The environment of `id` in the caller's organisation that the caller may change or delete. */
function ownEnvironment(store: Store, caller: Environment, id: string, verb: 'update' | 'delete'): Environment {
  const target = store.environments.findById(id);
  if (!target || target.orgId !== caller.orgId) throw notFound(`Environment ${id} not found`);
  if (target.id !== caller.id && target.parentId !== caller.id) {
    throw new HttpError(
      403,
      `This authentication scheme is scoped to a single environment and cannot ${verb} a different environment. Use credentials from the target environment, or authenticate with a session token.`,
    );
  }
  return target;
}

function parentOf(store: Store, caller: Environment, parentId: string | undefined): string {
  if (parentId === undefined) return caller.id;
  const parent = store.environments.findById(parentId);
  if (!parent || parent.orgId !== caller.orgId) throw notFound(`Environment ${parentId} not found`);
  return parent.id;
}

export const listEnvironments: Route<'listEnvironments'> = {
  envelope: 'data',
  handle: ({ svc, env }) => svc.store.tx(() => svc.store.environments.ofOrganization(env.orgId).map((e) => environmentView(svc.store, e, e.id === env.id))),
};

export const createEnvironment: Route<'createEnvironment'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const { store } = svc;
    const name = body.name.trim();
    if (isProtectedName(name)) throw unprocessable('Environment name cannot be Development or Production');
    return store.tx(() => {
      if (store.environments.findByName(env.orgId, name)) throw badRequest('Environment name must be unique');
      const created = store.environments.create(env.orgId, name, undefined, { parentId: parentOf(store, env, body.parentId), color: body.color });
      setUpCreatedEnvironment(store, created);
      return environmentView(store, created, true);
    });
  },
};

export const updateEnvironment: Route<'updateEnvironment'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const target = ownEnvironment(store, env, params.environmentId!, 'update');
      const name = body.name !== undefined && body.name !== '' ? body.name.trim() : undefined;
      if (name !== undefined) {
        if (isProtectedName(target.name)) throw unprocessable('Cannot update the name of Development or Production environments');
        if (isProtectedName(name)) throw unprocessable('Environment name cannot be Development or Production');
        const same = store.environments.findByName(env.orgId, name);
        if (same && same.id !== target.id) throw badRequest('Environment name must be unique');
      }
      const parentId = body.parentId !== undefined ? parentOf(store, env, body.parentId) : undefined;
      if (parentId === target.id) throw badRequest('An environment cannot be its own parent');
      if (body.identifier !== undefined && body.identifier !== '') {
        store.inbox.settings(target.id);
        if (!store.environments.setIdentifier(target.id, body.identifier)) throw badRequest('Environment identifier must be unique');
        store.inbox.forgetAll();
      }
      store.environments.update(target.id, { name, color: body.color, parentId });
      return environmentView(store, store.environments.findById(target.id)!, target.id === env.id);
    });
  },
};

export const deleteEnvironment: Route<'deleteEnvironment'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const { store } = svc;
    store.tx(() => {
      const target = ownEnvironment(store, env, params.environmentId!, 'delete');
      if (isProtectedName(target.name)) {
        throw badRequest(`The ${target.name} environment is protected and cannot be deleted. Only custom environments can be deleted.`);
      }
      store.environments.remove(target.id);
      // Its records are gone from every cache too (subscribers, workflows, integrations, Inbox settings).
      store.caches.clear();
      store.inbox.forgetAll();
    });
    return undefined;
  },
};

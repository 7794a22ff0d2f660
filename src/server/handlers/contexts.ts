// Contexts: typed key/value scopes (`type:id`) of an environment, created, listed, read, their data
// replaced, and removed.
import { conflict, notFound } from '../errors.js';
import type { Context } from '../../api/schemas/resources.js';
import type { Service } from './types.js';
import { cursorArgs, type Route } from './types.js';

/** The service's 404 for a type and id it does not know. */
const missing = (type: string, id: string) => notFound(`Context with type '${type}' and id '${id}' not found`);

function contextOf(svc: Service, envId: string, params: Record<string, string>): Context {
  const found = svc.store.contexts.find(envId, params.type!, params.id!);
  if (!found) throw missing(params.type!, params.id!);
  return found;
}

export const createContext: Route<'createContext'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    return svc.store.tx(() => {
      if (svc.store.contexts.find(env.id, body.type, body.id)) {
        throw conflict(`Context with type '${body.type}' and id '${body.id}' already exists`);
      }
      return svc.store.contexts.create(env, body.type, body.id, body.data ?? {});
    });
  },
};

export const listContexts: Route<'listContexts'> = {
  envelope: 'raw',
  handle: ({ svc, env, query: q }) => svc.store.contexts.list(env.id, { ...cursorArgs(q), orderBy: q.orderBy ?? 'createdAt', id: q.id, search: q.search }),
};

export const getContext: Route<'getContext'> = {
  envelope: 'data',
  handle: ({ svc, env, params }) => contextOf(svc, env.id, params),
};

export const updateContext: Route<'updateContext'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const updated = svc.store.tx(() => svc.store.contexts.updateData(env.id, params.type!, params.id!, body.data));
    if (!updated) throw missing(params.type!, params.id!);
    return updated;
  },
};

export const deleteContext: Route<'deleteContext'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    if (!svc.store.tx(() => svc.store.contexts.remove(env.id, params.type!, params.id!))) throw missing(params.type!, params.id!);
  },
};

import { conflict } from '../errors.js';
import type { Route } from './types.js';

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

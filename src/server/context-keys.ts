// A `context` payload (`{type: "id" | {id, data?}}`) → its contexts, found or created, as `type:id` keys.
import type { JsonObject } from '../api/schemas/common.js';
import type { Environment, Store } from './store/index.js';

export type ContextPayload = Record<string, string | { id: string; data?: JsonObject | undefined }>;

export function contextKeysOf(store: Store, env: Environment, context: ContextPayload | undefined): string[] {
  const keys: string[] = [];
  for (const [type, value] of Object.entries(context ?? {})) {
    const id = typeof value === 'string' ? value : value.id;
    const data = typeof value === 'string' ? undefined : value.data;
    store.contexts.findOrCreate(env, type, id, data);
    keys.push(`${type}:${id}`);
  }
  return keys;
}

// Shared plumbing of the repositories: prepared statements compiled once per store, and the
// normalised form of context-key sets that makes "exact, order-insensitive" a string comparison.
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import { objectId } from '../ids.js';
import type { DB } from './db.js';

export abstract class Repo {
  private readonly statements = new Map<string, Statement>();
  constructor(
    protected readonly db: DB,
    protected readonly clock: Clock,
  ) {}

  protected stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  protected nowIso(): string {
    return isoAt(this.clock.now());
  }

  protected newId(): string {
    return objectId(this.clock);
  }
}

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `iso(ms)` remembering its last answer: a trigger and its job's delivery ask for the same
 * millisecond several times (every row's created_at and updated_at), and toISOString allocates a
 * Date and a string each time (~2.5% of a trigger's CPU).
 */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = iso(ms);
    lastMs = ms;
  }
  return lastIso;
}

/** Sorted, de-duplicated keys joined by a separator no key can contain: equal sets, equal strings. */
export function contextKeySet(keys: readonly string[] | undefined): string {
  if (!keys || keys.length === 0) return '';
  return [...new Set(keys)].sort().join('\n');
}

const OBJECT_ID = /^[0-9a-f]{24}$/;

/**
 * An id as the activity tables keep it (migration 4): an ObjectId's 12 bytes instead of its 24
 * characters (half the size in each row and index), any other id as it is. The same id always gives
 * the same key, so equality and indexes work on keys.
 */
export function idKey(id: string): Buffer | string {
  return OBJECT_ID.test(id) ? Buffer.from(id, 'hex') : id;
}

/** The id an idKey stands for. */
export function keyId(key: Uint8Array | string): string {
  return typeof key === 'string' ? key : Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex');
}

export function parseDoc<T>(text: string): T {
  return JSON.parse(text) as T;
}

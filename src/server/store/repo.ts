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

/**
 * The activity tables (migration 4) keep ObjectIds as their 12 bytes (BLOB), half the size in each
 * row and index. SQL converts both ways, so JavaScript only sees the usual 24 characters (a Buffer
 * per id read cost more CPU than the smaller rows saved): `unhex(?)` for a bound id (text that is not
 * hex matches nothing), `idText(column)` to read one (an id kept as text is read as it is).
 */
export function idText(column: string, as = column.slice(column.indexOf('.') + 1)): string {
  return `iif(typeof(${column}) = 'blob', lower(hex(${column})), ${column}) AS ${as}`;
}

/** `n` bound ids for an IN list: unhex(?),unhex(?),... */
export const idList = (n: number): string => Array.from({ length: n }, () => 'unhex(?)').join(',');

export function parseDoc<T>(text: string): T {
  return JSON.parse(text) as T;
}

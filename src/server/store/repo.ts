// Shared plumbing of the repositories: prepared statements compiled once per store, and the
// normalised form of context-key sets that makes "exact, order-insensitive" a string comparison.
import type { Statement } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import { objectId } from '../issued-ids.js';
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
 * `iso(ms)` remembering its last answer: a trigger and its jobs ask for the same millisecond many
 * times (every row's created_at and updated_at), each otherwise a new Date and string.
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
 * The activity tables keep ObjectIds as their 12 bytes (BLOB), half the size in each row and index.
 * SQL converts both ways, so JavaScript only sees the usual 24 characters (cheaper than a Buffer per
 * id read): `unhex(?)` for a bound id (text that is not hex matches nothing), `idText(column)` to
 * read one.
 */
export function idText(column: string, as = column.slice(column.indexOf('.') + 1)): string {
  return `lower(hex(${column})) AS ${as}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A transactionId as the activity tables keep it: a UUID in lower case (what the
 * service makes when a trigger names none) as its 16 bytes, any other text as it is.
 */
export function txKey(transactionId: string): Buffer | string {
  return UUID.test(transactionId) ? Buffer.from(transactionId.replace(/-/g, ''), 'hex') : transactionId;
}

/** SQL reading a transactionId column as its text (see txKey). */
export function txText(column: string, as = column.slice(column.indexOf('.') + 1)): string {
  const hex = `lower(hex(${column}))`;
  const part = (from: number, length?: number) => `substr(${hex}, ${from}${length === undefined ? '' : `, ${length}`})`;
  return `iif(typeof(${column}) = 'blob', ${part(1, 8)} || '-' || ${part(9, 4)} || '-' || ${part(13, 4)} || '-' || ${part(17, 4)} || '-' || ${part(21)}, ${column}) AS ${as}`;
}

/** `n` bound ids for an IN list: unhex(?),unhex(?),... */
export const idList = (n: number): string => Array.from({ length: n }, () => 'unhex(?)').join(',');

export function parseDoc<T>(text: string): T {
  return JSON.parse(text) as T;
}

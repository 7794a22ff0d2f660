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
    return iso(this.clock.now());
  }

  protected newId(): string {
    return objectId(this.clock);
  }
}

/** Sorted, de-duplicated keys joined by a separator no key can contain: equal sets, equal strings. */
export function contextKeySet(keys: readonly string[] | undefined): string {
  if (!keys || keys.length === 0) return '';
  return [...new Set(keys)].sort().join('\n');
}

export function parseDoc<T>(text: string): T {
  return JSON.parse(text) as T;
}

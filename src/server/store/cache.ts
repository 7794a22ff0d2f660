// The store's caches of parsed records, all of one kind (lru-cache, bounded by entry count) and kept
// true by one rule: a repository that writes a record deletes that record's entries, and a rolled-back
// transaction (a request's savepoint, a job's, or a whole group-commit batch whose COMMIT failed)
// clears every cache, because what was read inside it may be gone. Records handed out from a cache
// are shared: callers treat them as read-only. Sizes are counts of records, above what a local store
// holds of workflows, environments and step definitions; of subscribers, the busiest thousand.
import { LRUCache } from 'lru-cache';

/** Values are never null or undefined (lru-cache's rule): a miss is `undefined`. */
type Value = NonNullable<unknown>;

export type Cache<K extends string, V extends Value> = LRUCache<K, V>;

export class Caches {
  private readonly all: { clear(): void }[] = [];

  /** A new cache of at most `max` entries, cleared with every other one on a rollback. */
  create<K extends string, V extends Value>(max: number): Cache<K, V> {
    const cache = new LRUCache<K, V>({ max });
    this.all.push(cache);
    return cache;
  }

  clear(): void {
    for (const cache of this.all) cache.clear();
  }
}

// Cutting the stream of rows into requests. Rows without a payload of their own share the run's payload
// and go out together, up to `size` recipients per trigger; rows with their own payload become events of
// the bulk trigger operation, up to 100 per call. Chunks are numbered in the order they fill, which
// depends only on the file: a resumed run cuts exactly the same chunks and so derives the same
// transaction ids.
import { MAX_BULK_EVENTS } from '../api/limits.js';
import type { GoodRow } from './rows.js';

export interface Chunk {
  kind: 'trigger' | 'bulk';
  index: number;
  rows: GoodRow[];
}

export class Chunker {
  private next = 0;
  private shared: GoodRow[] = [];
  private own: GoodRow[] = [];

  constructor(private readonly size: number) {}

  /** Adds a row; returns the chunks it completed (zero or one). */
  add(row: GoodRow): Chunk[] {
    if (row.payload) {
      this.own.push(row);
      if (this.own.length >= MAX_BULK_EVENTS) return [this.seal('bulk')];
    } else {
      this.shared.push(row);
      if (this.shared.length >= this.size) return [this.seal('trigger')];
    }
    return [];
  }

  /** The partly filled chunks at the end of the file. */
  flush(): Chunk[] {
    const out: Chunk[] = [];
    if (this.shared.length) out.push(this.seal('trigger'));
    if (this.own.length) out.push(this.seal('bulk'));
    return out;
  }

  private seal(kind: Chunk['kind']): Chunk {
    const rows = kind === 'trigger' ? this.shared : this.own;
    if (kind === 'trigger') this.shared = [];
    else this.own = [];
    return { kind, index: this.next++, rows };
  }
}

/** The transaction id of a chunk (trigger) or of one event of a chunk (bulk). */
export function transactionIdOf(runId: string, chunk: number, event?: number): string {
  return event === undefined ? `${runId}-${chunk}` : `${runId}-${chunk}-${event}`;
}

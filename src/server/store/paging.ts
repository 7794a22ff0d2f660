// Cursor pagination as the service does it (ground truth, "Cursor pagination"): the cursors are the
// ids of the first and last item of a page, an unknown cursor gives an empty page, `includeCursor`
// includes the cursor item, and `totalCount` counts the whole filter up to 50,000.
import { LRUCache } from 'lru-cache';
import type { DB } from './db.js';

export const TOTAL_COUNT_CAP = 50_000;

export interface CursorEnvelope<T> {
  data: T[];
  next: string | null;
  previous: string | null;
  totalCount: number;
  totalCountCapped: boolean;
}

interface CursorRequest {
  /** Table name and filter: trusted SQL from the repositories, values in `params`. */
  table: string;
  where: string;
  params: unknown[];
  /** A trusted column name. */
  sortColumn: string;
  direction: 'ASC' | 'DESC';
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
}

/** The paging half of a list operation's query, as every cursor-paged list takes it. */
export interface CursorQuery {
  orderBy: string;
  orderDirection: 'ASC' | 'DESC';
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
}

/** The request's sort and cursor fields from the query: `updatedAt` sorts by `updated_at`, any other order by `byDefault`. */
export function cursorOptions(q: CursorQuery, byDefault: string): Omit<CursorRequest, 'table' | 'where' | 'params'> {
  return {
    sortColumn: q.orderBy === 'updatedAt' ? 'updated_at' : byDefault,
    direction: q.orderDirection,
    limit: q.limit,
    after: q.after,
    before: q.before,
    includeCursor: q.includeCursor,
  };
}

interface Row {
  id: string;
  __sort: unknown;
}

export function cursorPage<R extends { id: string }, T>(db: DB, req: CursorRequest, map: (row: R) => T): CursorEnvelope<T> {
  const { table, where, params, sortColumn: col, direction } = req;
  const total = (
    db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${TOTAL_COUNT_CAP + 1})`).get(...params) as {
      n: number;
    }
  ).n;
  const envelope = (data: T[], next: string | null, previous: string | null): CursorEnvelope<T> => ({
    data,
    next,
    previous,
    totalCount: Math.min(total, TOTAL_COUNT_CAP),
    totalCountCapped: total > TOTAL_COUNT_CAP,
  });

  const backward = req.before !== undefined;
  const cursorId = req.before ?? req.after;
  // "later in the listed order" is `<` for DESC and `>` for ASC; a backward page looks the other way.
  const later = direction === 'DESC' ? '<' : '>';
  const earlier = direction === 'DESC' ? '>' : '<';
  const dir = direction;
  const rev = direction === 'DESC' ? 'ASC' : 'DESC';

  let rows: (R & Row)[];
  if (cursorId === undefined) {
    rows = db.prepare(`SELECT *, ${col} AS __sort FROM ${table} WHERE ${where} ORDER BY ${col} ${dir}, id ${dir} LIMIT ?`).all(...params, req.limit) as (R &
      Row)[];
  } else {
    const cursor = db.prepare(`SELECT id, ${col} AS __sort FROM ${table} WHERE ${where} AND id = ?`).get(...params, cursorId) as Row | undefined;
    if (!cursor) return envelope([], null, null);
    const op = (backward ? earlier : later) + (req.includeCursor ? '=' : '');
    const order = backward ? rev : dir;
    rows = db
      .prepare(`SELECT *, ${col} AS __sort FROM ${table} WHERE ${where} AND (${col}, id) ${op} (?, ?) ORDER BY ${col} ${order}, id ${order} LIMIT ?`)
      .all(...params, cursor.__sort, cursor.id, req.limit) as (R & Row)[];
    if (backward) rows.reverse();
  }
  if (rows.length === 0) return envelope([], null, null);

  const exists = (op: string, row: Row): boolean =>
    db.prepare(`SELECT 1 FROM ${table} WHERE ${where} AND (${col}, id) ${op} (?, ?) LIMIT 1`).get(...params, row.__sort, row.id) !== undefined;
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  return envelope(rows.map(map), exists(later, last) ? last.id : null, exists(earlier, first) ? first.id : null);
}

/** Where page N + 1 of one listing starts: valid while the connection has changed no row since. */
interface Continuation {
  changes: number;
  createdAt: number;
  key: unknown;
}

/**
 * Offset pages newest first (`created_at DESC, id DESC`), as the service pages its feed and message
 * lists, without the offset's cost on deep pages. Page N by offset reads N pages of rows first, so
 * following a list to its end (an export, a browser scrolling down) grew as N². After a page is
 * served, where the next one starts (its last row's created_at and stored id) is kept under the exact
 * listing (filter, parameters, page size); page N + 1 of it then seeks there, but only while the
 * connection's total_changes() is what it was, i.e. no row was inserted, changed or deleted anywhere:
 * then the seek returns exactly the rows the offset would. Any write in between, and the offset is used.
 */
export class NewestFirstPages {
  /** Where the next page of each listing starts (its own rule: valid while no row changed anywhere). */
  private readonly next: LRUCache<string, Continuation>;
  private changesStmt: { get(): unknown } | undefined;
  /** Pages served by seeking (for tests). */
  seeks = 0;

  /** `alias`: the listed table's alias in `select`, which must select that table's stored id as `__k`. */
  constructor(
    private readonly db: DB,
    private readonly alias: string,
    max = 64,
  ) {
    this.next = new LRUCache({ max });
  }

  /** Rows of page `page` (`limit` + 1 of them when there is more), `where` and `params` as in `select … WHERE where`. */
  rows<R extends { created_at: number; __k: unknown }>(select: string, where: string, params: unknown[], page: number, limit: number): R[] {
    const a = this.alias;
    this.changesStmt ??= this.db.prepare('SELECT total_changes() AS n') as { get(): unknown };
    const changes = (this.changesStmt.get() as { n: number }).n;
    const listing = `${limit}\u0000${where}\u0000${JSON.stringify(params)}`;
    const from = page > 0 ? this.next.get(`${page}\u0000${listing}`) : undefined;
    this.next.delete(`${page}\u0000${listing}`);
    let rows: R[];
    if (from !== undefined && from.changes === changes) {
      // `created_at <=` as well, so that an index in page order is entered at the boundary.
      rows = this.db
        .prepare(
          `${select} WHERE ${where} AND ${a}.created_at <= ? AND (${a}.created_at, ${a}.id) < (?, ?) ORDER BY ${a}.created_at DESC, ${a}.id DESC LIMIT ?`,
        )
        .all(...params, from.createdAt, from.createdAt, from.key, limit + 1) as R[];
      this.seeks++;
    } else {
      rows = this.db
        .prepare(`${select} WHERE ${where} ORDER BY ${a}.created_at DESC, ${a}.id DESC LIMIT ? OFFSET ?`)
        .all(...params, limit + 1, page * limit) as R[];
    }
    if (rows.length > limit) {
      const last = rows[limit - 1]!;
      this.next.set(`${page + 1}\u0000${listing}`, { changes, createdAt: last.created_at, key: last.__k });
    }
    return rows;
  }
}

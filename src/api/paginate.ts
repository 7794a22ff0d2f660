// Following a list to its end: cursors (`next` → `after`) for subscribers, endpoints and connections;
// pages (`hasMore` → `page + 1`) for the activity feed and messages. One page is held at a time.
import type { Deps } from '../deps.js';
import type { QueryInput } from './request.js';
import type { SendOptions } from './request.js';
import { send } from './call.js';

export type PagingMode = 'cursor' | 'page';

export interface PageResult {
  records: unknown[];
  /** How to ask for the page after this one (a flag for the hint), if there is one. */
  next?: { after?: string; page?: number };
}

/** Which paging a list answer uses, read from its envelope. */
export function pagingOf(body: unknown): PagingMode | undefined {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { data?: unknown }).data)) return undefined;
  if ('next' in body) return 'cursor';
  if ('hasMore' in body) return 'page';
  return undefined;
}

export function nextOf(body: unknown, mode: PagingMode, currentPage: number): PageResult['next'] {
  const b = body as { next?: unknown; hasMore?: unknown; data: unknown[] };
  if (mode === 'cursor') return typeof b.next === 'string' && b.next ? { after: b.next } : undefined;
  return b.hasMore === true && b.data.length > 0 ? { page: currentPage + 1 } : undefined;
}

/**
 * Yields every page of a list request. `mode` may be left to the first answer's envelope (svc api
 * --paginate). Stops on a repeated cursor rather than looping forever on a misbehaving server.
 */
export async function* pages(deps: Deps, req: SendOptions, mode?: PagingMode): AsyncGenerator<PageResult> {
  let query: QueryInput = { ...req.query };
  let page = typeof query.page === 'number' ? query.page : Number(query.page ?? 0) || 0;
  const seen = new Set<string>();
  for (;;) {
    const res = await send(deps, { ...req, query });
    if (!res) return;
    const body = res.data;
    const m = mode ?? pagingOf(body);
    const records = Array.isArray(body) ? body : ((body as { data?: unknown[] })?.data ?? [body]);
    if (!m) {
      yield { records };
      return;
    }
    const next = nextOf(body, m, page);
    yield { records, ...(next ? { next } : {}) };
    if (!next) return;
    if (next.after !== undefined) {
      if (seen.has(next.after)) {
        deps.warn(`the service returned cursor ${next.after} twice; stopping`);
        return;
      }
      seen.add(next.after);
      query = { ...query, after: next.after, before: undefined, includeCursor: undefined };
    } else if (next.page !== undefined) {
      page = next.page;
      query = { ...query, page };
    }
  }
}

// What `svc events get REF` looks up. Support staff are handed whatever the customer or the logs have:
// a notification id (24 hex), a transaction id (any other string, usually a UUID), or the short id a
// table printed (7 to 23 hex characters: the start of the id, as git shortens commit ids, or its end,
// which is what tells apart ids made in the same second). The requests are
// the caller's (`get`, `list`); this decides which to make and what the answer means.
import { SvcError, UsageError } from './errors.js';
import { OBJECT_ID_RE } from './object-id.js';

const SHORT_ID = /^[0-9a-f]{7,23}$/i;
/** How far back a short id is looked for: the newest pages of the feed. */
const SHORT_ID_PAGES = 10;

export interface EventLookup<N> {
  /** GET /v1/notifications/{id}; undefined when the service answers 404. */
  get(id: string): Promise<N | undefined>;
  /** One page of GET /v1/notifications (newest first), with these filters. */
  list(query: { transactionId?: string; page: number; limit: number }): Promise<{ data: N[]; hasMore?: boolean }>;
  /** The full ids of the lists lately printed that a short id names (looked at before the feed). */
  remembered?(short: string): string[];
}

type Ref = { kind: 'id' | 'short' | 'transaction'; value: string };

export function classify(ref: string): Ref {
  const value = ref.trim();
  if (value === '') throw new UsageError('NOTIFICATION_ID|TRANSACTION_ID: expected a notification id, a transaction id, or a short id from a table');
  if (OBJECT_ID_RE.test(value)) return { kind: 'id', value };
  if (SHORT_ID.test(value)) return { kind: 'short', value: value.toLowerCase() };
  return { kind: 'transaction', value };
}

class NotFound extends SvcError {
  constructor(message: string, hint?: string) {
    super(message, 'not_found', 5, hint);
  }
}

function ambiguous(short: string, ids: string[]): UsageError {
  return new UsageError(
    `NOTIFICATION_ID: ${short} is part of ${ids.length} events (${ids.slice(0, 4).join(', ')}${ids.length > 4 ? ', …' : ''}); give more characters`,
  );
}

/** The notifications of a transaction, each with its jobs (the list may leave them out; the timeline needs them). */
async function byTransaction<N extends { _id?: string }>(api: EventLookup<N>, tx: string): Promise<N[]> {
  const out: N[] = [];
  for (let page = 0; page < 20; page++) {
    const res = await api.list({ transactionId: tx, page, limit: 50 });
    out.push(...res.data);
    if (!res.hasMore || res.data.length === 0) break;
  }
  const full: N[] = [];
  for (const n of out) full.push((n._id && !Array.isArray((n as { jobs?: unknown }).jobs) ? await api.get(n._id) : undefined) ?? n);
  return full;
}

/**
 * The notifications REF names: one for a notification id or a short id, one per recipient for a
 * transaction id. A 24-hex string that is no notification is tried as a transaction id too (a
 * transaction id can be any string).
 */
export async function resolveEvents<N extends { _id?: string }>(api: EventLookup<N>, ref: string): Promise<{ kind: Ref['kind']; events: N[] }> {
  const r = classify(ref);
  if (r.kind === 'id') {
    const one = await api.get(r.value);
    if (one) return { kind: 'id', events: [one] };
    const txs = await byTransaction(api, r.value);
    if (txs.length) return { kind: 'transaction', events: txs };
    throw new NotFound(`no event with notification id or transaction id ${r.value}`);
  }
  if (r.kind === 'short') {
    // First the ids the last lists printed: an event that scrolled out of the feed's newest pages still resolves.
    const known = api.remembered?.(r.value) ?? [];
    if (known.length > 1) throw ambiguous(r.value, known);
    if (known.length === 1) {
      const full = await api.get(known[0]!);
      if (full) return { kind: 'short', events: [full] };
    }
    const found: N[] = [];
    for (let page = 0; page < SHORT_ID_PAGES; page++) {
      const res = await api.list({ page, limit: 50 });
      for (const n of res.data) {
        const id = n._id?.toLowerCase();
        if (id && (id.startsWith(r.value) || id.endsWith(r.value))) found.push(n);
      }
      if (!res.hasMore || res.data.length === 0) break;
    }
    const ids = [...new Set(found.map((n) => n._id!))];
    if (ids.length > 1) throw ambiguous(r.value, ids);
    if (ids.length === 1) {
      const full = await api.get(ids[0]!);
      if (full) return { kind: 'short', events: [full] };
    }
    // Hex can be a transaction id too.
    const txs = await byTransaction(api, ref.trim());
    if (txs.length) return { kind: 'transaction', events: txs };
    throw new NotFound(
      `no event id starts or ends with ${r.value} among the lists lately shown and the newest ${SHORT_ID_PAGES * 50} events`,
      'give the whole id: svc events list --wide (or -o json) prints it, e.g. svc events list --subscriber ID --wide',
    );
  }
  const txs = await byTransaction(api, r.value);
  if (txs.length === 0) {
    throw new NotFound(
      `no event with transaction id ${r.value}`,
      'svc events get takes a notification id (24 hex characters), a transaction id, or a short id from svc events list',
    );
  }
  return { kind: 'transaction', events: txs };
}

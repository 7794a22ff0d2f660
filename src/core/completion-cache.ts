// A short-lived local cache of workflow ids and subscriber ids for shell completion, filled by the
// commands that see them anyway (events list/get/watch/browse, workflow list, subscribers search):
// pressing Tab never waits on the network while the cache is fresh. Only when it is empty (or stale)
// and a profile exists does completion ask the service, bounded to 300 ms; a slow or failing service
// gives no candidates rather than a hung shell.
//
// The file is `completion-cache.json` (mode 0600) in the config directory, one entry per profile. It
// holds ids only: no keys, no personal data beyond what a person types on the command line anyway.
// Every failure to read or write it is ignored: the cache is an aid, never a reason to fail.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type CacheKind = 'workflows' | 'subscribers';

/** How long ids stay fresh. */
export const CACHE_TTL_MS = 10 * 60_000;
/** The most ids kept per kind and profile (the newest). */
const CACHE_MAX_IDS = 500;
/** The most a Tab waits for the service when the cache is empty. */
const FETCH_BUDGET_MS = 300;

interface Entry {
  ids: string[];
  at: number;
}
/** The event ids of the last lists a person looked at (a table shows them shortened). */
interface PrintedLists {
  /** `key`: a list that grows while it is shown (events browse) replaces its own earlier form. */
  lists: { ids: string[]; at: number; key?: string }[];
}
type CacheFile = Record<string, Partial<Record<CacheKind, Entry>> & { printed?: PrintedLists }>;

interface CacheOptions {
  /** The config directory (SVC_CONFIG_DIR or the user's). */
  dir: string;
  /** The profile the ids belong to ('' without one). */
  profile: string;
  now?: number;
}

const FILE = 'completion-cache.json';

function read(dir: string): CacheFile {
  try {
    const v = JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as CacheFile) : {};
  } catch {
    return {};
  }
}

function write(dir: string, data: CacheFile): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `${FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, join(dir, FILE));
  } catch {
    // best effort
  }
}

const ID_RE = /^[A-Za-z0-9][\w.@:+-]{0,127}$/;

/** Adds ids seen by a command (the newest first), keeping at most CACHE_MAX_IDS. */
export function remember(kind: CacheKind, ids: readonly unknown[], opts: CacheOptions): void {
  rememberAll({ [kind]: ids }, opts);
}

/**
 * Adds the ids of each kind in one read and at most one write. A command that saw nothing new (the same
 * ids, already first, and written less than half the TTL ago) writes nothing: the common case of a
 * command run again costs one small read.
 */
function rememberAll(seen: Partial<Record<CacheKind, readonly unknown[]>>, opts: CacheOptions): void {
  const now = opts.now ?? Date.now();
  let data: CacheFile | undefined;
  let changed = false;
  for (const [kind, ids] of Object.entries(seen) as [CacheKind, readonly unknown[]][]) {
    const fresh = ids.filter((x): x is string => typeof x === 'string' && ID_RE.test(x));
    if (fresh.length === 0) continue;
    data ??= read(opts.dir);
    const entry = data[opts.profile]?.[kind];
    const old = entry && Array.isArray(entry.ids) && now - entry.at < CACHE_TTL_MS ? entry.ids : [];
    const merged = [...new Set([...fresh, ...old])].slice(0, CACHE_MAX_IDS);
    const same = merged.length === old.length && merged.every((x, i) => x === old[i]);
    if (same && entry && now - entry.at < CACHE_TTL_MS / 2) continue;
    data[opts.profile] = { ...data[opts.profile], [kind]: { ids: merged, at: now } };
    changed = true;
  }
  if (changed && data) write(opts.dir, data);
}

/** The fresh ids of a kind, or undefined when there are none (empty or stale). */
export function lookup(kind: CacheKind, opts: CacheOptions): string[] | undefined {
  const now = opts.now ?? Date.now();
  const entry = read(opts.dir)[opts.profile]?.[kind];
  if (!entry || !Array.isArray(entry.ids) || entry.ids.length === 0 || now - entry.at >= CACHE_TTL_MS) return undefined;
  return entry.ids.filter((x) => typeof x === 'string');
}

/** Workflow and subscriber ids in records a command printed (events, workflows, subscribers). */
export function idsIn(records: readonly unknown[]): Record<CacheKind, string[]> {
  const workflows: string[] = [];
  const subscribers: string[] = [];
  for (const r of records) {
    if (!r || typeof r !== 'object') continue;
    const o = r as Record<string, unknown>;
    const template = o.template as { triggers?: { identifier?: unknown }[] } | undefined;
    const sub = o.subscriber as { subscriberId?: unknown } | undefined;
    if (typeof template?.triggers?.[0]?.identifier === 'string') workflows.push(template.triggers[0].identifier);
    if (typeof sub?.subscriberId === 'string') subscribers.push(sub.subscriberId);
    // A workflow (v2) has workflowId; a subscriber has subscriberId.
    if (typeof o.workflowId === 'string') workflows.push(o.workflowId);
    else if (typeof o.subscriberId === 'string' && !o.channel && !o.type) subscribers.push(o.subscriberId);
  }
  return { workflows, subscribers };
}

/** Remembers the ids in printed records. */
export function rememberRecords(records: readonly unknown[], opts: CacheOptions): void {
  rememberAll(idsIn(records), opts);
}

interface CompleteOptions extends CacheOptions {
  /** A profile (or key) exists to ask the service with. */
  canFetch: boolean;
  /** Asks the service for ids; must stop when the signal aborts. */
  fetch?: (signal: AbortSignal) => Promise<string[]>;
  budgetMs?: number;
}

/**
 * Candidates for a Tab: from the cache; when it has none and a profile exists, from the service
 * within the budget (what it returns is cached); otherwise nothing.
 */
export async function complete(kind: CacheKind, prefix: string, opts: CompleteOptions): Promise<string[]> {
  const match = (ids: string[]) => ids.filter((x) => x.startsWith(prefix)).sort();
  const cached = lookup(kind, opts);
  if (cached) return match(cached);
  if (!opts.canFetch || !opts.fetch) return [];
  const budget = opts.budgetMs ?? FETCH_BUDGET_MS;
  // The request is abandoned at the budget; the race's own timer stops as soon as either side settles.
  const settled = new AbortController();
  try {
    const ids = await Promise.race([
      opts.fetch(AbortSignal.timeout(budget)),
      process.getBuiltinModule('node:timers/promises').setTimeout(budget, [] as string[], { signal: settled.signal }),
    ]);
    if (ids.length) remember(kind, ids, opts);
    return match(ids);
  } catch {
    return [];
  } finally {
    settled.abort();
  }
}

// --- event ids a list printed ---------------------------------------------------------------------
// A table shows an event id shortened; `events get` takes the short form back. The full ids of the last
// few lists shown are kept here so that a short id resolves however old its event is, without a search
// of the feed. Bounded: the last PRINTED_LISTS lists, the first PRINTED_IDS ids of each (a person reads
// a screenful, not the 100,000 rows of an export), for PRINTED_TTL_MS.

export const PRINTED_LISTS = 5;
export const PRINTED_IDS = 200;
const PRINTED_TTL_MS = 7 * 24 * 3_600_000;
const EVENT_ID_RE = /^[0-9a-f]{24}$/i;

/** Remembers the event ids a list printed, as the newest list (the oldest one beyond the bound goes). */
export function rememberPrinted(ids: readonly unknown[], opts: CacheOptions, key?: string): void {
  const now = opts.now ?? Date.now();
  const fresh = [...new Set(ids.filter((x): x is string => typeof x === 'string' && EVENT_ID_RE.test(x)))].slice(0, PRINTED_IDS);
  if (fresh.length === 0) return;
  const data = read(opts.dir);
  const entry = data[opts.profile] ?? {};
  const old = Array.isArray(entry.printed?.lists) ? entry.printed.lists.filter((l) => Array.isArray(l?.ids) && now - l.at < PRINTED_TTL_MS) : [];
  // The same list shown again moves to the front instead of taking a second place.
  const same = (l: { ids: string[] }) => l.ids.length === fresh.length && l.ids.every((x, i) => x === fresh[i]);
  const lists = [{ ids: fresh, at: now, ...(key ? { key } : {}) }, ...old.filter((l) => !same(l) && (key === undefined || l.key !== key))].slice(
    0,
    PRINTED_LISTS,
  );
  data[opts.profile] = { ...entry, printed: { lists } };
  write(opts.dir, data);
}

/**
 * The remembered full event ids that end or start with `short`. An end (the form a table prints an
 * ObjectId in) is looked up in the newest list that has it: it told the rows of that list apart, so an
 * id of an older list that shares it does not make it ambiguous. A start matches in every list.
 */
export function printedMatches(short: string, opts: CacheOptions): string[] {
  const now = opts.now ?? Date.now();
  const lists = read(opts.dir)[opts.profile]?.printed?.lists;
  if (!Array.isArray(lists)) return [];
  const s = short.toLowerCase();
  const fresh = lists.filter((l) => l && Array.isArray(l.ids) && now - l.at < PRINTED_TTL_MS);
  const ids = (l: (typeof lists)[number]) => l.ids.filter((id): id is string => typeof id === 'string');
  // The end of an id is the form a list prints: the newest list that printed it decides.
  for (const l of fresh) {
    const ends = ids(l).filter((id) => id.toLowerCase().endsWith(s));
    if (ends.length) return ends;
  }
  // A start typed by hand (an id's start is its creation second, which many events share): every match.
  return [...new Set(fresh.flatMap((l) => ids(l).filter((id) => id.toLowerCase().startsWith(s))))];
}

// The Inbox's filters as the client sends them (query keys such as `tags[]`, `tags[0][]`,
// `severity[]`; JSON `filters` and `data`) turned into the store's InboxFilter. Anything malformed is
// a 400 that names the parameter.
import type { z } from 'zod';
import { InboxCountFilters, InboxDataFilter, InboxNotificationsQuery, type InboxCountFilter } from '../../api/schemas/inbox.js';
import { HttpError } from '../errors.js';
import type { InboxFilter } from '../store/inbox.js';

type Tags = InboxCountFilter['tags'];

function tagGroups(tags: Tags): string[][] | undefined {
  if (tags === undefined) return undefined;
  if (Array.isArray(tags)) return [tags];
  if ('or' in tags) return [tags.or];
  return tags.and.map((g) => g.or);
}

function dataValues(filter: z.infer<typeof InboxDataFilter>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const add = (key: string, v: unknown) => {
    if (Array.isArray(v)) out[key] = v;
    else if (v !== null && typeof v === 'object' && 'or' in v && Array.isArray((v as { or: unknown }).or)) out[key] = (v as { or: unknown[] }).or;
    else if (v !== null && typeof v === 'object') for (const [k, sub] of Object.entries(v)) add(`${key}.${k}`, sub);
    else out[key] = [v];
  };
  for (const [k, v] of Object.entries(filter)) add(k, v);
  return out;
}

function issueText(name: string, error: z.ZodError): string {
  const i = error.issues[0]!;
  const at = i.path.length > 0 ? `${name}${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}` : name;
  return `${at}: ${i.message}`;
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, `Invalid ${name}, the JSON object should be provided.`);
  }
}

function parseData(text: string | undefined, name = 'data'): Record<string, unknown[]> | undefined {
  if (text === undefined || text === '') return undefined;
  const r = InboxDataFilter.safeParse(parseJson(name, text));
  if (!r.success) throw new HttpError(400, `Invalid ${issueText(name, r.error)}`);
  return dataValues(r.data);
}

export function fromCountFilter(f: InboxCountFilter): InboxFilter {
  return {
    tags: tagGroups(f.tags),
    read: f.read,
    archived: f.archived,
    snoozed: f.snoozed,
    seen: f.seen,
    severity: f.severity === undefined ? undefined : Array.isArray(f.severity) ? f.severity : [f.severity],
    data: f.data === undefined ? undefined : dataValues(f.data),
    createdGte: f.createdGte,
    createdLte: f.createdLte,
  };
}

/** `?filters=[...]` of the count route: a JSON array of at most 30 filters. */
export function parseCountFilters(raw: unknown): { given: InboxCountFilter[]; filters: InboxFilter[] } {
  if (typeof raw !== 'string') throw new HttpError(400, raw === undefined ? 'filters is required' : 'filters must be given once');
  const r = InboxCountFilters.safeParse(parseJson('filters', raw));
  if (!r.success) throw new HttpError(400, `Invalid ${issueText('filters', r.error)}`);
  return { given: r.data, filters: r.data.map(fromCountFilter) };
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

interface ListQuery {
  filter: InboxFilter;
  /** The filter as the answer's `filter` repeats it. */
  echo: Record<string, unknown>;
  limit: number;
  offset?: number | undefined;
  after?: string | undefined;
}

/** The list route's query string, parsed by fastify into keys such as `tags[]` and `severity[]`. */
export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const gathered: Record<string, unknown> = {};
  const groups = new Map<number, string[]>();
  for (const [key, value] of Object.entries(query)) {
    const group = /^tags\[(\d+)\]\[\]$/.exec(key);
    if (key === 'tags[]' || key === 'tags') groups.set(-1, [...(groups.get(-1) ?? []), ...list(value)]);
    else if (group) groups.set(Number(group[1]), list(value));
    else if (key === 'severity[]' || key === 'severity') gathered.severity = [...((gathered.severity as string[] | undefined) ?? []), ...list(value)];
    else if (Array.isArray(value)) throw new HttpError(400, `${key} must be given once`);
    else gathered[key] = value;
  }
  if (groups.size > 0) gathered.tags = [...groups.entries()].sort(([a], [b]) => a - b).map(([, g]) => g);
  const r = InboxNotificationsQuery.safeParse(gathered);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const field = i.path.length > 0 ? String(i.path[0]) : 'query';
    throw new HttpError(400, i.code === 'unrecognized_keys' ? `Unknown query parameter: ${i.keys.join(', ')}` : `${field} ${i.message}`);
  }
  const q = r.data;
  const filter: InboxFilter = {
    tags: q.tags,
    read: q.read,
    archived: q.archived,
    snoozed: q.snoozed,
    seen: q.seen,
    severity: q.severity,
    data: parseData(q.data),
    createdGte: q.createdGte,
    createdLte: q.createdLte,
  };
  const echo: Record<string, unknown> = {};
  if (q.tags !== undefined) echo.tags = q.tags.length === 1 ? q.tags[0] : { and: q.tags.map((or) => ({ or })) };
  for (const k of ['read', 'archived', 'snoozed', 'seen', 'severity', 'createdGte', 'createdLte'] as const) if (q[k] !== undefined) echo[k] = q[k];
  if (q.data !== undefined) echo.data = JSON.parse(q.data);
  return { filter, echo, limit: q.limit ?? 10, offset: q.offset, after: q.after };
}

/** A bulk mark's `{tags, data}` body. */
export function bulkFilter(body: { tags?: Tags; data?: string | undefined } | undefined): InboxFilter {
  return { tags: tagGroups(body?.tags), data: parseData(body?.data) };
}

// Steps several commands share: reading payloads and contexts from flags, running a list with or
// without --all, and reporting where an interrupted stream got to.
import type { Deps } from '../deps.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { deepMerge, isPlainObject, parseContextRef, parseSetPairs } from '../core/input.js';
import type { QueryInput } from '../api/request.js';
import { buildPath, type RouteName, routes } from '../api/routes.js';
import type { PagingMode } from '../api/session.js';
import type { ViewName } from '../io/views.js';
import { pagingHint } from '../io/output.js';
import { rememberIds } from './events/cache.js';

/** `--payload` (JSON object) with `--set` pairs applied over it. */
export async function payloadFrom(deps: Deps, payload: string | undefined, set: string[] | undefined): Promise<Record<string, unknown> | undefined> {
  let out: Record<string, unknown> | undefined;
  if (payload !== undefined) out = await deps.input.jsonObject('--payload', payload);
  if (set?.length) out = deepMerge(out ?? {}, parseSetPairs('--set', set));
  return out;
}

/** `--context TYPE=ID` entries and JSON maps into the `context` object of a request. */
export async function contextMap(deps: Deps, flag: string, values: string[] | undefined): Promise<Record<string, unknown> | undefined> {
  if (!values?.length) return undefined;
  const out: Record<string, unknown> = {};
  for (const v of values) {
    const t = v.trim();
    if (t.startsWith('{') || t.startsWith('@') || t === '-') {
      const obj = await deps.input.json(flag, v);
      if (!isPlainObject(obj)) throw new UsageError(`${flag}: expected TYPE=ID or a JSON object mapping types to ids`);
      Object.assign(out, obj);
    } else {
      const { type, id } = parseContextRef(flag, v);
      if (type in out) throw new UsageError(`${flag}: context type '${type}' is given twice`);
      out[type] = id;
    }
  }
  return out;
}

/** `--context TYPE:ID` filters into `contextKeys` values. */
export function contextKeys(flag: string, values: string[] | undefined): string[] | undefined {
  if (!values?.length) return undefined;
  return values.map((v) => {
    const { type, id } = parseContextRef(flag, v, ':');
    return `${type}:${id}`;
  });
}

interface CursorOptions {
  limit?: number;
  after?: string;
  before?: string;
  orderBy?: string;
  orderDirection?: string;
  includeCursor?: boolean;
  all?: boolean;
}

/** The cursor paging flags as query parameters; --after with --before is refused (the service's 400). */
export function cursorQuery(opts: CursorOptions): QueryInput {
  if (opts.after !== undefined && opts.before !== undefined) {
    throw new UsageError('--after and --before cannot be used together: page forward with --after or back with --before');
  }
  return {
    limit: opts.limit,
    after: opts.after,
    before: opts.before,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    includeCursor: opts.includeCursor,
  };
}

interface ChannelFilterOptions extends CursorOptions {
  subscriber?: string;
  context?: string[];
  channel?: string;
  provider?: string;
  integration?: string;
}

/** Filters shared by the channel connection and endpoint lists. */
export function channelQuery(opts: ChannelFilterOptions): QueryInput {
  return {
    subscriberId: opts.subscriber,
    contextKeys: contextKeys('--context', opts.context),
    channel: opts.channel,
    providerId: opts.provider,
    integrationIdentifier: opts.integration,
    ...cursorQuery(opts),
  };
}

interface ListOptions {
  view: ViewName;
  mode: PagingMode;
  all?: boolean;
  /** Records per request when following every page (the API's maximum). */
  allLimit: number;
  params?: Record<string, string>;
}

/** A list command: one page printed with its paging state on stderr, or with --all every page streamed. */
export async function runList(deps: Deps, route: RouteName, query: QueryInput, opts: ListOptions): Promise<void> {
  const api = await deps.client();
  if (!opts.all) {
    const res = await api.call(route, { query, ...(opts.params ? { params: opts.params } : {}) });
    if (!res) return;
    // Subscriber ids seen here are offered by Tab later (the completion cache).
    if (opts.view === 'subscribers') {
      await rememberIds(deps, ((res.data as { data?: unknown[] }).data ?? []) as unknown[]);
    }
    await deps.print(res.data, { view: opts.view, list: true });
    const hint = pagingHint(res.data);
    if (hint) deps.info(hint);
    return;
  }
  if (query.limit === undefined) query = { ...query, limit: opts.allLimit };
  const writer = await deps.records({ view: opts.view });
  let resumeFrom: string | undefined;
  const { method, path } = routes[route];
  try {
    const req = { method, path: buildPath(path, opts.params ?? {}), query };
    // ndjson or json without --fields or --query: each page is written from the answer's bytes (io/stream.ts, rawPage).
    for await (const page of opts.mode === 'page' && writer.raw ? api.rawPages(req, writer.scan) : api.pages(req, opts.mode)) {
      if (page.raw) await writer.rawPage(page.raw, deps.signal);
      else await writer.page(page.records);
      resumeFrom = page.next?.after !== undefined ? `--after ${page.next.after}` : page.next?.page !== undefined ? `--page ${page.next.page}` : undefined;
    }
    await writer.end();
    if (!deps.globals.dryRun) deps.info(`${writer.count} record${writer.count === 1 ? '' : 's'}`);
  } catch (err) {
    await writer.end();
    if (err instanceof InterruptedError || deps.signal.aborted) {
      const cont = resumeFrom ? `to continue, run the same command with ${resumeFrom}` : 'nothing to continue from';
      throw new InterruptedError(`interrupted after ${writer.count} record${writer.count === 1 ? '' : 's'}`, cont);
    }
    throw err;
  }
}

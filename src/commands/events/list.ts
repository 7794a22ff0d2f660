// svc events list [filters] → GET /v1/notifications
// --status keeps the events of an overall status (core/status.ts: delivered, failed, pending, merged,
// throttled, skipped, ...): the feed has no such filter, so it applies to each page as it arrives;
// without --all, pages are read on until a page's worth matched (at most STATUS_PAGES).
// --all on a terminal counts the events on stderr as pages arrive. --all to ndjson or json without
// --status, --fields or --query writes each page from the bytes the service sent (io/stream.ts,
// rawPage): memory then stays flat however many events an export holds.
import { intArg } from '../../cli-args.js';
import { InterruptedError, UsageError } from '../../core/errors.js';
import type { RawList } from '../../core/raw-json.js';
import { eventStatus, matchesStatus, STATUS_FILTERS } from '../../core/status.js';
import type { Deps, OutStream } from '../../deps.js';
import { routes } from '../../api/routes.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { rememberIds, rememberPrintedEvents } from './cache.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';

/** The feed's largest page (api-spec.md, operation 14). */
const EVENTS_MAX_LIMIT = 50;

export const command = () =>
  examples(
    eventFilters(new Command('list').description(about('list triggered events', 'listEvents')))
      .option('--status <status>', `overall status (repeatable or comma list): ${STATUS_FILTERS.join(', ')}`, statusList)
      .option('--page <n>', 'page number, from 0', intArg(0))
      .option('--limit <n>', `events per page, 1 to ${EVENTS_MAX_LIMIT} (with --status: of the pages looked through)`, intArg(1, EVENTS_MAX_LIMIT))
      .option('--all', 'follow every page to the end, streaming records'),
    [
      'svc events list --subscriber ada --since 2h',
      'svc events list --status failed --since 1d --all',
      'svc events list --channel email --channel sms --limit 50',
      'svc events list --all -o ndjson > events.ndjson',
    ],
  );

/** Resolves when `out` has written what it buffered (at once if it holds less than its mark), or closes. */
function drained(out: OutStream, signal: AbortSignal): Promise<void> {
  // An interrupt that came while an earlier step awaited has already fired: no abort event will come.
  if (!out.writableNeedDrain || out.destroyed || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

async function recordsOf(list: RawList): Promise<unknown[]> {
  const { parseElement } = await import('../../core/raw-json.js');
  return Array.from({ length: list.count }, (_, i) => parseElement(list, i));
}

function statusList(value: string, previous: string[] | undefined): string[] {
  const out = [...(previous ?? [])];
  for (const v of value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (!STATUS_FILTERS.includes(v)) throw new UsageError(`--status: expected one of ${STATUS_FILTERS.join(', ')}, got "${v.slice(0, 40)}"`);
    out.push(v);
  }
  return out;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = await resolveWorkflows(deps, { ...eventsQuery(opts, deps.now()), page: opts.page, limit: opts.limit });
  const wanted = opts.status;
  // A count on stderr as pages arrive, for a person waiting on --all.
  const tty = deps.io.stderr.isTTY === true && !deps.globals.quiet && !deps.globals.dryRun;
  const keep = (records: unknown[]) =>
    wanted?.length ? records.filter((r) => wanted.some((w) => matchesStatus(eventStatus((r as { jobs?: never }).jobs), w))) : records;
  const api = await deps.client();
  if (!opts.all && wanted?.length) return listByStatus(deps, api, query, wanted, keep);
  if (!opts.all) {
    const res = await api.call<{ data: unknown[]; hasMore?: boolean; page?: number }>('listEvents', { query });
    if (!res) return;
    await rememberIds(deps, res.data.data);
    await rememberPrintedEvents(deps, res.data.data);
    await deps.print(res.data, { view: 'events', list: true });
    const { pagingHint } = await import('../../io/output.js');
    const hint = pagingHint(res.data);
    if (hint) deps.info(hint);
    if (res.data.data.length === 0 && !query.page) await noSuchSubscribers(deps, opts.subscriber);
    return;
  }
  const writer = await deps.records({ view: 'events' });
  const { method, path } = routes.listEvents;
  let seen = 0;
  let next: number | undefined;
  const printed: unknown[] = [];
  const progress = (final = false) => {
    if (!tty) return;
    const text = wanted?.length ? `${writer.count} of ${seen} events with status ${wanted.join(' or ')}` : `${seen} events`;
    deps.io.stderr.write(`\r\u001b[2K${text}${final ? '\n' : '…'}`);
  };
  const req = { method, path, query: { ...query, limit: query.limit ?? EVENTS_MAX_LIMIT } };
  try {
    if (writer.raw && !wanted?.length) {
      for await (const page of api.rawPages(req)) {
        seen += page.raw ? page.raw.count : page.records.length;
        next = page.next?.page;
        // Only the first pages' records are parsed here, for the completion cache.
        if (seen <= 500) await rememberIds(deps, page.raw ? await recordsOf(page.raw) : page.records);
        if (tty && deps.io.stdout.isTTY) deps.io.stderr.write('\r\u001b[2K');
        if (page.raw) await writer.rawPage(page.raw, deps.signal);
        else await writer.page(page.records);
        await drained(deps.io.stdout, deps.signal);
        progress();
      }
    } else
      for await (const page of api.pages(req, 'page')) {
        seen += page.records.length;
        next = page.next?.page;
        const shown = keep(page.records);
        if (seen <= 500) await rememberIds(deps, page.records);
        // The first screenfuls a table shows, kept as one list; an export's ids are printed whole and not kept.
        if (printed.length < 200) for (const r of shown.slice(0, 200 - printed.length)) printed.push({ _id: (r as { _id?: unknown })._id });
        // The count line is cleared before records go to the same terminal, then drawn again.
        if (tty && deps.io.stdout.isTTY) deps.io.stderr.write('\r\u001b[2K');
        await writer.page(shown);
        // A reader slower than the feed (where a pipe is written asynchronously, as on macOS) must not
        // have svc hold the rest of the export in memory: the next page is asked for once stdout drains.
        await drained(deps.io.stdout, deps.signal);
        progress();
      }
    await writer.end();
    await rememberPrintedEvents(deps, printed);
    if (tty) progress(true);
    else if (!deps.globals.dryRun) deps.info(`${writer.count} record${writer.count === 1 ? '' : 's'}${wanted?.length ? ` of ${seen}` : ''}`);
    if (seen === 0 && !query.page) await noSuchSubscribers(deps, opts.subscriber);
  } catch (err) {
    await writer.end();
    if (tty) deps.io.stderr.write('\n');
    if (err instanceof InterruptedError || deps.signal.aborted) {
      throw new InterruptedError(
        `interrupted after ${writer.count} record${writer.count === 1 ? '' : 's'}`,
        next !== undefined ? `to continue, run the same command with --page ${next}` : 'nothing to continue from',
      );
    }
    throw err;
  }
}

/**
 * No events for --subscriber: says which of the ids (the first three) name no subscriber at all, so a
 * typo is not read as "they got nothing". One read each, only when the list is empty.
 */
async function noSuchSubscribers(deps: Deps, ids: readonly string[] | undefined): Promise<void> {
  if (!ids?.length || deps.globals.dryRun || deps.globals.quiet) return;
  const { ApiError } = await import('../../core/errors.js');
  // A hint is not worth waiting for: one attempt each, a few seconds at most, side by side.
  const api = await deps.client({ retries: 0, timeoutMs: Math.min(deps.globals.timeout, 5000) });
  const missing = await Promise.all(
    ids.slice(0, 3).map(async (subscriberId) => {
      try {
        await api.call('getSubscriber', { params: { subscriberId } });
        return undefined;
      } catch (e) {
        // Anything but a 404 (a refused key, the network): the list stands as it is, without the hint.
        return e instanceof ApiError && e.status === 404 ? subscriberId : undefined;
      }
    }),
  );
  for (const id of missing) if (id !== undefined) deps.info(`no subscriber has the id '${id}' (svc subscribers search --name, --email or --phone finds one)`);
}

/** Pages `events list --status` reads, at most, looking for a page's worth of matches. */
export const STATUS_PAGES = 40;

/**
 * --status without --all: the feed has no status filter, so pages are read (from --page on) until
 * they hold a page's worth of events of that status, the feed ends, or STATUS_PAGES were read; what
 * matched is printed, and stderr says how far it looked and which --page continues.
 */
async function listByStatus(
  deps: Deps,
  api: Awaited<ReturnType<Deps['client']>>,
  query: Record<string, unknown>,
  wanted: string[],
  keep: (records: unknown[]) => unknown[],
): Promise<void> {
  const first = (query.page as number | undefined) ?? 0;
  let size: number | undefined = query.limit as number | undefined;
  let read = 0;
  let hasMore = false;
  let last = first;
  const shown: unknown[] = [];
  // Ctrl-C while it looks: what matched so far is printed, and the page it was reading continues.
  let interrupted = false;
  try {
    for (let page = first; page < first + STATUS_PAGES; page++) {
      last = page;
      const res = await api.call<{ data: unknown[]; hasMore?: boolean; page?: number; pageSize?: number }>('listEvents', { query: { ...query, page } });
      if (!res) return;
      const records = res.data.data;
      size ??= res.data.pageSize ?? records.length;
      read += records.length;
      if (page === first) await rememberIds(deps, records);
      shown.push(...keep(records));
      hasMore = res.data.hasMore === true;
      if (!hasMore || shown.length >= (size || 1)) break;
    }
  } catch (e) {
    if (!(e instanceof InterruptedError) && !deps.signal.aborted) throw e;
    interrupted = true;
  }
  await rememberPrintedEvents(deps, shown);
  await deps.print({ data: shown, hasMore, page: last }, { view: 'events', list: true });
  if (interrupted) {
    throw new InterruptedError(
      `interrupted after looking through ${read} event${read === 1 ? '' : 's'} (${shown.length} with status ${wanted.join(' or ')}, printed)`,
      `to continue, run the same command with --page ${last}${size ? ` --limit ${size}` : ''}`,
    );
  }
  const pages = last === first ? `page ${first}` : `pages ${first}–${last}`;
  const more = hasMore ? `; more with --page ${last + 1}${size ? ` --limit ${size}` : ''}, or --all to look through every page` : '';
  deps.info(`${shown.length} event${shown.length === 1 ? '' : 's'} with status ${wanted.join(' or ')} among ${read} (${pages})${more}`);
}

// svc events list [filters] → GET /v1/notifications
// --status keeps the events of a derived status (core/status.ts: delivered, partial, failed, pending,
// merged, throttled, skipped, ...), judged over --channel's steps when given. Against svc dev (it
// answers GET /v1/svc-dev) the store filters: the feed's `svcStatus`, svc dev's own extension, so
// --page, --limit and --all page through the matches. Elsewhere the feed has no status filter:
// status-search.ts reads it until it has --limit matches or the feed ends, and a search its bound
// stops exits 8; --all reads the whole feed and prints what matches.
// --all on a terminal counts the events on stderr as pages arrive. --all to ndjson or json without
// --fields or --query writes each page from the bytes the service sent (io/stream.ts, rawPage), with
// svc's derived field added: memory then stays flat however many events an export holds.
import { intArg } from '../../cli-args.js';
import { ApiError, InterruptedError } from '../../core/errors.js';
import { pagingHint } from '../../io/output.js';
import type { RawList } from '../../io/raw-json.js';
import { eventStatus, matchesStatus, type StatusJob } from '../../core/status.js';
import type { Deps, OutStream } from '../../deps.js';
import { EVENTS_MAX_LIMIT } from '../../api/limits.js';
import { routes } from '../../api/routes.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { rememberIds, rememberPrintedEvents } from './cache.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';
import { STATUS_FILTERS, statusOption } from './status-list.js';

export const command = () =>
  examples(
    eventFilters(new Command('list').description(about('list triggered events', 'listEvents')))
      .addOption(statusOption(`derived status (repeatable or comma list): ${STATUS_FILTERS.join(', ')}; with --channel, that channel's own outcome`))
      .option('--page <n>', 'page number, from 0 (with --status: of the matching events)', intArg(0))
      .option('--limit <n>', `events per page, 1 to ${EVENTS_MAX_LIMIT}`, intArg(1, EVENTS_MAX_LIMIT))
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
  const { parseElement } = await import('../../io/raw-json.js');
  return Array.from({ length: list.count }, (_, i) => parseElement(list, i));
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = await resolveWorkflows(deps, { ...eventsQuery(opts, deps.now()), page: opts.page, limit: opts.limit });
  // `--channel email` judges the email step's own outcome.
  const scope = { channels: opts.channel };
  const api = await deps.client();
  let wanted = opts.status;
  if (wanted?.length) {
    const { hasExtension } = await import('../../api/local-service.js');
    if (await hasExtension(api, 'listEvents.svcStatus', { dryRun: deps.globals.dryRun })) {
      // svc dev: its store filters, so the pages are pages of matches like any other filter's.
      query.svcStatus = wanted;
      wanted = undefined;
    } else if (!opts.all) {
      const { searchByStatus } = await import('./status-search.js');
      return searchByStatus(deps, api, { query, wanted, scope, page: opts.page ?? 0, limit: opts.limit ?? 10 });
    }
  }
  // A count on stderr as pages arrive, for a person waiting on --all.
  const tty = deps.io.stderr.isTTY === true && !deps.globals.quiet && !deps.globals.dryRun;
  const keep = (records: unknown[]) =>
    wanted?.length ? records.filter((r) => wanted.some((w) => matchesStatus(eventStatus((r as { jobs?: StatusJob[] }).jobs, scope), w))) : records;
  if (!opts.all) {
    const res = await api.call<{ data: unknown[]; hasMore?: boolean; page?: number }>('listEvents', { query });
    if (!res) return;
    await rememberIds(deps, res.data.data);
    await rememberPrintedEvents(deps, res.data.data);
    await deps.print(res.data, { view: 'events', list: true, scope });
    const hint = pagingHint(res.data);
    if (hint) deps.info(hint);
    if (res.data.data.length === 0 && !query.page) await noSuchSubscribers(deps, opts.subscriber);
    return;
  }
  const writer = await deps.records({ view: 'events', scope });
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
      for await (const page of api.rawPages(req, writer.scan)) {
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

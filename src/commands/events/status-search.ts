// `events list --status` against a service whose feed has no status filter (the hosted service): the
// feed is read newest first, 50 events a request, and each event judged (core/status.ts) until --limit
// matches of the page asked for are found or the feed ends (within --since/--until). A search stopped
// by its bound (SEARCH_EVENTS looked through) never answers "none": it prints what it found, says how
// far back it looked and how to go on, and exits 8 (cli.md: a --status search that did not finish).
// Against svc dev the store filters instead (list.ts sends svcStatus), and this is not used.
import { InterruptedError, SvcError } from '../../core/errors.js';
import { type JudgeScope, matchesStatus, eventStatus, type StatusJob } from '../../core/status.js';
import type { Deps } from '../../deps.js';
import { rememberIds, rememberPrintedEvents } from './cache.js';

/** Events a --status search looks through at most (without --all) before it stops and says so. */
export const SEARCH_EVENTS = 10_000;
/** The feed's largest page: the search reads this many events a request. */
const READ_PAGE = 50;

/** A --status search stopped at its bound before the end of the feed (exit 8). */
class SearchStoppedError extends SvcError {
  constructor(message: string, hint: string) {
    super(message, 'search_incomplete', 8, hint);
  }
}

type Api = Awaited<ReturnType<Deps['client']>>;
type Event = { _id?: string; createdAt?: string; jobs?: StatusJob[] };

interface Search {
  query: Record<string, unknown>;
  wanted: readonly string[];
  scope: JudgeScope;
  /** The page of matches asked for (--page) and its size (--limit). */
  page: number;
  limit: number;
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Finds page `page` of the events of the wanted statuses, reading the feed from its newest event. */
export async function searchByStatus(deps: Deps, api: Api, s: Search): Promise<void> {
  const matches = (e: Event) => s.wanted.some((w) => matchesStatus(eventStatus(e.jobs, s.scope), w));
  const skip = s.page * s.limit;
  const tty = deps.io.stderr.isTTY === true && !deps.globals.quiet;
  const statusText = s.wanted.join(' or ');
  const shown: Event[] = [];
  let found = 0;
  let read = 0;
  let feedPage = 0;
  let more = true;
  let oldest: string | undefined;
  const progress = () => {
    if (tty) deps.io.stderr.write(`\r\u001b[2Klooked through ${plural(read, 'event')}, ${found.toLocaleString('en-US')} ${statusText}…`);
  };
  let interrupted = false;
  try {
    while (more && shown.length < s.limit && read < SEARCH_EVENTS) {
      const res = await api.call<{ data: Event[]; hasMore?: boolean }>('listEvents', { query: { ...s.query, page: feedPage, limit: READ_PAGE } });
      if (!res) return;
      const data = res.data.data;
      if (feedPage === 0) await rememberIds(deps, data);
      for (const e of data) {
        read++;
        oldest = e.createdAt ?? oldest;
        if (!matches(e)) continue;
        found++;
        if (found > skip && shown.length < s.limit) shown.push(e);
      }
      more = res.data.hasMore === true && data.length > 0;
      feedPage++;
      progress();
    }
  } catch (e) {
    if (!(e instanceof InterruptedError) && !deps.signal.aborted) throw e;
    interrupted = true;
  }
  if (tty && read > 0) deps.io.stderr.write('\r\u001b[2K');
  await rememberPrintedEvents(deps, shown);
  await deps.print({ data: shown, hasMore: more, page: s.page }, { view: 'events', list: true, scope: s.scope });
  const back = oldest ? ` (back to ${oldest})` : '';
  if (interrupted) {
    throw new InterruptedError(
      `interrupted after looking through ${plural(read, 'event')}${back}: ${found} with status ${statusText}`,
      oldest ? `to look further back, add --until ${oldest}` : 'nothing to continue from',
    );
  }
  if (shown.length >= s.limit) {
    deps.info(
      `${plural(shown.length, 'event')} with status ${statusText} (page ${s.page}), found among the newest ${plural(read, 'event')}; more: --page ${s.page + 1}`,
    );
    return;
  }
  if (!more) {
    deps.info(
      `${plural(shown.length, 'event')} with status ${statusText}${s.page ? ` on page ${s.page}` : ''}: looked through the whole feed (${plural(read, 'event')})`,
    );
    return;
  }
  throw new SearchStoppedError(
    `search stopped after ${plural(read, 'event')}${back}: ${found} with status ${statusText} found, more events not looked through`,
    `the feed has no status filter here, so svc reads it event by event; to look further back, add --until ${oldest ?? '(an older time)'}, narrow it with --since, --subscriber or --workflow, or read it all with --all`,
  );
}

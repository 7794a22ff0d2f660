// `svc events browse`: a full-screen browser of the activity feed, built on Ink (React for terminals).
// It reads through a `BrowseSource` (the command gives it one backed by the API client) page by page,
// refreshes the first page every few seconds, and keeps the selection on the same event as new ones
// arrive. The keys (? shows them):
//   ↑/↓ (j/k), PgUp/PgDn, g/G   move (more pages load as the cursor nears the end)
//   Enter   the event's timeline (Esc back)      /   filter (status:failed workflow:W subscriber:S, words)
//   r   re-trigger (y/n, then back where it was)  Esc   clear the filter      ?   help      q   quit
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, render, useApp, useInput, useStdout } from 'ink';
import { EVENT_STATUSES, type JudgeScope } from '../core/status.js';
import { safeText } from '../io/safe-text.js';
import type { TimeOptions } from '../io/time.js';
import { type KeyContext, onInput } from './keys.js';
import {
  initialState,
  serviceFilter,
  serviceKey,
  setFilter,
  statusesOf,
  subscriberOf,
  wantsMore,
  withPage,
  workflowOf,
  type BrowseEvent,
  type Filter,
  type Mode,
  type State,
} from './model.js';
import { frame, type View } from './screens.js';

/** One page of the feed, as the service answered it. */
export interface BrowsePage {
  data: BrowseEvent[];
  /** The service has more events after this page. */
  hasMore: boolean;
}

export interface BrowseSource {
  /**
   * A page of the feed (newest first) for the filters the service takes: subscriber and workflow, and
   * the derived status where the source says it filters by it (`statusByService`).
   */
  page(filter: { subscriber?: string; workflow?: string; status?: string[] }, page: number): Promise<BrowsePage>;
  /** One event with all its jobs. */
  get(id: string): Promise<BrowseEvent>;
  /** Triggers the event's workflow again for the same subscriber and payload; returns its transaction id. */
  retrigger(event: BrowseEvent): Promise<string>;
  /** The ids of the events on the screen (rows, or the timeline open), each time they change. */
  shown?(ids: string[]): void;
}

interface BrowseOptions {
  filter?: Filter;
  /** The service filters by derived status (svc dev): `status:` is asked of it, not narrowed locally. */
  statusByService?: boolean;
  /** Judge the status over these channels only (`--channel`). */
  judgeScope?: JudgeScope;
  time?: TimeOptions;
  refreshMs?: number;
  /** What else the feed is filtered by, fixed for the session (flags such as --since), for the header. */
  scope?: string;
  now?: () => number;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

const h = React.createElement;

function useSize(stdout: NodeJS.WriteStream): { columns: number; rows: number } {
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout]);
  return size;
}

function errorText(e: unknown): string {
  return safeText(e instanceof Error ? e.message.split('\n')[0]! : String(e));
}

function BrowseApp(props: { source: BrowseSource; options: BrowseOptions }): React.ReactElement {
  const { source, options } = props;
  const now = options.now ?? Date.now;
  const time = options.time ?? {};
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useSize(stdout);
  const byService = options.statusByService === true;
  const scope = options.judgeScope ?? {};
  const [state, setState] = useState<State>(() => initialState(options.filter, { statusByService: byService, scope }));
  // The state as of the last key: keys can arrive faster than renders (a paste, a quick typist), and
  // each must see what the one before it did.
  const current = useRef<State>(state);
  const update = (f: (s: State) => State) => {
    current.current = f(current.current);
    setState(current.current);
  };
  const alive = useRef(true);
  const fitted = useRef<View['fitted']['current']>(undefined);
  // The ids the screen drawn last shows, told to the source once drawn (for `events get SHORT` later).
  const onScreen = useRef<string[]>([]);
  const told = useRef('');
  useEffect(() => {
    const key = onScreen.current.join(' ');
    if (key === told.current || onScreen.current.length === 0) return;
    told.current = key;
    source.shown?.(onScreen.current);
  });
  // Ink writes a frame a line shorter than the terminal: a full frame would scroll it.
  const width = Math.max(20, columns - 1);
  const pageRows = Math.max(3, rows - 5);
  const loadPage = usePages({ source, refreshMs: options.refreshMs ?? 3000, byService, now, current, update, alive });
  // More pages as the cursor nears the end, or while a narrowed list does not fill the screen.
  useEffect(() => {
    if (wantsMore(state, pageRows) && !loadPage.busy()) void loadPage(state.pages);
  });

  const keys: KeyContext = {
    state: () => current.current,
    update,
    exit,
    loadPage: (page) => void loadPage(page),
    applyFilter: (f: Filter) => {
      const unknown = statusesOf(f).filter((x) => !(EVENT_STATUSES as readonly string[]).includes(x));
      if (unknown.length) {
        // Kept in the box to correct, with the statuses there are.
        update((s) => ({ ...s, message: `no status ${unknown.join(', ')}: ${EVENT_STATUSES.join(', ')}` }));
        return;
      }
      const reload = serviceKey(f, byService) !== serviceKey(current.current.filter, byService);
      update((s) => setFilter(s, f));
      if (reload) void loadPage(0);
    },
    openDetail: (e: BrowseEvent) => {
      if (!e._id) return;
      const id = e._id;
      update((s) => ({ ...s, mode: { kind: 'detail', id, scroll: 0 } }));
      source.get(id).then(
        (full) => alive.current && update((s) => ({ ...s, details: { ...s.details, [id]: full } })),
        (err) => alive.current && update((s) => ({ ...s, message: `could not load the timeline: ${errorText(err)}` })),
      );
    },
    retrigger: (e: BrowseEvent, back: Mode) => {
      update((s) => ({ ...s, mode: back, message: `re-triggering ${workflowOf(e)} to ${subscriberOf(e)}…` }));
      source.retrigger(e).then(
        (tx) => {
          if (!alive.current) return;
          update((s) => ({ ...s, message: `re-triggered ${workflowOf(e)} to ${subscriberOf(e)}: transaction ${tx}` }));
          void loadPage(0);
        },
        (err) => alive.current && update((s) => ({ ...s, message: `re-trigger failed: ${errorText(err)}` })),
      );
    },
    width,
    rows,
    pageRows,
    time,
    scope,
  };
  useInput((input, key) => onInput(keys, input, key));
  const lines = frame({ state, width, rows, pageRows, time, scope, now, byService, sessionScope: options.scope, fitted, onScreen });
  return h(Box, { flexDirection: 'column', width }, ...lines);
}

interface Paging {
  source: BrowseSource;
  refreshMs: number;
  byService: boolean;
  now: () => number;
  current: { current: State };
  update: (f: (s: State) => State) => void;
  alive: { current: boolean };
}

/**
 * Reading pages of the feed: the first page again every `refreshMs` (and on demand), later pages as the
 * list asks for them. Reads of the first page (refreshes): only the newest one asked for may land, and
 * a timed refresh does not start while one for the same filter has been on its way for less than three
 * intervals (a slow service is not asked twice; one stuck answer does not stop the refreshes for long).
 */
function usePages(p: Paging): ((page: number, timed?: boolean) => Promise<void>) & { busy(): boolean } {
  const { source, refreshMs, byService, now, current, update, alive } = p;
  // The later page being loaded (service filter and page), so a page is asked for once.
  const inflight = useRef<string | undefined>(undefined);
  const first = useRef<{ seq: number; key?: string; since: number }>({ seq: 0, since: 0 });
  // Bumped whenever a later page's read ends, so that the next page is considered again: when the
  // filter changed meanwhile, nothing was drawn and no other render would ask for it.
  const [, readEnded] = useState(0);
  const loadPage = useCallback(
    async (page: number, timed = false) => {
      const filter = current.current.filter;
      const filterKey = serviceKey(filter, byService);
      const key = `${filterKey}:${page}`;
      if (page > 0 && inflight.current === key) return;
      let mine = 0;
      if (page === 0) {
        if (timed && first.current.key === filterKey && now() - first.current.since < 3 * refreshMs) return;
        mine = ++first.current.seq;
        first.current.key = filterKey;
        first.current.since = now();
      }
      if (page > 0) inflight.current = key;
      // A first page read before a newer one was asked for, or a page for a filter since changed, lands
      // nowhere: neither its rows nor its failure.
      const stale = () => (page === 0 && mine !== first.current.seq) || serviceKey(current.current.filter, byService) !== filterKey;
      try {
        const res = await source.page(serviceFilter(filter, byService), page);
        if (alive.current && !stale()) update((s) => withPage(s, page, res.data, res.hasMore, now()));
      } catch (e) {
        if (alive.current && !stale())
          update((s) => ({ ...s, loading: false, hasMore: false, message: `${page ? 'loading more' : 'refresh'} failed: ${errorText(e)}` }));
      } finally {
        if (page === 0 && mine === first.current.seq) first.current.key = undefined;
        if (inflight.current === key) {
          inflight.current = undefined;
          if (alive.current) readEnded((n) => n + 1);
        }
      }
    },
    [source, refreshMs],
  );
  useEffect(() => {
    void loadPage(0);
    const t = setInterval(() => void loadPage(0, true), refreshMs);
    return () => {
      alive.current = false;
      clearInterval(t);
    };
  }, [loadPage, refreshMs]);
  return Object.assign((page: number, timed?: boolean) => loadPage(page, timed), { busy: () => inflight.current !== undefined });
}

export async function runBrowse(source: BrowseSource, options: BrowseOptions = {}): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  stdout.write('\u001b[?1049h\u001b[H');
  const app = render(h(BrowseApp, { source, options }), {
    stdout,
    stdin: options.stdin ?? process.stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  try {
    await app.waitUntilExit();
  } finally {
    app.cleanup();
    stdout.write('\u001b[?1049l');
  }
}

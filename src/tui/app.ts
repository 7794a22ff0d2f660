// `svc events browse`: a full-screen browser of the activity feed, built on Ink (React for terminals).
// It reads through a `BrowseSource` (the command gives it one backed by the API client) page by page,
// refreshes the first page every few seconds, and keeps the selection on the same event as new ones
// arrive. The keys (? shows them):
//   ↑/↓ (j/k), PgUp/PgDn, g/G   move (more pages load as the cursor nears the end)
//   Enter   the event's timeline (Esc back)      /   filter (status:failed workflow:W subscriber:S, words)
//   r   re-trigger (y/n, then back where it was)  Esc   clear the filter      ?   help      q   quit
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, type Key, Text, render, useApp, useInput, useStdout } from 'ink';
import { eventStatus, type JudgeScope, nothingDelivered, STATUS_FILTERS } from '../core/status.js';
import type { FitResult } from '../io/fit.js';
import { width as displayWidth, padWidth, takeWidth } from '../io/fit.js';
import { safeText } from '../io/safe-text.js';
import { formatTime, type TimeOptions } from '../io/time.js';
import {
  AUTO_PAGES,
  countText,
  filterText,
  initialState,
  listFit,
  listLines,
  matches,
  move,
  narrowsLocally,
  parseFilter,
  selectedEvent,
  serviceFilter,
  serviceKey,
  setFilter,
  statusesOf,
  subscriberOf,
  timelineLines,
  visibleEvents,
  wantsMore,
  withPage,
  workflowOf,
  type BrowseEvent,
  type Filter,
  type Mode,
  type State,
} from './model.js';

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

export interface BrowseOptions {
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

function colourFor(status: string): string | undefined {
  if (status === 'failed') return 'red';
  if (status === 'pending' || status === 'partial') return 'yellow';
  if (status === 'delivered' || status === 'completed') return 'green';
  return undefined;
}

/** One line no wider than `width` terminal columns, safe for the terminal. */
const oneLine = (s: string, max: number) => {
  const t = safeText(s);
  return displayWidth(t) > max ? `${takeWidth(t, max - 1)}…` : t;
};

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

const HELP: [string, string][] = [
  ['↑ ↓  j k', 'move (more events load as you reach the end)'],
  ['PgUp PgDn', 'a screen up or down'],
  ['g G', 'the newest, the oldest loaded'],
  ['Enter', "the event's timeline (Esc or ← back)"],
  ['/', 'filter: subscriber:ID workflow:ID status:failed,partial'],
  ['', 'and words (among the events loaded)'],
  ['Esc', 'clear the filter (in the timeline: back to the list)'],
  ['r', 'trigger the event again to the same subscriber (y/n)'],
  ['R', 'refresh now'],
  ['?', 'this help'],
  ['q', 'quit (Ctrl-C too)'],
];

const ESC_HINT = 'q quits; ? shows the keys';

/** A filter's text to go on typing after: a space after it unless it is empty. */
const withSpace = (text: string) => (text ? `${text} ` : '');

export function BrowseApp(props: { source: BrowseSource; options: BrowseOptions }): React.ReactElement {
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
  // The page being loaded (service filter and page), so a page is asked for once.
  const inflight = useRef<string | undefined>(undefined);
  // The columns' layout for this screen: kept while the cursor moves (see listFit).
  const fitted = useRef<{ key: string; fit: FitResult; rows: number } | undefined>(undefined);
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

  // Reads of the first page (refreshes): only the newest one asked for may land, and a timed refresh
  // does not start while one for the same filter has been on its way for less than three intervals (a
  // slow service is not asked twice; one stuck answer does not stop the refreshes for long).
  const refreshMs = options.refreshMs ?? 3000;
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

  // More pages as the cursor nears the end, or while a narrowed list does not fill the screen.
  useEffect(() => {
    if (wantsMore(state, pageRows) && inflight.current === undefined) void loadPage(state.pages);
  });

  const applyFilter = (f: Filter) => {
    const unknown = statusesOf(f).filter((x) => !STATUS_FILTERS.includes(x));
    if (unknown.length) {
      // Kept in the box to correct, with the statuses there are.
      update((s) => ({ ...s, message: `no status ${unknown.join(', ')}: ${STATUS_FILTERS.join(', ')}` }));
      return;
    }
    const reload = serviceKey(f, byService) !== serviceKey(current.current.filter, byService);
    update((s) => setFilter(s, f));
    if (reload) void loadPage(0);
  };

  const openDetail = (e: BrowseEvent) => {
    if (!e._id) return;
    const id = e._id;
    update((s) => ({ ...s, mode: { kind: 'detail', id, scroll: 0 } }));
    source.get(id).then(
      (full) => alive.current && update((s) => ({ ...s, details: { ...s.details, [id]: full } })),
      (err) => alive.current && update((s) => ({ ...s, message: `could not load the timeline: ${errorText(err)}` })),
    );
  };

  const retrigger = (e: BrowseEvent, back: Mode) => {
    update((s) => ({ ...s, mode: back, message: `re-triggering ${workflowOf(e)} to ${subscriberOf(e)}…` }));
    source.retrigger(e).then(
      (tx) => {
        if (!alive.current) return;
        update((s) => ({ ...s, message: `re-triggered ${workflowOf(e)} to ${subscriberOf(e)}: transaction ${tx}` }));
        void loadPage(0);
      },
      (err) => alive.current && update((s) => ({ ...s, message: `re-trigger failed: ${errorText(err)}` })),
    );
  };

  // A terminal delivers what arrives together as one chunk: typed-ahead keys ("gr") or text and its
  // Enter ("status:failed\r"). Each character is a key press of its own, in order.
  useInput((input, key) => {
    if (input.length > 1 && !key.ctrl && !key.meta && !input.includes('\u001b')) {
      const plain = Object.fromEntries(Object.keys(key).map((k) => [k, false])) as unknown as Key;
      for (const ch of input) {
        if (ch === '\r' || ch === '\n') onKey('', { ...plain, return: true });
        else if (ch === '\u007f' || ch === '\b') onKey('', { ...plain, backspace: true });
        // Ctrl-U (clear the filter being typed) and Ctrl-C keep their meaning; other controls are no text.
        else if (ch === '\u0015') onKey('u', { ...plain, ctrl: true });
        else if (ch === '\u0003') onKey('c', { ...plain, ctrl: true });
        else if (ch >= ' ') onKey(ch, plain);
      }
      return;
    }
    onKey(input, key);
  });
  function onKey(input: string, key: Key): void {
    const state = current.current;
    const mode = state.mode;
    if (key.ctrl && input === 'c') return exit();
    if (mode.kind === 'help') return update((s) => ({ ...s, mode: mode.back }));
    if (mode.kind === 'filter') {
      if (key.escape) return update((s) => ({ ...s, mode: { kind: 'list' } }));
      // Keys can arrive faster than renders: each change reads the state it changes.
      const edit = (f: (text: string) => string) =>
        update((s) => (s.mode.kind === 'filter' ? { ...s, mode: { kind: 'filter' as const, input: f(s.mode.input) } } : s));
      if (key.return) {
        const m = current.current.mode;
        return m.kind === 'filter' ? applyFilter(parseFilter(m.input)) : undefined;
      }
      if (key.backspace || key.delete) return edit((t) => t.slice(0, -1));
      if (key.ctrl && input === 'u') return edit(() => '');
      if (input && !key.ctrl && !key.meta) return edit((t) => t + input.replace(/[\r\n]/g, ''));
      return;
    }
    if (mode.kind === 'confirm') {
      const e = state.details[mode.id] ?? state.events.find((x) => x._id === mode.id);
      if (input === 'y' && e) return retrigger(e, mode.back);
      // No (or anything else): back where the question was asked, the timeline as it was.
      return update((s) => ({ ...s, mode: mode.back, message: 'not re-triggered' }));
    }
    if (input === '?') return update((s) => ({ ...s, mode: { kind: 'help', back: mode } }));
    if (mode.kind === 'detail') {
      const total = timelineLines(state.details[mode.id] ?? state.events.find((x) => x._id === mode.id) ?? {}, width, time, scope).length;
      const maxScroll = Math.max(0, total - (rows - 3));
      const scroll = (by: number) => update((s) => ({ ...s, mode: { ...mode, scroll: Math.max(0, Math.min(maxScroll, mode.scroll + by)) } }));
      if (key.escape || key.leftArrow || key.backspace) return update((s) => ({ ...s, mode: { kind: 'list' }, message: undefined }));
      if (input === 'q') return exit();
      if (key.upArrow || input === 'k') return scroll(-1);
      if (key.downArrow || input === 'j') return scroll(1);
      if (key.pageUp) return scroll(-(rows - 4));
      if (key.pageDown || input === ' ') return scroll(rows - 4);
      if (input === 'r') return update((s) => ({ ...s, message: undefined, mode: { kind: 'confirm', id: mode.id, back: mode } }));
      return;
    }
    if (input === 'q') return exit();
    if (key.escape) {
      // Back, not out: Esc clears the filter; q quits.
      if (filterText(state.filter)) return applyFilter({});
      return update((s) => ({ ...s, message: ESC_HINT }));
    }
    // The hint answers that one Esc; the next key takes it away.
    if (state.message === ESC_HINT) update((s) => (s.message === ESC_HINT ? { ...s, message: undefined } : s));
    if (key.upArrow || input === 'k') return update((s) => move(s, -1, pageRows));
    if (key.downArrow || input === 'j') return update((s) => move(s, 1, pageRows));
    if (key.pageUp) return update((s) => move(s, -pageRows, pageRows));
    if (key.pageDown) return update((s) => move(s, pageRows, pageRows));
    if (input === 'g' || key.home) return update((s) => move(s, -1e9, pageRows));
    if (input === 'G' || key.end) return update((s) => move(s, 1e9, pageRows));
    // The filter set so far, and a space after it: what is typed next is a word of its own.
    if (input.startsWith('/'))
      return update((s) => ({
        ...s,
        message: undefined,
        mode: { kind: 'filter', input: input.length > 1 ? input.slice(1) : withSpace(filterText(s.filter)) },
      }));
    if (key.return) {
      const e = selectedEvent(state);
      if (e) openDetail(e);
      return;
    }
    if (input === 'r') {
      const e = selectedEvent(state);
      if (e?._id) update((s) => ({ ...s, message: undefined, mode: { kind: 'confirm', id: e._id!, back: { kind: 'list' } } }));
      return;
    }
    if (input === 'R') return void loadPage(0);
  }

  const lines: React.ReactElement[] = [];
  const shownMode = state.mode.kind === 'help' ? state.mode.back : state.mode;
  onScreen.current = [];
  const list = visibleEvents(state);
  const updated = state.updatedAt ? formatTime(new Date(state.updatedAt).toISOString(), 'clock', time) : '…';
  const filter = filterText(state.filter);
  const body = rows - 3;

  if (state.mode.kind === 'help') {
    lines.push(h(Text, { key: 'title', bold: true }, oneLine('svc events browse: keys', width)));
    lines.push(h(Text, { key: 'gap' }, ' '));
    for (const [i, [k, what]] of HELP.entries()) lines.push(h(Text, { key: `h${i}` }, oneLine(`  ${k.padEnd(11)}${what}`, width) || ' '));
    for (let i = HELP.length + 2; i < rows - 2; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
    lines.push(h(Text, { key: 'help', dimColor: true }, oneLine('any key closes this help', width)));
  } else if (shownMode.kind === 'detail' || (shownMode.kind === 'confirm' && shownMode.back.kind === 'detail')) {
    const id = shownMode.id;
    onScreen.current = [id];
    const e = state.details[id] ?? state.events.find((x) => x._id === id) ?? {};
    const all = timelineLines(e, width, time, scope);
    const scroll = shownMode.kind === 'detail' ? shownMode.scroll : shownMode.back.kind === 'detail' ? shownMode.back.scroll : 0;
    const shown = all.slice(scroll, scroll + body);
    lines.push(h(Text, { key: 'title', bold: true }, oneLine(`Timeline of ${id}${state.details[id] ? '' : ' (loading…)'}`, width)));
    shown.forEach((l, i) => {
      const failed = /^\s*\d+\. .*\bfailed$/.test(l) || l.startsWith('✗');
      lines.push(h(Text, { key: `l${i}`, color: failed ? 'red' : undefined }, l || ' '));
    });
    for (let i = shown.length; i < body; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
    const help =
      shownMode.kind === 'confirm'
        ? `re-trigger ${workflowOf(e)} to ${subscriberOf(e)} with the same payload? y/n`
        : `${state.message ? `${state.message}  ` : ''}↑↓ scroll  Esc back  r re-trigger  ? help  ${scroll + shown.length}/${all.length}`;
    lines.push(h(Text, { key: 'help', dimColor: shownMode.kind !== 'confirm', bold: shownMode.kind === 'confirm' }, oneLine(help, width)));
  } else {
    const head = `svc events browse  ${countText(state)}${filter ? `  [${filter}]` : ''}${options.scope ? `  ${options.scope}` : ''}  updated ${updated}`;
    lines.push(h(Text, { key: 'title', bold: true }, oneLine(head, width)));
    const top = Math.min(state.top, Math.max(0, list.length - pageRows));
    const page = list.slice(top, top + pageRows);
    // The columns' widths are set once per screen (width and filter) from the events loaded then, and
    // kept as the rows scroll; fitted again once the first screen is full.
    const fitKey = `${width}|${filter}`;
    if (!fitted.current || fitted.current.key !== fitKey || (fitted.current.rows < pageRows && list.length > fitted.current.rows)) {
      fitted.current = list.length ? { key: fitKey, fit: listFit(list, width, time, now(), scope), rows: list.length } : undefined;
    }
    onScreen.current = page.flatMap((e) => (e._id ? [e._id] : []));
    const table = listLines(page, width, time, now(), fitted.current?.fit, scope);
    lines.push(h(Text, { key: 'head', dimColor: true }, table.header || ' '));
    page.forEach((e, i) => {
      const selected = top + i === state.cursor;
      const status = table.statuses[i] ?? eventStatus(e.jobs, scope);
      const row = padWidth(table.rows[i] ?? '', width);
      lines.push(
        h(Text, { key: e._id ?? `r${i}`, inverse: selected, color: colourFor(status), dimColor: !selected && nothingDelivered(status as never) }, row),
      );
    });
    if (list.length === 0)
      lines.push(
        h(
          Text,
          { key: 'empty', dimColor: true },
          oneLine(
            state.loading
              ? 'loading…'
              : state.events.length || state.hasMore || filter
                ? // A lone word is most often a subscriber id: the service can look for that among all events.
                  state.filter.text &&
                  !/\s/.test(state.filter.text) &&
                  !state.filter.subscriber &&
                  !state.events.some((e) => matches(e, { text: state.filter.text }, scope))
                  ? `no loaded event matches ${safeText(state.filter.text)}; a subscriber id? try /subscriber:${safeText(state.filter.text)}`
                  : 'no event matches the filter (/ to change it, Esc to clear it)'
                : 'no events',
            width,
          ),
        ),
      );
    for (let i = Math.max(1, page.length); i < pageRows; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
    // A status or words narrow what is loaded: after a bound of pages loaded unasked, say how to go on.
    const paused = narrowsLocally(state.filter, byService) && state.hasMore && state.autoPages >= AUTO_PAGES && !state.message;
    const message = paused ? `stopped after the newest ${state.events.length} events (older not looked at); ↓ or G looks further` : state.message;
    lines.push(h(Text, { key: 'msg', color: message?.includes('failed') ? 'red' : undefined }, oneLine(message ?? ' ', width) || ' '));
    let help = '↑↓ move  Enter timeline  / filter  Esc clear  r re-trigger  ? help  q quit';
    if (shownMode.kind === 'filter') help = `filter: ${shownMode.input}▏  (status:failed workflow:W subscriber:S; Enter, Esc)`;
    if (shownMode.kind === 'confirm') {
      const e = state.events.find((x) => x._id === shownMode.id);
      help = `re-trigger ${e ? workflowOf(e) : '?'} to ${e ? subscriberOf(e) : '?'} with the same payload? y/n`;
    }
    lines.push(h(Text, { key: 'help', dimColor: shownMode.kind === 'list', bold: shownMode.kind !== 'list' }, oneLine(help, width)));
  }
  return h(Box, { flexDirection: 'column', width }, ...lines);
}

/**
 * Runs the browser on the alternate screen until the person quits; the terminal is restored on the
 * way out, also after an error.
 */
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

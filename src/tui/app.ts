// `svc events browse`: a full-screen browser of the activity feed, built on Ink (React for terminals).
// It reads through a `BrowseSource` (the command gives it one backed by the API client), refreshes
// every few seconds, and keeps the selection on the same event as new ones arrive.
//   ↑/↓ (j/k), PgUp/PgDn, g/G   move          Enter   the event's timeline (Esc back)
//   /   filter (status:failed workflow:welcome subscriber:ada, or words)     r   re-trigger   q   quit
import React, { useCallback, useEffect, useRef, useState } from 'react';
import { Box, type Key, Text, render, useApp, useInput, useStdout } from 'ink';
import { eventStatus, nothingDelivered } from '../core/status.js';
import { formatTime, type TimeOptions } from '../io/time.js';
import {
  filterText,
  initialState,
  listLines,
  move,
  parseFilter,
  selectedEvent,
  setFilter,
  subscriberOf,
  timelineLines,
  visibleEvents,
  withEvents,
  workflowOf,
  type BrowseEvent,
  type Filter,
  type State,
} from './model.js';

export interface BrowseSource {
  /** The newest events (the feed's first pages), newest first. */
  list(): Promise<BrowseEvent[]>;
  /** One event with all its jobs. */
  get(id: string): Promise<BrowseEvent>;
  /** Triggers the event's workflow again for the same subscriber and payload; returns its transaction id. */
  retrigger(event: BrowseEvent): Promise<string>;
}

export interface BrowseOptions {
  filter?: Filter;
  time?: TimeOptions;
  refreshMs?: number;
  now?: () => number;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

const h = React.createElement;

function colourFor(status: string): string | undefined {
  if (status === 'failed') return 'red';
  if (status === 'pending') return 'yellow';
  if (status === 'delivered' || status === 'completed') return 'green';
  return undefined;
}

const oneLine = (s: string, width: number) => (s.length > width ? `${s.slice(0, Math.max(0, width - 1))}…` : s);

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
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

export function BrowseApp(props: { source: BrowseSource; options: BrowseOptions }): React.ReactElement {
  const { source, options } = props;
  const now = options.now ?? Date.now;
  const time = options.time ?? {};
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useSize(stdout);
  const [state, setState] = useState<State>(() => initialState(options.filter));
  // The state as of the last key: keys can arrive faster than renders (a paste, a quick typist), and
  // each must see what the one before it did.
  const current = useRef<State>(state);
  const update = (f: (s: State) => State) => {
    current.current = f(current.current);
    setState(current.current);
  };
  const alive = useRef(true);
  // Ink writes a frame a line shorter than the terminal: a full frame would scroll it.
  const width = Math.max(20, columns - 1);
  const pageRows = Math.max(3, rows - 5);

  const load = useCallback(async () => {
    try {
      const events = await source.list();
      if (alive.current) update((s) => withEvents(s, events, now()));
    } catch (e) {
      if (alive.current) update((s) => ({ ...s, loading: false, message: `refresh failed: ${errorText(e)}` }));
    }
  }, [source]);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), options.refreshMs ?? 3000);
    return () => {
      alive.current = false;
      clearInterval(t);
    };
  }, [load]);

  const openDetail = (e: BrowseEvent) => {
    if (!e._id) return;
    const id = e._id;
    update((s) => ({ ...s, mode: { kind: 'detail', id, scroll: 0 } }));
    source.get(id).then(
      (full) => alive.current && update((s) => ({ ...s, details: { ...s.details, [id]: full } })),
      (err) => alive.current && update((s) => ({ ...s, message: `could not load the timeline: ${errorText(err)}` })),
    );
  };

  const retrigger = (e: BrowseEvent) => {
    update((s) => ({ ...s, mode: { kind: 'list' }, message: `re-triggering ${workflowOf(e)} to ${subscriberOf(e)}…` }));
    source.retrigger(e).then(
      (tx) => {
        if (!alive.current) return;
        update((s) => ({ ...s, message: `re-triggered ${workflowOf(e)} to ${subscriberOf(e)}: transaction ${tx}` }));
        void load();
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
        else onKey(ch, plain);
      }
      return;
    }
    onKey(input, key);
  });
  function onKey(input: string, key: Key): void {
    const state = current.current;
    const mode = state.mode;
    if (key.ctrl && input === 'c') return exit();
    if (mode.kind === 'filter') {
      if (key.escape) return update((s) => ({ ...s, mode: { kind: 'list' } }));
      // Keys can arrive faster than renders: each change reads the state it changes.
      const edit = (f: (text: string) => string) =>
        update((s) => (s.mode.kind === 'filter' ? { ...s, mode: { kind: 'filter' as const, input: f(s.mode.input) } } : s));
      if (key.return) return update((s) => (s.mode.kind === 'filter' ? setFilter(s, parseFilter(s.mode.input)) : s));
      if (key.backspace || key.delete) return edit((t) => t.slice(0, -1));
      if (key.ctrl && input === 'u') return edit(() => '');
      if (input && !key.ctrl && !key.meta) return edit((t) => t + input.replace(/[\r\n]/g, ''));
      return;
    }
    if (mode.kind === 'confirm') {
      const e = state.events.find((x) => x._id === mode.id);
      if (input === 'y' && e) return retrigger(e);
      return update((s) => ({ ...s, mode: { kind: 'list' }, message: 'not re-triggered' }));
    }
    if (mode.kind === 'detail') {
      const total = timelineLines(state.details[mode.id] ?? state.events.find((x) => x._id === mode.id) ?? {}, width, time).length;
      const maxScroll = Math.max(0, total - (rows - 3));
      const scroll = (by: number) => update((s) => ({ ...s, mode: { ...mode, scroll: Math.max(0, Math.min(maxScroll, mode.scroll + by)) } }));
      if (key.escape || input === 'q' || key.leftArrow || key.backspace) return update((s) => ({ ...s, mode: { kind: 'list' } }));
      if (key.upArrow || input === 'k') return scroll(-1);
      if (key.downArrow || input === 'j') return scroll(1);
      if (key.pageUp) return scroll(-(rows - 4));
      if (key.pageDown || input === ' ') return scroll(rows - 4);
      if (input === 'r') return update((s) => ({ ...s, mode: { kind: 'confirm', id: mode.id } }));
      return;
    }
    if (input === 'q' || key.escape) return exit();
    if (key.upArrow || input === 'k') return update((s) => move(s, -1, pageRows));
    if (key.downArrow || input === 'j') return update((s) => move(s, 1, pageRows));
    if (key.pageUp) return update((s) => move(s, -pageRows, pageRows));
    if (key.pageDown) return update((s) => move(s, pageRows, pageRows));
    if (input === 'g' || key.home) return update((s) => move(s, -1e9, pageRows));
    if (input === 'G' || key.end) return update((s) => move(s, 1e9, pageRows));
    if (input.startsWith('/')) return update((s) => ({ ...s, mode: { kind: 'filter', input: input.length > 1 ? input.slice(1) : filterText(s.filter) } }));
    if (key.return) {
      const e = selectedEvent(state);
      if (e) openDetail(e);
      return;
    }
    if (input === 'r') {
      const e = selectedEvent(state);
      if (e?._id) update((s) => ({ ...s, mode: { kind: 'confirm', id: e._id! } }));
      return;
    }
    if (input === 'R') return void load();
  }

  const lines: React.ReactElement[] = [];
  const mode = state.mode;
  const list = visibleEvents(state);
  const updated = state.updatedAt ? formatTime(new Date(state.updatedAt).toISOString(), 'clock', time) : '…';
  const filter = filterText(state.filter);

  if (mode.kind === 'detail' || (mode.kind === 'confirm' && state.details[mode.id])) {
    const id = mode.id;
    const e = state.details[id] ?? state.events.find((x) => x._id === id) ?? {};
    const all = timelineLines(e, width, time);
    const scroll = mode.kind === 'detail' ? mode.scroll : 0;
    const shown = all.slice(scroll, scroll + rows - 3);
    lines.push(h(Text, { key: 'title', bold: true }, oneLine(`Timeline of ${id}${state.details[id] ? '' : ' (loading…)'}`, width)));
    shown.forEach((l, i) => {
      const failed = /^\s*\d+\. .*\bfailed$/.test(l) || l.startsWith('✗');
      lines.push(h(Text, { key: `l${i}`, color: failed ? 'red' : undefined }, l || ' '));
    });
    for (let i = shown.length; i < rows - 3; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
    lines.push(
      h(
        Text,
        { key: 'help', dimColor: true },
        oneLine(
          mode.kind === 'confirm'
            ? `re-trigger ${workflowOf(e)} to ${subscriberOf(e)} with the same payload? y/n`
            : `↑↓ scroll  Esc back  r re-trigger  ${scroll + shown.length}/${all.length}`,
          width,
        ),
      ),
    );
  } else {
    const head = `svc events browse  ${list.length}${list.length !== state.events.length ? ` of ${state.events.length}` : ''} events${filter ? `  [${filter}]` : ''}  updated ${updated}`;
    lines.push(h(Text, { key: 'title', bold: true }, oneLine(head, width)));
    const top = Math.min(state.top, Math.max(0, list.length - pageRows));
    const page = list.slice(top, top + pageRows);
    const table = listLines(page, width, time, now());
    lines.push(h(Text, { key: 'head', dimColor: true }, table.header || ' '));
    page.forEach((e, i) => {
      const selected = top + i === state.cursor;
      const status = table.statuses[i] ?? eventStatus(e.jobs);
      const row = (table.rows[i] ?? '').padEnd(width);
      lines.push(
        h(Text, { key: e._id ?? `r${i}`, inverse: selected, color: colourFor(status), dimColor: !selected && nothingDelivered(status as never) }, row),
      );
    });
    if (list.length === 0)
      lines.push(
        h(
          Text,
          { key: 'empty', dimColor: true },
          state.loading ? 'loading…' : state.events.length ? 'no event matches the filter (/ to change it)' : 'no events yet',
        ),
      );
    for (let i = Math.max(1, page.length); i < pageRows; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
    lines.push(h(Text, { key: 'msg', color: state.message?.includes('failed') ? 'red' : undefined }, oneLine(state.message ?? ' ', width) || ' '));
    let help = '↑↓ move  Enter timeline  / filter  r re-trigger  q quit';
    if (mode.kind === 'filter') help = `filter: ${mode.input}▏  (status:failed workflow:W subscriber:S; Enter, Esc)`;
    if (mode.kind === 'confirm') {
      const e = state.events.find((x) => x._id === mode.id);
      help = `re-trigger ${e ? workflowOf(e) : '?'} to ${e ? subscriberOf(e) : '?'} with the same payload? y/n`;
    }
    lines.push(h(Text, { key: 'help', dimColor: mode.kind === 'list', bold: mode.kind !== 'list' }, oneLine(help, width)));
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

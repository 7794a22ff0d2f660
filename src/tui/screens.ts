// What `events browse` draws for its state: the list, an event's timeline, the keys. Pure: the lines of
// one frame from the state (app.ts keeps the state and reads the keys).
import React from 'react';
import { Text } from 'ink';
import { eventStatus, type JudgeScope, nothingDelivered } from '../core/status.js';
import { width as displayWidth, type FitResult, padWidth, takeWidth } from '../io/fit.js';
import { safeText } from '../io/safe-text.js';
import { formatTime, type TimeOptions } from '../io/time.js';
import {
  AUTO_PAGES,
  type BrowseEvent,
  countText,
  filterText,
  listFit,
  listLines,
  matches,
  type Mode,
  narrowsLocally,
  type State,
  subscriberOf,
  timelineLines,
  visibleEvents,
  workflowOf,
} from './model.js';

const h = React.createElement;

/** One line no wider than `width` terminal columns, safe for the terminal. */
const oneLine = (s: string, max: number) => {
  const t = safeText(s);
  return displayWidth(t) > max ? `${takeWidth(t, max - 1)}…` : t;
};

function colourFor(status: string): string | undefined {
  if (status === 'failed') return 'red';
  if (status === 'pending' || status === 'partial') return 'yellow';
  if (status === 'delivered' || status === 'completed') return 'green';
  return undefined;
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

/** What a frame is drawn from besides the state. */
export interface View {
  state: State;
  /** The frame's width and the terminal's rows; rows of events in the list. */
  width: number;
  rows: number;
  pageRows: number;
  time: TimeOptions;
  scope: JudgeScope;
  now: () => number;
  /** The service filters by status (svc dev). */
  byService: boolean;
  /** The session's fixed filters, for the header. */
  sessionScope: string | undefined;
  /** The columns' layout for this screen: kept while the cursor moves (see listFit). */
  fitted: { current: { key: string; fit: FitResult; rows: number } | undefined };
  /** The ids the frame shows (set here, told to the source once drawn). */
  onScreen: { current: string[] };
}

/** The lines of one frame. */
export function frame(v: View): React.ReactElement[] {
  const { state } = v;
  v.onScreen.current = [];
  if (state.mode.kind === 'help') return helpScreen(v);
  const shown = state.mode;
  if (shown.kind === 'detail' || (shown.kind === 'confirm' && shown.back.kind === 'detail')) return detailScreen(v, shown);
  return listScreen(v, shown);
}

function helpScreen({ width, rows }: View): React.ReactElement[] {
  const lines = [h(Text, { key: 'title', bold: true }, oneLine('svc events browse: keys', width)), h(Text, { key: 'gap' }, ' ')];
  for (const [i, [k, what]] of HELP.entries()) lines.push(h(Text, { key: `h${i}` }, oneLine(`  ${k.padEnd(11)}${what}`, width) || ' '));
  for (let i = HELP.length + 2; i < rows - 2; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
  lines.push(h(Text, { key: 'help', dimColor: true }, oneLine('any key closes this help', width)));
  return lines;
}

/** An event's timeline, scrolled; or the question whether to trigger it again. */
function detailScreen(v: View, mode: Extract<Mode, { kind: 'detail' | 'confirm' }>): React.ReactElement[] {
  const { state, width, rows, time, scope } = v;
  const body = rows - 3;
  const id = mode.id;
  v.onScreen.current = [id];
  const e = state.details[id] ?? state.events.find((x) => x._id === id) ?? {};
  const all = timelineLines(e, width, time, scope);
  const scroll = mode.kind === 'detail' ? mode.scroll : mode.back.kind === 'detail' ? mode.back.scroll : 0;
  const shown = all.slice(scroll, scroll + body);
  const lines = [h(Text, { key: 'title', bold: true }, oneLine(`Timeline of ${id}${state.details[id] ? '' : ' (loading…)'}`, width))];
  shown.forEach((l, i) => {
    const failed = /^\s*\d+\. .*\bfailed$/.test(l) || l.startsWith('✗');
    lines.push(h(Text, { key: `l${i}`, color: failed ? 'red' : undefined }, l || ' '));
  });
  for (let i = shown.length; i < body; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
  const help =
    mode.kind === 'confirm'
      ? `re-trigger ${workflowOf(e)} to ${subscriberOf(e)} with the same payload? y/n`
      : `${state.message ? `${state.message}  ` : ''}↑↓ scroll  Esc back  r re-trigger  ? help  ${scroll + shown.length}/${all.length}`;
  lines.push(h(Text, { key: 'help', dimColor: mode.kind !== 'confirm', bold: mode.kind === 'confirm' }, oneLine(help, width)));
  return lines;
}

/** The list of events: a header, a screenful of rows, the message line and the keys (or the filter being typed). */
function listScreen(v: View, mode: Mode): React.ReactElement[] {
  const { state, width, time, scope, now, pageRows, fitted } = v;
  const list = visibleEvents(state);
  const updated = state.updatedAt ? formatTime(new Date(state.updatedAt).toISOString(), 'clock', time) : '…';
  const filter = filterText(state.filter);
  const head = `svc events browse  ${countText(state)}${filter ? `  [${filter}]` : ''}${v.sessionScope ? `  ${v.sessionScope}` : ''}  updated ${updated}`;
  const lines = [h(Text, { key: 'title', bold: true }, oneLine(head, width))];
  const top = Math.min(state.top, Math.max(0, list.length - pageRows));
  const page = list.slice(top, top + pageRows);
  // The columns' widths are set once per screen (width and filter) from the events loaded then, and
  // kept as the rows scroll; fitted again once the first screen is full.
  const fitKey = `${width}|${filter}`;
  if (!fitted.current || fitted.current.key !== fitKey || (fitted.current.rows < pageRows && list.length > fitted.current.rows)) {
    fitted.current = list.length ? { key: fitKey, fit: listFit(list, width, time, now(), scope), rows: list.length } : undefined;
  }
  v.onScreen.current = page.flatMap((e) => (e._id ? [e._id] : []));
  const table = listLines(page, width, time, now(), fitted.current?.fit, scope);
  lines.push(h(Text, { key: 'head', dimColor: true }, table.header || ' '));
  page.forEach((e, i) => {
    const selected = top + i === state.cursor;
    const status = table.statuses[i] ?? eventStatus(e.jobs, scope);
    const row = padWidth(table.rows[i] ?? '', width);
    lines.push(h(Text, { key: e._id ?? `r${i}`, inverse: selected, color: colourFor(status), dimColor: !selected && nothingDelivered(status as never) }, row));
  });
  if (list.length === 0) lines.push(h(Text, { key: 'empty', dimColor: true }, oneLine(emptyText(v, filter), width)));
  for (let i = Math.max(1, page.length); i < pageRows; i++) lines.push(h(Text, { key: `p${i}` }, ' '));
  // A status or words narrow what is loaded: after a bound of pages loaded unasked, say how to go on.
  const paused = narrowsLocally(state.filter, v.byService) && state.hasMore && state.autoPages >= AUTO_PAGES && !state.message;
  const message = paused ? `stopped after the newest ${state.events.length} events (older not looked at); ↓ or G looks further` : state.message;
  lines.push(h(Text, { key: 'msg', color: message?.includes('failed') ? 'red' : undefined }, oneLine(message ?? ' ', width) || ' '));
  lines.push(h(Text, { key: 'help', dimColor: mode.kind === 'list', bold: mode.kind !== 'list' }, oneLine(keysLine(state, mode), width)));
  return lines;
}

/** What an empty list says: loading, nothing matches (and what to try), or no events at all. */
function emptyText({ state, scope }: View, filter: string): string {
  if (state.loading) return 'loading…';
  if (!state.events.length && !state.hasMore && !filter) return 'no events';
  // A lone word is most often a subscriber id: the service can look for that among all events.
  const word = state.filter.text;
  if (word && !/\s/.test(word) && !state.filter.subscriber && !state.events.some((e: BrowseEvent) => matches(e, { text: word }, scope)))
    return `no loaded event matches ${safeText(word)}; a subscriber id? try /subscriber:${safeText(word)}`;
  return 'no event matches the filter (/ to change it, Esc to clear it)';
}

/** The last line of the list: its keys, the filter being typed, or the question whether to trigger again. */
function keysLine(state: State, mode: Mode): string {
  if (mode.kind === 'filter') return `filter: ${mode.input}▏  (status:failed workflow:W subscriber:S; Enter, Esc)`;
  if (mode.kind === 'confirm') {
    const e = state.events.find((x) => x._id === mode.id);
    return `re-trigger ${e ? workflowOf(e) : '?'} to ${e ? subscriberOf(e) : '?'} with the same payload? y/n`;
  }
  return '↑↓ move  Enter timeline  / filter  Esc clear  r re-trigger  ? help  q quit';
}

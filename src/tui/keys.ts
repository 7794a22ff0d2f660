// The keys of `events browse` (? shows them): what each does in each mode of the browser. The actions
// that reach the service (load a page, open a timeline, trigger again) are the app's (app.ts).
import type { Key } from 'ink';
import type { JudgeScope } from '../core/status.js';
import type { TimeOptions } from '../io/time.js';
import { type BrowseEvent, type Filter, filterText, type Mode, move, parseFilter, selectedEvent, type State, timelineLines } from './model.js';

const ESC_HINT = 'q quits; ? shows the keys';

/** A filter's text to go on typing after: a space after it unless it is empty. */
const withSpace = (text: string) => (text ? `${text} ` : '');

export interface KeyContext {
  /** The state as of the last key: keys can arrive faster than renders. */
  state(): State;
  update(f: (s: State) => State): void;
  exit(): void;
  loadPage(page: number): void;
  applyFilter(f: Filter): void;
  openDetail(e: BrowseEvent): void;
  retrigger(e: BrowseEvent, back: Mode): void;
  width: number;
  rows: number;
  pageRows: number;
  time: TimeOptions;
  scope: JudgeScope;
}

/**
 * A terminal delivers what arrives together as one chunk: typed-ahead keys ("gr") or text and its
 * Enter ("status:failed\r"). Each character is a key press of its own, in order.
 */
export function onInput(ctx: KeyContext, input: string, key: Key): void {
  if (input.length > 1 && !key.ctrl && !key.meta && !input.includes('\u001b')) {
    const plain = Object.fromEntries(Object.keys(key).map((k) => [k, false])) as unknown as Key;
    for (const ch of input) {
      if (ch === '\r' || ch === '\n') onKey(ctx, '', { ...plain, return: true });
      else if (ch === '\u007f' || ch === '\b') onKey(ctx, '', { ...plain, backspace: true });
      // Ctrl-U (clear the filter being typed) and Ctrl-C keep their meaning; other controls are no text.
      else if (ch === '\u0015') onKey(ctx, 'u', { ...plain, ctrl: true });
      else if (ch === '\u0003') onKey(ctx, 'c', { ...plain, ctrl: true });
      else if (ch >= ' ') onKey(ctx, ch, plain);
    }
    return;
  }
  onKey(ctx, input, key);
}

function onKey(ctx: KeyContext, input: string, key: Key): void {
  const state = ctx.state();
  const mode = state.mode;
  if (key.ctrl && input === 'c') return ctx.exit();
  if (mode.kind === 'help') return ctx.update((s) => ({ ...s, mode: mode.back }));
  if (mode.kind === 'filter') return onFilterKey(ctx, input, key);
  if (mode.kind === 'confirm') {
    const e = state.details[mode.id] ?? state.events.find((x) => x._id === mode.id);
    if (input === 'y' && e) return ctx.retrigger(e, mode.back);
    // No (or anything else): back where the question was asked, the timeline as it was.
    return ctx.update((s) => ({ ...s, mode: mode.back, message: 'not re-triggered' }));
  }
  if (input === '?') return ctx.update((s) => ({ ...s, mode: { kind: 'help', back: mode } }));
  if (mode.kind === 'detail') return onTimelineKey(ctx, mode, input, key);
  onListKey(ctx, input, key);
}

/** Typing the filter: Enter applies it, Esc leaves it as it was. */
function onFilterKey(ctx: KeyContext, input: string, key: Key): void {
  if (key.escape) return ctx.update((s) => ({ ...s, mode: { kind: 'list' } }));
  // Keys can arrive faster than renders: each change reads the state it changes.
  const edit = (f: (text: string) => string) =>
    ctx.update((s) => (s.mode.kind === 'filter' ? { ...s, mode: { kind: 'filter' as const, input: f(s.mode.input) } } : s));
  if (key.return) {
    const m = ctx.state().mode;
    return m.kind === 'filter' ? ctx.applyFilter(parseFilter(m.input)) : undefined;
  }
  if (key.backspace || key.delete) return edit((t) => t.slice(0, -1));
  if (key.ctrl && input === 'u') return edit(() => '');
  if (input && !key.ctrl && !key.meta) edit((t) => t + input.replace(/[\r\n]/g, ''));
}

/** An event's timeline: scroll, back, trigger again. */
function onTimelineKey(ctx: KeyContext, mode: Extract<Mode, { kind: 'detail' }>, input: string, key: Key): void {
  const state = ctx.state();
  const { rows } = ctx;
  const total = timelineLines(state.details[mode.id] ?? state.events.find((x) => x._id === mode.id) ?? {}, ctx.width, ctx.time, ctx.scope).length;
  const maxScroll = Math.max(0, total - (rows - 3));
  const scroll = (by: number) => ctx.update((s) => ({ ...s, mode: { ...mode, scroll: Math.max(0, Math.min(maxScroll, mode.scroll + by)) } }));
  if (key.escape || key.leftArrow || key.backspace) return ctx.update((s) => ({ ...s, mode: { kind: 'list' }, message: undefined }));
  if (input === 'q') return ctx.exit();
  if (key.upArrow || input === 'k') return scroll(-1);
  if (key.downArrow || input === 'j') return scroll(1);
  if (key.pageUp) return scroll(-(rows - 4));
  if (key.pageDown || input === ' ') return scroll(rows - 4);
  if (input === 'r') ctx.update((s) => ({ ...s, message: undefined, mode: { kind: 'confirm', id: mode.id, back: mode } }));
}

/** The list: move, open, filter, trigger again, refresh, quit. */
function onListKey(ctx: KeyContext, input: string, key: Key): void {
  const state = ctx.state();
  const { pageRows } = ctx;
  if (input === 'q') return ctx.exit();
  if (key.escape) {
    // Back, not out: Esc clears the filter; q quits.
    if (filterText(state.filter)) return ctx.applyFilter({});
    return ctx.update((s) => ({ ...s, message: ESC_HINT }));
  }
  // The hint answers that one Esc; the next key takes it away.
  if (state.message === ESC_HINT) ctx.update((s) => (s.message === ESC_HINT ? { ...s, message: undefined } : s));
  if (key.upArrow || input === 'k') return ctx.update((s) => move(s, -1, pageRows));
  if (key.downArrow || input === 'j') return ctx.update((s) => move(s, 1, pageRows));
  if (key.pageUp) return ctx.update((s) => move(s, -pageRows, pageRows));
  if (key.pageDown) return ctx.update((s) => move(s, pageRows, pageRows));
  if (input === 'g' || key.home) return ctx.update((s) => move(s, -1e9, pageRows));
  if (input === 'G' || key.end) return ctx.update((s) => move(s, 1e9, pageRows));
  // The filter set so far, and a space after it: what is typed next is a word of its own.
  if (input.startsWith('/'))
    return ctx.update((s) => ({
      ...s,
      message: undefined,
      mode: { kind: 'filter', input: input.length > 1 ? input.slice(1) : withSpace(filterText(s.filter)) },
    }));
  if (key.return) {
    const e = selectedEvent(state);
    if (e) ctx.openDetail(e);
    return;
  }
  if (input === 'r') {
    const e = selectedEvent(state);
    if (e?._id) ctx.update((s) => ({ ...s, message: undefined, mode: { kind: 'confirm', id: e._id!, back: { kind: 'list' } } }));
    return;
  }
  if (input === 'R') ctx.loadPage(0);
}

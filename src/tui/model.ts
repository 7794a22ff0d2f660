// The state of `svc events browse` and what each key does to it. Pure (no terminal, no requests): the
// Ink app (app.ts) renders it and runs the effects it asks for; the unit tests drive it directly.
// The list is the service's, page by page: the subscriber and workflow filters go to the service (the
// feed's subscriberIds and templates), more pages load as the cursor nears the end, and the header
// counts what the service said (all of them once it says there are no more, `N+` while it has more).
// The derived status (core/status.ts) is a feed parameter where the service is svc dev (its store
// filters by it: `statusByService`); elsewhere it narrows what has been loaded, as free words always
// do, and loading goes on while the screen is not full, up to a bound the footer then names.
import { judge, type JudgeScope, matchesStatus, type StatusJob } from '../core/status.js';
import { fitMore, fitTable, layout, wrap, type FitColumn, type FitResult } from '../io/fit.js';
import { safeText } from '../io/safe-text.js';
import { formatTime, type TimeOptions } from '../io/time.js';

export interface BrowseEvent {
  _id?: string;
  transactionId?: string;
  createdAt?: string;
  subscriber?: { subscriberId?: string };
  _subscriberId?: string;
  template?: { name?: string; triggers?: { identifier?: string }[] };
  _templateId?: string;
  channels?: string[];
  jobs?: (StatusJob & { providerId?: string | null })[];
  payload?: Record<string, unknown>;
}

export interface Filter {
  subscriber?: string;
  workflow?: string;
  status?: string;
  /** Free words: each must appear in the subscriber, the workflow or the status. */
  text?: string;
}

export type Mode =
  | { kind: 'list' }
  | { kind: 'filter'; input: string }
  | { kind: 'detail'; id: string; scroll: number }
  /** The re-trigger question; `back` is where y or n returns to (the list, or the timeline as it was). */
  | { kind: 'confirm'; id: string; back: Mode }
  /** The keys, over whatever `back` is. */
  | { kind: 'help'; back: Mode };

export interface State {
  events: BrowseEvent[];
  /** The selected event's id (kept across refreshes), and its row when it disappears. */
  selected?: string;
  cursor: number;
  /** The first row shown. */
  top: number;
  filter: Filter;
  mode: Mode;
  /** One line for the footer: what just happened (re-triggered, an error, ...). */
  message?: string;
  loading: boolean;
  updatedAt?: number;
  /** Full records (with every job) fetched for the timeline. */
  details: Record<string, BrowseEvent>;
  /** Pages of the feed loaded (for the current service filter). */
  pages: number;
  /** The service has more events than are loaded. */
  hasMore: boolean;
  /** Pages loaded since the person last moved: loading to fill a narrowed list stops at a bound. */
  autoPages: number;
  /** The service filters by derived status (svc dev): a status is a feed parameter, not a narrowing. */
  statusByService: boolean;
  /** Judge the status over these channels only (`--channel`). */
  scope: JudgeScope;
}

/** Pages loaded to fill a list the status or words narrow, before waiting for the person to move on. */
export const AUTO_PAGES = 40;

export const initialState = (filter: Filter = {}, opts: { statusByService?: boolean; scope?: JudgeScope } = {}): State => ({
  events: [],
  cursor: 0,
  top: 0,
  filter,
  mode: { kind: 'list' },
  loading: true,
  details: {},
  pages: 0,
  hasMore: false,
  autoPages: 0,
  statusByService: opts.statusByService === true,
  scope: opts.scope ?? {},
});

/** The statuses a filter's `status:` names (a comma list). */
export const statusesOf = (f: Filter): string[] =>
  (f.status ?? '')
    .toLowerCase()
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The part of a filter the feed takes as query parameters: a change of it reloads from the first page.
 * The status is one of them where the service filters by it (`byService`).
 */
export const serviceFilter = (f: Filter, byService = false): { subscriber?: string; workflow?: string; status?: string[] } => ({
  ...(f.subscriber ? { subscriber: f.subscriber } : {}),
  ...(f.workflow ? { workflow: f.workflow } : {}),
  ...(byService && f.status ? { status: statusesOf(f) } : {}),
});
export const serviceKey = (f: Filter, byService = false): string => JSON.stringify(serviceFilter(f, byService));
/** The filter narrows what is loaded: words, and a status the service cannot filter by. */
export const narrowsLocally = (f: Filter, byService = false): boolean => Boolean((f.status && !byService) || f.text);

export const workflowOf = (e: BrowseEvent): string => e.template?.triggers?.[0]?.identifier ?? e.template?.name ?? e._templateId ?? '?';
export const subscriberOf = (e: BrowseEvent): string => e.subscriber?.subscriberId ?? e._subscriberId ?? '?';

/** `status:failed workflow:welcome subscriber:ada` and free words (matched anywhere). */
export function parseFilter(input: string): Filter {
  const f: Filter = {};
  const words: string[] = [];
  for (const w of input.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(status|workflow|subscriber|s|w|sub):(.*)$/i.exec(w);
    if (!m) {
      words.push(w);
      continue;
    }
    const key = m[1]!.toLowerCase();
    if (key === 'status' || key === 's') f.status = m[2]!;
    else if (key === 'workflow' || key === 'w') f.workflow = m[2]!;
    else f.subscriber = m[2]!;
  }
  if (words.length) f.text = words.join(' ');
  return f;
}

export function filterText(f: Filter): string {
  return [f.status ? `status:${f.status}` : '', f.workflow ? `workflow:${f.workflow}` : '', f.subscriber ? `subscriber:${f.subscriber}` : '', f.text ?? '']
    .filter(Boolean)
    .join(' ');
}

export function matches(e: BrowseEvent, f: Filter, scope: JudgeScope = {}): boolean {
  const status = judge(e.jobs, scope).status;
  const wf = workflowOf(e).toLowerCase();
  const sub = subscriberOf(e).toLowerCase();
  if (f.status && !statusesOf(f).some((w) => matchesStatus(status, w))) return false;
  if (f.workflow && !wf.includes(f.workflow.toLowerCase())) return false;
  if (f.subscriber && !sub.includes(f.subscriber.toLowerCase())) return false;
  if (f.text) {
    for (const w of f.text.toLowerCase().split(/\s+/)) {
      if (!wf.includes(w) && !sub.includes(w) && !status.includes(w) && !(e.transactionId ?? '').includes(w) && !(e._id ?? '').startsWith(w)) return false;
    }
  }
  return true;
}

export const visibleEvents = (s: State): BrowseEvent[] => s.events.filter((e) => matches(e, s.filter, s.scope));

/** New events from a refresh: newest first, the selection kept on the same event. */
export function withEvents(s: State, events: BrowseEvent[], now: number): State {
  return withPage(s, 0, events, false, now);
}

/**
 * A page of the feed arrived. The first page (a refresh) puts new events on top and updates the ones
 * it holds; a later page adds the older events it brings (the feed pages by offset, so a page after new
 * events arrived repeats a few: each event is kept once). The selection stays on the same event.
 */
export function withPage(s: State, page: number, data: BrowseEvent[], hasMore: boolean, now: number): State {
  const ids = new Set(data.map((e) => e._id));
  let events: BrowseEvent[];
  if (page === 0) events = [...data, ...s.events.filter((e) => !ids.has(e._id))];
  else {
    const byId = new Map(data.map((e) => [e._id, e]));
    const have = new Set(s.events.map((e) => e._id));
    events = [...s.events.map((e) => byId.get(e._id) ?? e), ...data.filter((e) => !have.has(e._id))];
  }
  const pages = Math.max(s.pages, page + 1);
  // A refresh of the first page says nothing about the pages after it once more are loaded.
  const more = page === 0 && s.pages > 1 ? s.hasMore : hasMore;
  return reselect({ ...s, events, pages, hasMore: more, loading: false, updatedAt: now, autoPages: page === 0 ? s.autoPages : s.autoPages + 1 });
}

/** The list for a new service filter: empty until its first page arrives. */
function reloading(s: State, f: Filter): State {
  return { ...s, filter: f, events: [], pages: 0, hasMore: false, loading: true, cursor: 0, top: 0, selected: undefined, autoPages: 0, mode: { kind: 'list' } };
}

/**
 * Whether the next page should load: the service has more, and the cursor is within a screen of the
 * end of the list (or a narrowed list does not fill the screen), within the bound of pages loaded
 * without the person moving.
 */
export function wantsMore(s: State, pageRows: number): boolean {
  if (!s.hasMore || s.loading) return false;
  const shown = visibleEvents(s).length;
  if (s.autoPages >= AUTO_PAGES) return false;
  return shown - s.cursor <= pageRows * 2 || shown < s.top + pageRows;
}

function reselect(s: State): State {
  const list = visibleEvents(s);
  let cursor = s.selected ? list.findIndex((e) => e._id === s.selected) : -1;
  if (cursor < 0) cursor = Math.min(s.cursor, Math.max(0, list.length - 1));
  return { ...s, cursor, selected: list[cursor]?._id };
}

export function move(s: State, by: number, pageRows: number): State {
  const list = visibleEvents(s);
  // Moving on is asking for more: the bound on pages loaded unasked starts again.
  if (list.length === 0) return { ...s, autoPages: 0 };
  const cursor = Math.max(0, Math.min(list.length - 1, s.cursor + by));
  let top = s.top;
  if (cursor < top) top = cursor;
  if (cursor >= top + pageRows) top = cursor - pageRows + 1;
  return { ...s, cursor, top, selected: list[cursor]?._id, autoPages: by > 0 ? 0 : s.autoPages };
}

/** A new filter: a change of what the service filters reloads; a status or words narrow what is loaded. */
export function setFilter(s: State, f: Filter): State {
  if (serviceKey(f, s.statusByService) !== serviceKey(s.filter, s.statusByService)) return reloading(s, f);
  return reselect({ ...s, filter: f, top: 0, cursor: 0, selected: undefined, autoPages: 0, mode: { kind: 'list' } });
}

/** The header's count: what the service said, not what was loaded (`N+` while it has more). */
export function countText(s: State): string {
  if (s.loading && s.events.length === 0) return 'loading…';
  const shown = visibleEvents(s).length;
  const total = `${s.events.length}${s.hasMore ? '+' : ''}`;
  if (narrowsLocally(s.filter, s.statusByService)) return `${shown} of ${total} events`;
  return `${total} event${total === '1' ? '' : 's'}`;
}

export const selectedEvent = (s: State): BrowseEvent | undefined => visibleEvents(s)[s.cursor];

const COLUMNS: FitColumn[] = [
  { header: 'CREATED' },
  { header: 'ID', kind: 'id', dropOrder: 2 },
  { header: 'WORKFLOW', min: 10, max: 16 },
  { header: 'SUBSCRIBER', min: 8, max: 10 },
  { header: 'STATUS', kind: 'status' },
  { header: 'REASON', flex: true, min: 20, dropOrder: 3 },
  { header: 'TRANSACTION', kind: 'id', dropOrder: 1 },
];

function cellsOf(events: readonly BrowseEvent[], time: TimeOptions, now: number, scope: JudgeScope): (string | string[])[][] {
  // Service text made safe for the terminal (io/safe-text.ts) before it is measured and laid out.
  return events.map((e) => {
    const judged = judge(e.jobs, scope);
    return [
      [formatTime(e.createdAt, 'compact', time, now), formatTime(e.createdAt, 'relative', time, now)],
      e._id ?? '',
      workflowOf(e),
      subscriberOf(e),
      judged.status,
      judged.reason ?? '',
      e.transactionId ?? '',
    ].map((c) => (typeof c === 'string' ? safeText(c) : c.map((x) => safeText(x))));
  });
}

/**
 * The columns' layout for a screen: fitted once to these events and this width, then kept while the
 * cursor moves, so the columns do not change width as rows scroll by (a longer value is cut).
 */
export function listFit(events: readonly BrowseEvent[], width: number, time: TimeOptions, now: number, scope: JudgeScope = {}): FitResult {
  return fitTable(COLUMNS, cellsOf(events, time, now, scope), width);
}

/** The list as lines fitted to `width`: the header line, then one line per event (in `fit`'s layout when given). */
export function listLines(
  events: BrowseEvent[],
  width: number,
  time: TimeOptions,
  now: number,
  fit?: FitResult,
  scope: JudgeScope = {},
): { header: string; rows: string[]; statuses: string[] } {
  const cells = cellsOf(events, time, now, scope);
  const f = fit ? fitMore(COLUMNS, cells, fit) : fitTable(COLUMNS, cells, width);
  const [header, ...rows] = layout(f, width);
  return { header: header ?? '', rows, statuses: events.map((e) => judge(e.jobs, scope).status) };
}

/** The timeline of one event as plain lines no wider than `width` (wrapped lines indented). */
export function timelineLines(e: BrowseEvent, width: number, time: TimeOptions, scope: JudgeScope = {}): string[] {
  const out: string[] = [];
  const push = (text: string, indent = 0) => {
    for (const l of wrap(safeText(text, { newlines: true }), width, indent)) out.push(l);
  };
  const judged = judge(e.jobs, scope);
  push(`${workflowOf(e)} → ${subscriberOf(e)}  ${judged.status}`);
  // Why (a skip beside a delivery, or why nothing went out); a failure is said at its step below.
  if (judged.reason && judged.status !== 'failed') push(`why: ${judged.reason}`, 5);
  if (new Set(judged.channels.map((c) => c.outcome)).size > 1) push(`channels: ${judged.channels.map((c) => `${c.channel} ${c.outcome}`).join(', ')}`, 10);
  push(`event ${e._id ?? '?'}`);
  push(`transaction ${e.transactionId ?? '?'}`);
  push(`created ${formatTime(e.createdAt, 'full', time)}`);
  const jobs = e.jobs ?? [];
  // Where it failed, not the message again: the step below says it (the failure is said once).
  const failedAt = jobs.findIndex((j) => j.status === 'failed');
  if (failedAt >= 0) push(`✗ failed at step ${failedAt + 1} (${jobs[failedAt]!.type ?? 'step'})`, 2);
  if (jobs.length === 0) push('(no jobs recorded)');
  jobs.forEach((j, i) => {
    out.push('');
    push(`${i + 1}. ${j.type ?? 'step'}${j.step?.name ? ` (${j.step.name})` : ''}${j.providerId ? ` via ${j.providerId}` : ''}  ${j.status ?? '?'}`, 3);
    for (const d of j.executionDetails ?? []) {
      const when = formatTime(d.createdAt, 'clock', time);
      push(`   ${when}  ${(d.status ?? '').padEnd(8)} ${d.detail ?? ''}`, 3 + when.length + 2 + 9);
    }
  });
  return out;
}

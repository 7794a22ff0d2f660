// The state of `svc events browse` and what each key does to it. Pure (no terminal, no requests): the
// Ink app (app.ts) renders it and runs the effects it asks for; the unit tests drive it directly.
import { eventStatus, matchesStatus, reasonOf, type StatusJob } from '../core/status.js';
import { fitTable, layout, wrap, type FitColumn } from '../io/fit.js';
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

export type Mode = { kind: 'list' } | { kind: 'filter'; input: string } | { kind: 'detail'; id: string; scroll: number } | { kind: 'confirm'; id: string };

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
}

export const initialState = (filter: Filter = {}): State => ({ events: [], cursor: 0, top: 0, filter, mode: { kind: 'list' }, loading: true, details: {} });

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

export function matches(e: BrowseEvent, f: Filter): boolean {
  const status = eventStatus(e.jobs);
  const wf = workflowOf(e).toLowerCase();
  const sub = subscriberOf(e).toLowerCase();
  if (f.status && !matchesStatus(status, f.status.toLowerCase())) return false;
  if (f.workflow && !wf.includes(f.workflow.toLowerCase())) return false;
  if (f.subscriber && !sub.includes(f.subscriber.toLowerCase())) return false;
  if (f.text) {
    for (const w of f.text.toLowerCase().split(/\s+/)) {
      if (!wf.includes(w) && !sub.includes(w) && !status.includes(w) && !(e.transactionId ?? '').includes(w) && !(e._id ?? '').startsWith(w)) return false;
    }
  }
  return true;
}

export const visibleEvents = (s: State): BrowseEvent[] => s.events.filter((e) => matches(e, s.filter));

/** New events from a refresh: newest first, the selection kept on the same event. */
export function withEvents(s: State, events: BrowseEvent[], now: number): State {
  const next: State = { ...s, events, loading: false, updatedAt: now };
  return reselect(next);
}

function reselect(s: State): State {
  const list = visibleEvents(s);
  let cursor = s.selected ? list.findIndex((e) => e._id === s.selected) : -1;
  if (cursor < 0) cursor = Math.min(s.cursor, Math.max(0, list.length - 1));
  return { ...s, cursor, selected: list[cursor]?._id };
}

export function move(s: State, by: number, pageRows: number): State {
  const list = visibleEvents(s);
  if (list.length === 0) return s;
  const cursor = Math.max(0, Math.min(list.length - 1, s.cursor + by));
  let top = s.top;
  if (cursor < top) top = cursor;
  if (cursor >= top + pageRows) top = cursor - pageRows + 1;
  return { ...s, cursor, top, selected: list[cursor]?._id };
}

export function setFilter(s: State, f: Filter): State {
  return reselect({ ...s, filter: f, top: 0, cursor: 0, selected: undefined, mode: { kind: 'list' } });
}

export const selectedEvent = (s: State): BrowseEvent | undefined => visibleEvents(s)[s.cursor];

const COLUMNS: FitColumn[] = [
  { header: 'CREATED' },
  { header: 'ID', kind: 'id', dropOrder: 2 },
  { header: 'WORKFLOW', min: 10 },
  { header: 'SUBSCRIBER', min: 8 },
  { header: 'STATUS', kind: 'status' },
  { header: 'REASON', flex: true, min: 28, dropOrder: 3 },
  { header: 'TRANSACTION', kind: 'id', dropOrder: 1 },
];

/** The list as lines fitted to `width`: the header line, then one line per event. */
export function listLines(events: BrowseEvent[], width: number, time: TimeOptions, now: number): { header: string; rows: string[]; statuses: string[] } {
  const cells = events.map((e) => [
    [formatTime(e.createdAt, 'compact', time, now), formatTime(e.createdAt, 'relative', time, now)],
    e._id ?? '',
    workflowOf(e),
    subscriberOf(e),
    eventStatus(e.jobs),
    reasonOf(e.jobs) ?? '',
    e.transactionId ?? '',
  ]);
  const fit = fitTable(COLUMNS, cells, width);
  const [header, ...rows] = layout(fit, width);
  return { header: header ?? '', rows, statuses: events.map((e) => eventStatus(e.jobs)) };
}

/** The timeline of one event as plain lines no wider than `width` (wrapped lines indented). */
export function timelineLines(e: BrowseEvent, width: number, time: TimeOptions): string[] {
  const out: string[] = [];
  const push = (text: string, indent = 0) => {
    for (const l of wrap(text, width, indent)) out.push(l);
  };
  push(`${workflowOf(e)} → ${subscriberOf(e)}  ${eventStatus(e.jobs)}`);
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

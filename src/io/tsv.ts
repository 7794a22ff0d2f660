// `-o tsv`: plain values for shell loops (`svc events list -o tsv | while IFS=$'\t' read -r id ...`).
// One line per record, values separated by tabs, a header line first unless --quiet. Strings are bare
// (no quotes), times as the service sent them (ISO 8601), arrays of plain values joined with commas,
// objects as compact JSON, nothing for null. A tab, newline, carriage return or backslash inside a value
// is written \t, \n, \r, \\ (the text format of PostgreSQL's COPY and of `mlr --tsv`), so one line is
// always one record. Other control characters, DEL and the bidi overrides, which a terminal would act
// on, are written as COPY's `\xNN` escapes (io/safe-text.ts). The columns: --fields when given, else the table's columns for this kind of record,
// else the records' top-level keys. A --query result that is a string (or a list of strings) prints bare,
// one per line.
import { getPath } from './paths.js';
import { tsvEscape } from './safe-text.js';
import type { PrintOptions } from './types.js';
import { LIST_VIEWS, type ViewName } from './views.js';

type Rec = Record<string, unknown>;

interface TsvColumn {
  header: string;
  value: (r: Rec, index: number) => unknown;
}

/** One value as a TSV field. */
function tsvValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') s = String(v);
  else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) s = v.map((x) => (x === null ? '' : String(x))).join(',');
  else s = JSON.stringify(v);
  return tsvEscape(s);
}

const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The single-record views that list the same kind of record as a list view. */
const LIST_OF: Partial<Record<ViewName, ViewName>> = { event: 'events', workflow: 'workflows' };

/** The columns of a TSV: --fields, else the view's table columns, else the records' top-level keys. */
function tsvColumns(records: readonly unknown[], fields: readonly string[] | undefined, view: ViewName | undefined): TsvColumn[] {
  if (fields?.length) return fields.map((f) => ({ header: f, value: (r) => getPath(r, f) }));
  const listView = view ? (LIST_VIEWS[view] ?? (LIST_OF[view] ? LIST_VIEWS[LIST_OF[view]!] : undefined)) : undefined;
  if (listView && records.every(isRecord)) {
    return listView.map((c, i) => ({
      // The profile list's unnamed first column is the current-profile mark.
      header: c.header || (view === 'profiles' && i === 0 ? 'CURRENT' : `COLUMN${i + 1}`),
      value: (r, index) => (typeof c.value === 'string' ? getPath(r, c.value) : c.value({ ...r, __index: index })),
    }));
  }
  const keys: string[] = [];
  for (const r of records.slice(0, 50)) if (isRecord(r)) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  return keys.map((k) => ({ header: k, value: (r) => r[k] }));
}

interface TsvState {
  columns?: TsvColumn[];
  /** Rows written so far (for the record numbers some views show). */
  rows: number;
}

/**
 * Lines for some records (a page of a list, or a whole result). The first call with records chooses the
 * columns and writes the header (unless `quiet`); later calls with the same state write rows only.
 * Plain values (a --query that picked strings) print one per line, bare.
 */
export function renderTsv(value: unknown, opts: { fields?: readonly string[]; view?: ViewName; quiet?: boolean }, state: TsvState = { rows: 0 }): string {
  if (value === undefined || value === null) return '';
  const items: unknown[] = Array.isArray(value) ? value : [value];
  let out = '';
  for (const item of items) {
    if (isRecord(item)) {
      if (!state.columns) {
        state.columns = tsvColumns(items.filter(isRecord), opts.fields, opts.view);
        if (!opts.quiet) out += `${state.columns.map((c) => tsvValue(c.header)).join('\t')}\n`;
      }
      const index = state.rows;
      out += `${state.columns.map((c) => tsvValue(c.value(item, index))).join('\t')}\n`;
    } else if (Array.isArray(item)) {
      out += `${item.map(tsvValue).join('\t')}\n`;
    } else {
      out += `${tsvValue(item)}\n`;
    }
    state.rows++;
  }
  return out;
}

/** The records a list envelope holds, or the value itself. */
export function tsvRecords(value: unknown, opts: PrintOptions): unknown {
  if (opts.list && isRecord(value) && Array.isArray(value.data)) return value.data;
  return value;
}

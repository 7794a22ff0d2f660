// A list of records as a table that fits the terminal (io/fit.ts decides what to narrow, drop or cut):
// the view's columns, times in the one display (io/time.ts), statuses coloured, and with --all the
// later pages in the first page's layout. `wide` shows every column whole.
import { getPath } from './paths.js';
import type { ChalkInstance } from 'chalk';
import { fitMore, fitTable, layout, type FitCell, type FitColumn, type FitResult } from './fit.js';
import { formatTime, type TimeOptions } from './time.js';
import { safeText } from './safe-text.js';

type Rec = Record<string, unknown>;

export interface ListColumn {
  header: string;
  value: string | ((r: Rec) => unknown);
  status?: boolean;
  time?: boolean;
  full?: boolean;
  kind?: FitColumn['kind'];
  dropOrder?: number;
  flex?: boolean;
  min?: number;
  /** When the table does not fit, a text column is cut to this before any column is dropped. */
  max?: number;
  dropFor?: number;
  readable?: number;
  readableFor?: number;
}

interface ListLayout extends TimeOptions {
  width: number;
  wide?: boolean;
  now?: number;
}

/** The state of a table printed page by page: the first page's fit. */
export interface FitStream {
  fit?: FitResult;
}

/** A value as one line of a cell: whitespace folded, control characters shown as escapes (io/safe-text.ts). */
function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return safeText(v.replace(/\s+/g, ' '));
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return safeText(v.join(', ').replace(/\s+/g, ' '));
  return safeText(JSON.stringify(v));
}

function fitColumnOf(col: ListColumn): FitColumn {
  const kind = col.kind ?? (col.status ? 'status' : col.full ? 'key' : undefined);
  return {
    header: col.header,
    ...(kind ? { kind } : {}),
    ...(col.dropOrder !== undefined ? { dropOrder: col.dropOrder } : {}),
    ...(col.flex ? { flex: true } : {}),
    ...(col.min !== undefined ? { min: col.min } : {}),
    ...(col.max !== undefined ? { max: col.max } : {}),
    ...(col.dropFor !== undefined ? { dropFor: col.dropFor } : {}),
    ...(col.readable !== undefined ? { readable: col.readable } : {}),
    ...(col.readableFor !== undefined ? { readableFor: col.readableFor } : {}),
  };
}

function cellsOf(columns: readonly ListColumn[], records: readonly Rec[], opts: ListLayout): FitCell[][] {
  const now = opts.now ?? Date.now();
  return records.map((r, i) =>
    columns.map((col): FitCell => {
      const raw = typeof col.value === 'string' ? getPath(r, col.value) : col.value({ ...r, __index: i });
      if (col.time && (typeof raw === 'string' || typeof raw === 'number')) {
        // A time the service wrote badly is shown as it came: made safe.
        return [formatTime(raw, 'full', opts, now), formatTime(raw, 'compact', opts, now), formatTime(raw, 'relative', opts, now)].map((t) => safeText(t));
      }
      return cellText(raw);
    }),
  );
}

/**
 * The table's lines (header first unless a later page), and what was left out, for a note on stderr.
 * `colour(status)` colours a status cell.
 */
export function renderFitted(
  c: ChalkInstance,
  columns: readonly ListColumn[],
  records: readonly Rec[],
  opts: ListLayout,
  colour: (c: ChalkInstance, s: string) => string,
  stream?: FitStream,
): { text: string; fit: FitResult } {
  const fcols = columns.map(fitColumnOf);
  const cells = cellsOf(columns, records, opts);
  const later = stream?.fit !== undefined;
  const fit = later ? fitMore(fcols, cells, stream!.fit!, opts.wide) : fitTable(fcols, cells, opts.width, opts.wide);
  if (stream && !later) stream.fit = fit;
  const lines = layout(fit, opts.width, opts.wide, (col, text) => {
    if (!columns[col]!.status || text.trim() === '') return text;
    const word = text.trimEnd();
    return colour(c, word) + text.slice(word.length);
  }).map((l, i) => (i === 0 ? c.bold(l) : l));
  return { text: `${(later ? lines.slice(1) : lines).join('\n')}\n`, fit };
}

// Fits a table to the terminal's width. Pure: columns and plain-text cells in, the columns to show and
// their cells out. The order of the steps is what a reader loses least by:
//  1. narrow forms first: ids shortened the way git does (the shortest prefix, at least 7 characters,
//     that tells the rows apart; the last characters when they tell apart in fewer), times compact (`11:34:41Z`), then relative (`5m ago`);
//  2. drop low-value columns, in the order each column says;
//  3. cut long text columns (the widest first) down to their minimum, with `…`;
//  4. a flexible column (the failure reason) takes the width that is left.
// Columns without a drop order (the status, the reason) are never dropped. `wide` shows every column
// whole, however wide.
import { stripVTControlCharacters } from 'node:util';

export interface FitColumn {
  header: string;
  /**
   * `id`: shortened git-style (the command that takes it accepts the prefix); `key`: an id the next
   * command needs whole, never shortened or cut; `status`: never cut; `text`: cut with `…` down to `min`.
   */
  kind?: 'id' | 'key' | 'status' | 'text';
  /** Dropped when the table does not fit, the lowest first; never dropped when absent. */
  dropOrder?: number;
  /** Takes the width that is left once the other columns fit (at most its widest value). */
  flex?: boolean;
  /** The narrowest a text column is cut to (default 8; a flexible column's default is 12). */
  min?: number;
  /**
   * A flexible column worth more than the columns with a drop order up to this: they are left out
   * rather than this column cut (the failure reason over the channels and the transaction id).
   */
  dropFor?: number;
}

/** A cell: its text, or its forms from the widest to the narrowest (a time: full, compact, relative). */
export type FitCell = string | readonly string[];

export interface FitResult {
  /** Indexes of the columns shown, in their order. */
  shown: number[];
  headers: string[];
  rows: string[][];
  widths: number[];
  /** Headers of the columns left out. */
  dropped: string[];
  /** Some ids or values are shorter than they are (--wide shows them whole). */
  shortened: boolean;
  /** The form each shown column uses (index into its cells' forms), for later pages. */
  levels: number[];
  /** Per shown column: the end its shortened ids were kept from (undefined when not shortened). */
  idFrom?: ('start' | 'end' | undefined)[];
}

export const GAP = 2;
const width = (s: string) => stripVTControlCharacters(s).length;

export function cut(s: string, max: number): string {
  if (max <= 0) return '';
  const one = s.replace(/\s+/g, ' ');
  return width(one) > max ? `${one.slice(0, Math.max(0, max - 1))}…` : one;
}

/**
 * The shortest prefix (at least `min` characters) that tells each id apart from the others shown, as
 * git abbreviates commit ids. One length for the whole column, so the column stays aligned.
 */
export function shortIds(ids: readonly string[], min = 7): string[] {
  return shortIdForm(ids, min).ids;
}

/** How long the shortest distinct prefix (or suffix) of these ids is. */
function distinctLength(ids: readonly string[], min: number, end: boolean): number {
  const distinct = [...new Set(ids.filter((x) => x.length > 0))];
  const longest = Math.max(0, ...distinct.map((x) => x.length));
  let n = Math.min(min, longest);
  const part = (x: string) => (end ? x.slice(Math.max(0, x.length - n)) : x.slice(0, n));
  while (n < longest && new Set(distinct.map(part)).size !== distinct.length) n++;
  return n;
}

/**
 * Ids shortened to what tells them apart: the shortest distinct prefix, as git does. Ids made in the
 * same second by one process (a notification's ObjectId: time, process, then a counter) share all but
 * their last characters, so when a suffix of at least 8 is shorter than the prefix (by 4 or more), the suffix is used
 * (`svc events get` accepts either).
 */
export function shortIdForm(ids: readonly string[], min = 7): { ids: string[]; from: 'start' | 'end' } {
  const n = distinctLength(ids, min, false);
  const m = distinctLength(ids, Math.max(min, 8), true);
  if (m + 4 <= n) return { ids: ids.map((x) => x.slice(Math.max(0, x.length - m))), from: 'end' };
  return { ids: ids.map((x) => x.slice(0, n)), from: 'start' };
}

const forms = (c: FitCell | undefined): readonly string[] => (c === undefined ? [''] : typeof c === 'string' ? [c] : c.length ? c : ['']);

export function fitTable(columns: readonly FitColumn[], cells: readonly (readonly FitCell[])[], total: number, wide = false): FitResult {
  const n = columns.length;
  // The form each column is shown in (index into each cell's forms), per column.
  const level = new Array<number>(n).fill(0);
  const ids: (string[] | undefined)[] = new Array(n).fill(undefined);
  const idFrom: ('start' | 'end' | undefined)[] = new Array(n).fill(undefined);
  const shown = new Set<number>(columns.map((_, i) => i));
  const limit = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  let shortened = false;

  const text = (row: number, col: number): string => {
    if (ids[col]) return ids[col]![row]!;
    const f = forms(cells[row]?.[col]);
    return f[Math.min(level[col]!, f.length - 1)]!;
  };
  const natural = (col: number) => Math.max(width(columns[col]!.header), ...cells.map((_, r) => width(text(r, col))));
  const flexMin = (col: number) => Math.min(natural(col), columns[col]!.min ?? 12);
  const colWidth = (col: number) => (columns[col]!.flex ? flexMin(col) : Math.min(natural(col), limit[col]!));
  const used = () => {
    const cols = [...shown];
    return cols.reduce((s, c) => s + colWidth(c), 0) + GAP * Math.max(0, cols.length - 1);
  };
  const fits = () => used() <= total;

  if (!wide) {
    // 1. Narrow forms: ids, then each column's next form (times), one step at a time, left to right.
    for (let c = 0; c < n && !fits(); c++) {
      if (columns[c]!.kind !== 'id') continue;
      const all = cells.map((_, r) => text(r, c));
      const { ids: short, from } = shortIdForm(all);
      if (short.some((s, i) => s !== all[i])) {
        ids[c] = short;
        idFrom[c] = from;
        shortened = true;
      }
    }
    const maxForms = Math.max(1, ...cells.flatMap((row) => row.map((c) => forms(c).length)));
    for (let step = 1; step < maxForms && !fits(); step++) {
      for (let c = 0; c < n && !fits(); c++) {
        if (cells.some((row) => forms(row[c]).length > step)) level[c] = step;
      }
    }
    // 2. Drop low-value columns.
    const droppable = columns
      .map((col, i) => ({ i, order: col.dropOrder }))
      .filter((x): x is { i: number; order: number } => x.order !== undefined)
      .sort((a, b) => a.order - b.order);
    // How much wider than now the table is with its flexible columns whole.
    const flexShort = (order: number) =>
      [...shown].some((c) => columns[c]!.flex && (columns[c]!.dropFor ?? -1) >= order) &&
      used() + [...shown].reduce((sum, c) => sum + (columns[c]!.flex ? natural(c) - colWidth(c) : 0), 0) > total;
    for (const { i, order } of droppable) {
      if (fits() && !flexShort(order)) break;
      shown.delete(i);
    }
    // 3. Cut text columns, the widest first.
    const cuttable = () => [...shown].filter((c) => !columns[c]!.flex && (columns[c]!.kind ?? 'text') === 'text' && colWidth(c) > (columns[c]!.min ?? 8));
    while (!fits()) {
      const list = cuttable();
      if (list.length === 0) break;
      const widest = list.reduce((a, b) => (colWidth(b) > colWidth(a) ? b : a));
      limit[widest] = colWidth(widest) - 1;
      shortened = true;
    }
  }

  const order = [...shown].sort((a, b) => a - b);
  const widths = order.map((c) => (wide ? natural(c) : colWidth(c)));
  if (!wide) {
    // 4. The flexible column takes what is left (at most its widest value).
    const rest = total - (widths.reduce((s, w) => s + w, 0) + GAP * Math.max(0, order.length - 1));
    order.forEach((c, k) => {
      if (columns[c]!.flex) widths[k] = Math.max(widths[k]!, Math.min(natural(c), widths[k]! + Math.max(0, rest)));
    });
  }
  const rows = cells.map((_, r) =>
    order.map((c, k) => {
      const t = text(r, c);
      if (wide || width(t) <= widths[k]!) return t;
      shortened = true;
      return cut(t, widths[k]!);
    }),
  );
  return {
    shown: order,
    headers: order.map((c) => cut(columns[c]!.header, widths[order.indexOf(c)]!)),
    rows,
    widths,
    dropped: columns.filter((_, i) => !shown.has(i)).map((c) => c.header),
    shortened,
    levels: order.map((c) => level[c]!),
    idFrom: order.map((c) => idFrom[c]),
  };
}

/**
 * Later pages of a table printed page by page (--all): the first page's columns, forms and widths,
 * so the pages read as one table. Ids keep the first page's length; longer values are cut.
 */
export function fitMore(columns: readonly FitColumn[], cells: readonly (readonly FitCell[])[], first: FitResult, wide = false): FitResult {
  const rows = cells.map((row) =>
    first.shown.map((c, k) => {
      const f = forms(row[c]);
      const t = f[Math.min(first.levels[k]!, f.length - 1)]!;
      const w = first.widths[k]!;
      if (wide || width(t) <= w || columns[c]!.kind === 'key' || (k === first.shown.length - 1 && !columns[c]!.flex)) return t;
      if (columns[c]!.kind === 'id') return first.idFrom?.[k] === 'end' ? t.slice(Math.max(0, t.length - w)) : t.slice(0, w);
      return cut(t, w);
    }),
  );
  return { ...first, rows };
}

/**
 * Lays out a fitted table as lines: columns separated by two spaces, the last one unpadded, every line
 * cut to `total` (a table of unbreakable columns wider than the terminal still never wraps), unless
 * `wide`. `colour` styles a cell after it is padded (escape codes do not count towards the width).
 */
export function layout(fit: FitResult, total: number, wide = false, colour?: (col: number, text: string, row: number) => string): string[] {
  const line = (cellsOf: string[], row: number) => {
    const parts = cellsOf.map((t, k) => {
      const padded = k === cellsOf.length - 1 ? t : t.padEnd(fit.widths[k]!);
      return colour && row >= 0 ? colour(fit.shown[k]!, padded, row) : padded;
    });
    const s = parts.join(' '.repeat(GAP)).trimEnd();
    return wide || width(s) <= total ? s : cutAnsi(s, total);
  };
  return [line(fit.headers, -1), ...fit.rows.map((r, i) => line(r, i))];
}

/** Cuts a line with escape codes to `max` visible characters (the escapes kept, colour reset). */
export function cutAnsi(s: string, max: number): string {
  let out = '';
  let seen = 0;
  const re = /\u001b\[[0-9;]*m/y;
  for (let i = 0; i < s.length; ) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (m) {
      out += m[0];
      i += m[0].length;
      continue;
    }
    if (seen >= max) break;
    out += s[i];
    seen++;
    i++;
  }
  return /\u001b\[/.test(out) ? `${out}\u001b[0m` : out;
}

/** Word-wraps `text` to `width`, indenting the continuation lines; words longer than a line are split. */
export function wrap(text: string, width: number, indent = 0): string[] {
  const lines: string[] = [];
  const pad = ' '.repeat(Math.min(indent, Math.max(0, width - 10)));
  let line = '';
  const room = () => width - line.length;
  for (const word of text.split(/(\s+)/)) {
    if (word === '') continue;
    if (/^\s+$/.test(word)) {
      if (lines.length === 0 && line === '') line = word.slice(0, Math.max(0, width - 10));
      else if (line.trim() !== '' && room() > word.length) line += word;
      else if (line.trim() !== '') {
        lines.push(line.trimEnd());
        line = pad;
      }
      continue;
    }
    let w = word;
    while (w.length > room()) {
      if (line.trim() !== '' && (w.length <= width - pad.length || room() <= 0)) {
        lines.push(line.trimEnd());
        line = pad;
        continue;
      }
      const take = Math.max(1, room());
      line += w.slice(0, take);
      w = w.slice(take);
      lines.push(line);
      line = pad;
    }
    line += w;
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

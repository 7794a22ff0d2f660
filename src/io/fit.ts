// Fits a table to the terminal's width. Pure: columns and plain-text cells in, the columns to show and
// their cells out. The order of the steps is what a reader loses least by:
//  1. narrow forms first: ids shortened the way git does (the shortest prefix, at least 7 characters,
//     that tells the rows apart; the last characters when they tell apart in fewer), times compact (`11:34:41Z`), then relative (`5m ago`);
//  2. drop low-value columns, in the order each column says;
//  3. cut long text columns (the widest first) down to their minimum, with `…`;
//  4. a flexible column (the failure reason) takes the width that is left.
// Columns without a drop order (the status, the reason) are never dropped. `wide` shows every column
// whole, however wide.
import stringWidth from 'string-width';

export interface FitColumn {
  header: string;
  /**
   * `id`: shortened git-style (the command that takes it accepts the prefix); `key`: an id the next
   * command needs whole, cut (with `…`) only when the table cannot fit otherwise: first down to half
   * the terminal, after the text columns down to 12; `status`: never cut; `text`: cut with `…` down to `min`.
   */
  kind?: 'id' | 'key' | 'status' | 'text';
  /** Dropped when the table does not fit, the lowest first; never dropped when absent. */
  dropOrder?: number;
  /** Takes the width that is left once the other columns fit (at most its widest value). */
  flex?: boolean;
  /** The narrowest a text column is cut to (default 8; a flexible column's default is 12). */
  min?: number;
  /**
   * When the table does not fit, a text column wider than this is cut to it before any column is
   * dropped (one long subscriber id does not cost every row its id and reason).
   */
  max?: number;
  /**
   * A flexible column worth more than the columns with a drop order up to this: they are left out
   * rather than this column cut (the failure reason over the channels and the transaction id).
   */
  dropFor?: number;
  /**
   * A flexible column kept readable: the columns with a drop order up to `readableFor` are left out
   * rather than it be narrower than `readable` (the failure reason over the workflow).
   */
  readable?: number;
  readableFor?: number;
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
  /** Per shown column: a key column cut to its width (later pages cut theirs to it too). */
  keyCut?: boolean[];
}

const GAP = 2;

// Widths are terminal columns, not UTF-16 code units: a CJK character or an emoji takes two, a
// combining mark none, a ZWJ family one emoji's two; our own colour codes take none. Text is cut only
// between graphemes (Intl.Segmenter), so a cut never splits a surrogate pair, a ZWJ sequence or a
// letter from its accent.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// Measuring text that is not plain ASCII segments it into graphemes: the same cell is measured several
// times as a table is fitted and laid out, so the widths of recent strings are kept (a bounded memo).
const measured = new Map<string, number>();

/** How many terminal columns `s` takes (escape codes take none). */
export const width = (s: string): number => {
  if (PRINTABLE_ASCII.test(s)) return s.length;
  let w = measured.get(s);
  if (w === undefined) {
    w = stringWidth(s);
    if (measured.size >= 20_000) measured.clear();
    measured.set(s, w);
  }
  return w;
};

/** The longest start of `s` no wider than `max` columns, ending between graphemes. */
export function takeWidth(s: string, max: number): string {
  if (max <= 0) return '';
  if (PRINTABLE_ASCII.test(s)) return s.slice(0, max);
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(s)) {
    const w = stringWidth(segment);
    if (used + w > max) break;
    out += segment;
    used += w;
  }
  return out;
}

/** The end of `s` no wider than `max` columns, starting between graphemes. */
export function takeWidthEnd(s: string, max: number): string {
  if (max <= 0) return '';
  if (PRINTABLE_ASCII.test(s)) return s.slice(Math.max(0, s.length - max));
  const parts = [...graphemes.segment(s)].map((g) => g.segment);
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = stringWidth(parts[i]!);
    if (used + w > max) break;
    out = parts[i]! + out;
    used += w;
  }
  return out;
}

/** `s` padded with spaces to `n` columns. */
export const padWidth = (s: string, n: number): string => {
  const w = width(s);
  return w >= n ? s : s + ' '.repeat(n - w);
};

/** `s` on one line, cut to at most `max` columns with `…` when longer. */
export function cut(s: string, max: number): string {
  if (max <= 0) return '';
  const one = s.replace(/\s+/g, ' ');
  return width(one) > max ? `${takeWidth(one, max - 1)}…` : one;
}

/**
 * The shortest prefix (at least `min` characters) that tells each id apart from the others shown, as
 * git abbreviates commit ids. One length for the whole column, so the column stays aligned.
 */
export function shortIds(ids: readonly string[], min = 7): string[] {
  return shortIdForm(ids, min).ids;
}

const OBJECT_ID_RE = /^[0-9a-f]{24}$/i;

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
  const m = distinctLength(ids, Math.max(min, 8), true);
  // An ObjectId starts with its creation second: a prefix that tells apart the few rows shown is
  // shared by every other id made in that second, so `events get` could not resolve it. Its end (a
  // process's random part and counter) tells it apart from ids not shown too.
  if (ids.length > 0 && ids.every((x) => OBJECT_ID_RE.test(x))) return { ids: ids.map((x) => x.slice(x.length - m)), from: 'end' };
  const n = distinctLength(ids, min, false);
  if (m + 4 <= n) return { ids: ids.map((x) => x.slice(Math.max(0, x.length - m))), from: 'end' };
  return { ids: ids.map((x) => x.slice(0, n)), from: 'start' };
}

const forms = (c: FitCell | undefined): readonly string[] => (c === undefined ? [''] : typeof c === 'string' ? [c] : c.length ? c : ['']);

export function fitTable(columns: readonly FitColumn[], cells: readonly (readonly FitCell[])[], total: number, wide = false): FitResult {
  const fit = new Fitting(columns, cells, total);
  if (!wide) {
    fit.narrowForms();
    fit.cutToMax();
    fit.dropLowValue();
    fit.cutWide();
  }
  return fit.result(wide);
}

/** The state of fitting one table: the form, width limit and visibility of each column. */
class Fitting {
  /** The form each column is shown in (index into each cell's forms), per column. */
  private readonly level: number[];
  private readonly ids: (string[] | undefined)[];
  private readonly idFrom: ('start' | 'end' | undefined)[];
  private readonly shown: Set<number>;
  private readonly limit: number[];
  private shortened = false;
  /** A column's widest cell, measured once per form (the fitting asks again and again). */
  private readonly naturalOf = new Map<string, number>();

  constructor(
    private readonly columns: readonly FitColumn[],
    private readonly cells: readonly (readonly FitCell[])[],
    private readonly total: number,
  ) {
    const n = columns.length;
    this.level = new Array<number>(n).fill(0);
    this.ids = new Array(n).fill(undefined);
    this.idFrom = new Array(n).fill(undefined);
    this.shown = new Set<number>(columns.map((_, i) => i));
    this.limit = new Array<number>(n).fill(Number.POSITIVE_INFINITY);
  }

  private text(row: number, col: number): string {
    if (this.ids[col]) return this.ids[col]![row]!;
    const f = forms(this.cells[row]?.[col]);
    return f[Math.min(this.level[col]!, f.length - 1)]!;
  }

  private natural(col: number): number {
    const key = `${col}:${this.level[col]}:${this.ids[col] ? 'id' : ''}`;
    let w = this.naturalOf.get(key);
    if (w === undefined) {
      w = width(this.columns[col]!.header);
      for (let r = 0; r < this.cells.length; r++) w = Math.max(w, width(this.text(r, col)));
      this.naturalOf.set(key, w);
    }
    return w;
  }

  private colWidth(col: number): number {
    const c = this.columns[col]!;
    return c.flex ? Math.min(this.natural(col), c.min ?? 12) : Math.min(this.natural(col), this.limit[col]!);
  }

  private used(): number {
    const cols = [...this.shown];
    return cols.reduce((s, c) => s + this.colWidth(c), 0) + GAP * Math.max(0, cols.length - 1);
  }

  private fits(): boolean {
    return this.used() <= this.total;
  }

  /** 1. Narrow forms: ids, then each column's next form (times), one step at a time, left to right. */
  narrowForms(): void {
    const { columns, cells } = this;
    for (let c = 0; c < columns.length && !this.fits(); c++) {
      if (columns[c]!.kind !== 'id') continue;
      const all = cells.map((_, r) => this.text(r, c));
      const { ids: short, from } = shortIdForm(all);
      if (short.some((s, i) => s !== all[i])) {
        this.ids[c] = short;
        this.idFrom[c] = from;
        this.shortened = true;
      }
    }
    const maxForms = Math.max(1, ...cells.flatMap((row) => row.map((c) => forms(c).length)));
    for (let step = 1; step < maxForms && !this.fits(); step++) {
      for (let c = 0; c < columns.length && !this.fits(); c++) {
        if (cells.some((row) => forms(row[c]).length > step)) this.level[c] = step;
      }
    }
  }

  /** 1b. Text columns with a `max` are cut to it before anything is dropped. */
  cutToMax(): void {
    for (let c = 0; c < this.columns.length && !this.fits(); c++) {
      const col = this.columns[c]!;
      if (col.max !== undefined && (col.kind ?? 'text') === 'text' && !col.flex && this.colWidth(c) > col.max) {
        this.limit[c] = Math.max(col.max, this.colWidth(c) - (this.used() - this.total));
        this.shortened = true;
      }
    }
  }

  /** 2. Drop low-value columns, in their drop order, until the table fits and no flexible column is left short. */
  dropLowValue(): void {
    const droppable = this.columns
      .map((col, i) => ({ i, order: col.dropOrder }))
      .filter((x): x is { i: number; order: number } => x.order !== undefined)
      .sort((a, b) => a.order - b.order);
    for (const { i, order } of droppable) {
      if (this.fits() && !this.flexShort(order)) break;
      this.shown.delete(i);
    }
  }

  /**
   * Whether a flexible column worth more than the columns of this drop order gets less than it should:
   * not whole (dropFor), or narrower than readable (readableFor), with what the others leave it.
   */
  private flexShort(order: number): boolean {
    return [...this.shown].some((c) => {
      const col = this.columns[c]!;
      if (!col.flex) return false;
      const room = this.total - (this.used() - this.colWidth(c));
      if ((col.dropFor ?? -1) >= order && room < this.natural(c)) return true;
      return (col.readableFor ?? -1) >= order && room < Math.min(this.natural(c), col.readable ?? 0);
    });
  }

  /**
   * 3. A key wider than half the terminal (a 90-character subscriber id) is cut first, as far as the
   * table needs but not below half (else it would leave every other column a lone `…`); then text
   * columns, widest first; then keys further. A cut key ends with `…`, so it never looks whole
   * (--wide and -o json show it).
   */
  cutWide(): void {
    const half = Math.max(24, Math.floor(this.total / 2));
    const keys = () => [...this.shown].filter((c) => this.columns[c]!.kind === 'key');
    for (const c of keys()) {
      if (this.fits()) break;
      if (this.colWidth(c) > half) {
        this.limit[c] = Math.max(half, this.colWidth(c) - (this.used() - this.total));
        this.shortened = true;
      }
    }
    const cuttable = () =>
      [...this.shown].filter((c) => !this.columns[c]!.flex && (this.columns[c]!.kind ?? 'text') === 'text' && this.colWidth(c) > (this.columns[c]!.min ?? 8));
    this.narrowWidest(cuttable);
    this.narrowWidest(() => keys().filter((c) => this.colWidth(c) > 12));
  }

  /** Takes a column off the widest of `candidates` until the table fits or none is left. */
  private narrowWidest(candidates: () => number[]): void {
    while (!this.fits()) {
      const list = candidates();
      if (list.length === 0) return;
      const widest = list.reduce((a, b) => (this.colWidth(b) > this.colWidth(a) ? b : a));
      this.limit[widest] = this.colWidth(widest) - 1;
      this.shortened = true;
    }
  }

  /** 4. The flexible column takes what is left (at most its widest value); the cells laid out at the widths. */
  result(wide: boolean): FitResult {
    const { columns, cells, level, idFrom, limit, shown } = this;
    const order = [...shown].sort((a, b) => a - b);
    const widths = order.map((c) => (wide ? this.natural(c) : this.colWidth(c)));
    if (!wide) {
      const rest = this.total - (widths.reduce((s, w) => s + w, 0) + GAP * Math.max(0, order.length - 1));
      order.forEach((c, k) => {
        if (columns[c]!.flex) widths[k] = Math.max(widths[k]!, Math.min(this.natural(c), widths[k]! + Math.max(0, rest)));
      });
    }
    const rows = cells.map((_, r) =>
      order.map((c, k) => {
        const t = this.text(r, c);
        if (wide || width(t) <= widths[k]!) return t;
        this.shortened = true;
        return cut(t, widths[k]!);
      }),
    );
    return {
      shown: order,
      headers: order.map((c) => cut(columns[c]!.header, widths[order.indexOf(c)]!)),
      rows,
      widths,
      dropped: columns.filter((_, i) => !shown.has(i)).map((c) => c.header),
      shortened: this.shortened,
      levels: order.map((c) => level[c]!),
      idFrom: order.map((c) => idFrom[c]),
      keyCut: order.map((c) => columns[c]!.kind === 'key' && limit[c]! < Number.POSITIVE_INFINITY),
    };
  }
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
      if (wide || width(t) <= w) return t;
      // A key stays whole unless the first page cut that column (then it is cut the same way).
      if (columns[c]!.kind === 'key') return first.keyCut?.[k] ? cut(t, w) : t;
      if (k === first.shown.length - 1 && !columns[c]!.flex) return t;
      if (columns[c]!.kind === 'id') return first.idFrom?.[k] === 'end' ? takeWidthEnd(t, w) : takeWidth(t, w);
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
      const padded = k === cellsOf.length - 1 ? t : padWidth(t, fit.widths[k]!);
      return colour && row >= 0 ? colour(fit.shown[k]!, padded, row) : padded;
    });
    const s = parts.join(' '.repeat(GAP)).trimEnd();
    // A line still wider than the terminal (columns that cannot be cut further: statuses, keys at 12)
    // is cut with a mark: a value copied from it must not look whole.
    return wide || width(s) <= total ? s : `${cutAnsi(s, total - 1)}…`;
  };
  return [line(fit.headers, -1), ...fit.rows.map((r, i) => line(r, i))];
}

/** Cuts a line with colour codes to `max` columns (the codes kept, colour reset), between graphemes. */
export function cutAnsi(s: string, max: number): string {
  let out = '';
  let seen = 0;
  let coloured = false;
  const re = /\u001b\[[0-9;]*m/g;
  let at = 0;
  const text = (part: string): boolean => {
    const room = max - seen;
    const w = width(part);
    if (w <= room) {
      out += part;
      seen += w;
      return true;
    }
    out += takeWidth(part, room);
    seen = max;
    return false;
  };
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (!text(s.slice(at, m.index))) return coloured ? `${out}\u001b[0m` : out;
    out += m[0];
    coloured = true;
    at = m.index + m[0].length;
  }
  text(s.slice(at));
  return coloured ? `${out}\u001b[0m` : out;
}

/**
 * Word-wraps `text` to `width` columns, indenting the continuation lines; words longer than a line
 * are split between graphemes.
 */
export function wrap(text: string, width: number, indent = 0): string[] {
  const lines: string[] = [];
  const pad = ' '.repeat(Math.min(indent, Math.max(0, width - 10)));
  let line = '';
  const room = () => width - widthOf(line);
  for (const word of text.split(/(\s+)/)) {
    if (word === '') continue;
    if (/^\s+$/.test(word)) {
      const ws = word.replace(/\S|[^ ]/g, ' ');
      if (lines.length === 0 && line === '') line = ws.slice(0, Math.max(0, width - 10));
      else if (line.trim() !== '' && room() > ws.length) line += ws;
      else if (line.trim() !== '') {
        lines.push(line.trimEnd());
        line = pad;
      }
      continue;
    }
    let w = word;
    while (widthOf(w) > room()) {
      if (line.trim() !== '' && (widthOf(w) <= width - pad.length || room() <= 0)) {
        lines.push(line.trimEnd());
        line = pad;
        continue;
      }
      // At least one grapheme, so a character wider than the line still moves on.
      let take = takeWidth(w, Math.max(1, room()));
      if (take === '') take = [...graphemes.segment(w)][0]!.segment;
      line += take;
      w = w.slice(take.length);
      lines.push(line);
      line = pad;
    }
    line += w;
  }
  if (line.trim() !== '' || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

const widthOf = width;

// Human output for a terminal: tables fitted to the terminal's width (io/list-table.ts, io/fit.ts; --wide
// shows every column whole), coloured statuses (chalk), times in the one display (io/time.ts), and the
// special layouts: the event timeline and the --wait report (io/timeline.ts), trigger results,
// workflows, previews.
import { Chalk, type ChalkInstance } from 'chalk';
import { getPath } from './paths.js';
import { renderMessage } from './outbox-view.js';
import { safeText } from './safe-text.js';
import type { Output, PrintOptions } from './types.js';
import { LIST_VIEWS, type Column } from './views.js';
import { renderFitted, type FitStream, type ListColumn } from './list-table.js';
import { cut, cutAnsi, padWidth, width, wrap } from './fit.js';
import { formatTime } from './time.js';
import { renderTimeline, renderWaitReport } from './timeline.js';

type Rec = Record<string, unknown>;

const GREEN = new Set(['completed', 'sent', 'processed', 'success', 'active', 'delivered', 'true', 'read', 'done']);
const RED = new Set(['failed', 'error', 'canceled', 'invalid_recipients', 'no_tenant_found', 'trigger_not_active']);
const YELLOW = new Set(['pending', 'queued', 'running', 'delayed', 'warning', 'readconfirmation', 'partial']);
const DIM = new Set(['skipped', 'merged', 'throttled', 'inactive', 'none', '-']);

export function colourStatus(c: ChalkInstance, s: string): string {
  const k = s.toLowerCase();
  if (GREEN.has(k)) return c.green(s);
  if (RED.has(k) || k.startsWith('no_workflow')) return c.red(s);
  if (YELLOW.has(k)) return c.yellow(s);
  if (DIM.has(k)) return c.dim(s);
  return s;
}

function shorten(s: string, max: number): string {
  return cut(s, Math.max(2, max));
}

/** A value as the text of a cell, safe for the terminal (io/safe-text.ts). */
function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return safeText(v, { newlines: true });
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return safeText(v.join(', '), { newlines: true });
  // JSON escapes C0 controls, not DEL, C1 or the bidi overrides.
  return safeText(JSON.stringify(v));
}

/**
 * The state of a table printed page by page (--all): the first page sets the columns' widths, later
 * pages keep them and print no header, so the pages read as one table.
 */
interface TableStream extends FitStream {
  widths?: number[];
}

/**
 * Cells in columns two spaces apart, padded to the widest cell by terminal columns (a CJK name, an
 * emoji, an accent measured as the terminal shows them); the last column unpadded.
 */
function table(c: ChalkInstance, head: string[] | undefined, rows: string[][], stream?: TableStream): string {
  const lineOf = (cells: string[], widths: readonly number[], cutLater: boolean) =>
    cells
      .map((cell, k) => {
        // One line a row: a line break in a value would break the columns.
        const t = cell.replace(/\s*\n\s*/g, ' ');
        if (k === cells.length - 1) return t;
        const w = widths[k] ?? 0;
        // Later pages: a longer value is cut to the first page's width (the last column, which
        // nothing follows, keeps its whole value).
        return padWidth(cutLater && width(t) > w ? cutAnsi(t, w) : t, w);
      })
      .join('  ')
      .trimEnd();
  if (stream?.widths) return rows.map((r) => lineOf(r, stream.widths!, true)).join('\n');
  const all = head ? [head, ...rows] : rows;
  const widths = (all[0] ?? []).map((_, i) => Math.max(0, ...all.map((r) => width(r[i] ?? ''))));
  if (stream) stream.widths = widths;
  return [
    ...(head
      ? [
          lineOf(
            head.map((h) => c.bold(h)),
            widths,
            false,
          ),
        ]
      : []),
    ...rows.map((r) => lineOf(r, widths, false)),
  ].join('\n');
}

/** The terminal's width; a table written to a pipe or file is not fitted (nothing wraps there). */
const widthOf = (out: Output): number | undefined => (out.stdout.isTTY && out.stdout.columns ? out.stdout.columns : undefined);

function renderList(out: Output, c: ChalkInstance, records: Rec[], view: PrintOptions['view'], stream?: TableStream): string {
  if (records.length === 0) {
    // Not data: stdout stays empty, as it does for an empty list in the other formats' records.
    out.note('(no results)');
    return '';
  }
  const fields = out.fields;
  const columns: ListColumn[] = fields?.length
    ? fields.map((f) => ({ header: f.toUpperCase(), value: f, status: /status$/i.test(f), time: /At$/.test(f) }))
    : ((view && LIST_VIEWS[view]) ?? genericColumns(records));
  const width = widthOf(out);
  const first = !stream?.fit;
  const { text, fit } = renderFitted(
    c,
    columns,
    records,
    { width: width ?? 100_000, wide: out.wide === true || width === undefined, utc: out.utc === true },
    colourStatus,
    stream,
  );
  if (first && width !== undefined && (fit.dropped.length || fit.shortened)) {
    const left = fit.dropped.length ? `${fit.dropped.map((h) => h.toLowerCase()).join(', ')} left out` : '';
    // The note fits the terminal too: a shorter wording, then words wrapped.
    const said = [left, fit.shortened ? 'values shortened' : ''].filter(Boolean).join('; ');
    const long = `(${said} to fit ${width} columns; --wide shows everything)`;
    const note = long.length <= width ? long : `(${said}; --wide shows all)`;
    out.note(wrap(note, width).join('\n'));
  }
  return text;
}

function genericColumns(records: Rec[]): Column[] {
  const keys: string[] = [];
  for (const r of records.slice(0, 20)) {
    for (const [k, v] of Object.entries(r)) {
      if (keys.includes(k) || (v !== null && typeof v === 'object' && !Array.isArray(v))) continue;
      keys.push(k);
    }
  }
  return keys.slice(0, 8).map((k) => ({ header: k.toUpperCase(), value: k, status: /status$/i.test(k), time: /At$/.test(k) }));
}

/** Nested records flattened to dot paths, for a two-column table. */
function flatten(value: unknown, prefix = '', out: [string, unknown][] = [], depth = 0): [string, unknown][] {
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < 3 && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
  } else out.push([prefix || 'value', value]);
  return out;
}

function renderRecord(out: Output, c: ChalkInstance, record: unknown): string {
  if (!record || typeof record !== 'object') return `${cell(record)}\n`;
  const fields = out.fields;
  const pairs: [string, unknown][] = fields?.length ? fields.map((f) => [f, getPath(record, f)]) : flatten(record);
  const max = Math.max(20, (out.stdout.columns ?? 120) - 30);
  const rows = pairs.map(([k, v]) => {
    const text = shorten(/At$/.test(k) && typeof v === 'string' ? formatTime(v, 'full', { utc: out.utc === true }) : cell(v), max);
    return [c.bold(k), /(^|\.)status$/.test(k) && text ? colourStatus(c, text) : text];
  });
  return `${table(c, undefined, rows)}\n`;
}

function renderTrigger(c: ChalkInstance, r: Rec): string {
  const ok = r.status === 'processed';
  const lines = [`${ok ? c.green('✓') : c.red('✗')} ${colourStatus(c, String(r.status))}${r.transactionId ? `  transaction ${r.transactionId}` : ''}`];
  if (Array.isArray(r.error)) for (const e of r.error) lines.push(`  ${c.red(String(e))}`);
  if (typeof r.activityFeedLink === 'string') lines.push(`  ${c.dim('activity:')} ${r.activityFeedLink}`);
  return `${lines.join('\n')}\n`;
}

function renderWorkflow(out: Output, c: ChalkInstance, w: Rec): string {
  const head = renderRecord(out, c, {
    workflowId: w.workflowId,
    name: w.name,
    status: w.status,
    origin: w.origin,
    ...(w.bridgeUrl !== undefined && { bridgeUrl: w.bridgeUrl }),
    active: w.active,
    severity: w.severity,
    tags: w.tags,
    updatedAt: w.updatedAt,
    lastTriggeredAt: w.lastTriggeredAt,
  });
  const steps = (Array.isArray(w.steps) ? w.steps : []) as Rec[];
  const cells = steps.map((s, i) => {
    const issues = s.issues as { controls?: Rec; integration?: Rec } | undefined;
    const list = [...Object.values(issues?.controls ?? {}), ...Object.values(issues?.integration ?? {})].flat().map((x) => String((x as Rec).issueType ?? ''));
    return { first: [String(i + 1), cell(s.stepId ?? ''), cell(s.type ?? ''), cell(s.name ?? '')], issues: cell(list.join(', ')) };
  });
  const header = ['#', 'STEP ID', 'TYPE', 'NAME', 'ISSUES'];
  // The issues, the last column, wrap inside it on a terminal: continuation lines start under it.
  const total = out.wide ? undefined : widthOf(out);
  const lead = header.slice(0, 4).map((h, k) => Math.max(width(h), ...cells.map((r) => width(r.first[k]!))) + 2);
  const room = total === undefined ? Number.POSITIVE_INFINITY : total - lead.reduce((a, b) => a + b, 0);
  const rows = cells.flatMap((r) => {
    if (!r.issues) return [[...r.first, c.dim('none')]];
    const lines = room >= 12 ? wrap(r.issues, room) : [r.issues];
    return lines.map((line, k) => [...(k === 0 ? r.first : ['', '', '', '']), c.red(line)]);
  });
  return `${head}\n${table(c, header, rows)}\n`;
}

function renderPreview(out: Output, c: ChalkInstance, p: Rec): string {
  const result = (p.result ?? {}) as Rec;
  const lines = [`${c.bold('Preview')} ${result.type ? String(result.type) : ''}`];
  const error = result.error as Rec | undefined;
  if (error) {
    lines.push(`${c.red('✗')} ${String(error.title ?? 'Error')}: ${String(error.message ?? '')}`);
    if (error.hint) lines.push(`  ${c.dim('hint:')} ${String(error.hint)}`);
  }
  const preview = result.preview ?? (error ? undefined : result);
  let text = `${lines.join('\n')}\n`;
  // An sms or chat preview is its body alone, which the command prints after this: no empty record row.
  if (preview && typeof preview === 'object' && Object.keys(preview).length > 0) text += renderRecord(out, c, preview);
  if (typeof p.svcSignature === 'string') text += `${c.dim('svc-signature:')} ${p.svcSignature}\n`;
  return text;
}

function renderSettings(c: ChalkInstance, rows: Rec[]): string {
  return `${table(
    c,
    ['SETTING', 'VALUE', 'SOURCE'],
    rows.map((r) => [String(r.setting), cell(r.value), c.dim(String(r.source))]),
  )}\n`;
}

const layoutOf = (out: Output, opts: PrintOptions = {}) => ({
  width: out.wide ? 100_000 : (widthOf(out) ?? 100_000),
  utc: out.utc === true,
  ...(opts.raw ? { raw: true } : {}),
  ...(opts.scope ? { scope: opts.scope } : {}),
});

export function renderTable(out: Output, value: unknown, opts: PrintOptions, stream?: TableStream): string {
  const c = new Chalk({ level: out.color ? 1 : 0 });
  const view = opts.view;
  if (opts.list && value && typeof value === 'object' && Array.isArray((value as Rec).data)) {
    return renderList(out, c, (value as { data: Rec[] }).data, view, stream);
  }
  if (Array.isArray(value)) {
    if (value.every((x) => x && typeof x === 'object')) {
      if (view === 'settings') return renderSettings(c, value as Rec[]);
      // Several events (a transaction's recipients): each one's timeline.
      if (view === 'event' && !out.fields?.length) return value.map((n) => renderTimeline(c, n as Rec, layoutOf(out, opts))).join('\n');
      return renderList(out, c, value as Rec[], view);
    }
    return `${value.map(cell).join('\n')}\n`;
  }
  if (value && typeof value === 'object' && !out.fields?.length) {
    const r = value as Rec;
    if (view === 'event') return renderTimeline(c, r, layoutOf(out, opts));
    if (view === 'trigger') return renderTrigger(c, r);
    if (view === 'wait') return renderWaitReport(c, r, layoutOf(out));
    if (view === 'message') return renderMessage(c, r, layoutOf(out));
    if (view === 'workflow') return renderWorkflow(out, c, r);
    if (view === 'preview') return renderPreview(out, c, r);
  }
  return renderRecord(out, c, value);
}

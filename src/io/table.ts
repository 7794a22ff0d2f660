// Human output for a terminal: aligned borderless tables (cli-table3), coloured statuses (chalk), long
// values shortened, and the special layouts: the event timeline, trigger results, workflows, previews.
import { stripVTControlCharacters } from 'node:util';
import Table from 'cli-table3';
import { Chalk, type ChalkInstance } from 'chalk';
import { getPath } from './paths.js';
import type { Output, PrintOptions } from './types.js';
import { LIST_VIEWS, type Column } from './views.js';
import { statusOf, lastDetail, type JobLike } from '../core/activity.js';
import { OBJECT_ID_RE } from '../core/object-id.js';

type Rec = Record<string, unknown>;

const GREEN = new Set(['completed', 'sent', 'processed', 'success', 'active', 'delivered', 'true', 'read', 'done']);
const RED = new Set(['failed', 'error', 'canceled', 'invalid_recipients', 'no_tenant_found', 'trigger_not_active']);
const YELLOW = new Set(['pending', 'queued', 'running', 'delayed', 'warning', 'readconfirmation']);
const DIM = new Set(['skipped', 'merged', 'inactive', '-']);

export function colourStatus(c: ChalkInstance, s: string): string {
  const k = s.toLowerCase();
  if (GREEN.has(k)) return c.green(s);
  if (RED.has(k) || k.startsWith('no_workflow')) return c.red(s);
  if (YELLOW.has(k)) return c.yellow(s);
  if (DIM.has(k)) return c.dim(s);
  return s;
}

export function shorten(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, Math.max(1, max - 1))}…` : one;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
export function shortTime(iso: unknown, withMs = false): string {
  if (typeof iso !== 'string') return iso === undefined || iso === null ? '' : String(iso);
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const date = `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
  const time = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  return withMs ? `${time}.${String(d.getMilliseconds()).padStart(3, '0')}` : `${date} ${time}`;
}

function cell(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.join(', ');
  return JSON.stringify(v);
}

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
  'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/**
 * The state of a table printed page by page (--all): the first page sets the columns' widths, later
 * pages keep them and print no header, so the pages read as one table.
 */
export interface TableStream {
  widths?: number[];
}

const visible = (s: string) => stripVTControlCharacters(s).length;

function table(c: ChalkInstance, head: string[] | undefined, rows: string[][], stream?: TableStream): string {
  if (stream?.widths) {
    // Later pages: same widths (a longer value is cut by the table; the last column, which nothing
    // follows, keeps its whole value), no header.
    const widths: (number | null)[] = [...stream.widths.slice(0, -1), null];
    const t = new Table({ chars: BORDERLESS, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 }, wordWrap: false, colWidths: widths });
    t.push(...rows);
    return t.toString().split('\n').map((l) => l.trimEnd()).join('\n');
  }
  if (stream) stream.widths = (head ?? rows[0] ?? []).map((_, i) => Math.max(head ? visible(head[i]!) : 0, ...rows.map((r) => visible(r[i] ?? ''))));
  const t = new Table({
    ...(head ? { head: head.map((h) => c.bold(h)) } : {}),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    wordWrap: false,
  });
  t.push(...rows);
  return t
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

function widthFor(out: Output, columns: number): number {
  const total = out.stdout.columns ?? 120;
  return Math.max(12, Math.min(48, Math.floor((total - 2 * columns) / Math.max(1, columns)) + 8));
}

function renderList(out: Output, c: ChalkInstance, records: Rec[], view: PrintOptions['view'], stream?: TableStream): string {
  if (records.length === 0) {
    // Not data: stdout stays empty, as it does for an empty list in the other formats' records.
    out.note('(no results)');
    return '';
  }
  const fields = out.fields;
  const columns: Column[] = fields?.length
    ? fields.map((f) => ({ header: f.toUpperCase(), value: f, status: /status$/i.test(f) }))
    : (view && LIST_VIEWS[view]) ?? genericColumns(records);
  const max = widthFor(out, columns.length);
  const rows = records.map((r, i) =>
    columns.map((col) => {
      const raw = typeof col.value === 'string' ? getPath(r, col.value) : col.value({ ...r, __index: i });
      const value = col.time ? shortTime(raw) : cell(raw);
      // Ids are never cut: a shortened id cannot be copied into the next command.
      const text = col.full || OBJECT_ID_RE.test(value) ? value : shorten(value, max);
      return col.status && text ? colourStatus(c, text) : text;
    }),
  );
  return `${table(c, columns.map((col) => col.header), rows, stream)}\n`;
}

function genericColumns(records: Rec[]): Column[] {
  const keys: string[] = [];
  for (const r of records.slice(0, 20)) {
    for (const [k, v] of Object.entries(r)) {
      if (keys.includes(k) || (v !== null && typeof v === 'object' && !Array.isArray(v))) continue;
      keys.push(k);
    }
  }
  return keys.slice(0, 8).map((k) => ({ header: k.toUpperCase(), value: k, status: /status$/i.test(k) }));
}

/** Nested records flattened to dot paths, for a two-column table. */
export function flatten(value: unknown, prefix = '', out: [string, unknown][] = [], depth = 0): [string, unknown][] {
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
    const text = shorten(cell(v), max);
    return [c.bold(k), /(^|\.)status$/.test(k) && text ? colourStatus(c, text) : text];
  });
  return `${table(c, undefined, rows)}\n`;
}

function renderTimeline(c: ChalkInstance, n: Rec): string {
  const jobs = (Array.isArray(n.jobs) ? n.jobs : []) as (JobLike & Rec)[];
  const workflow = getPath(n, 'template.triggers.0.identifier') ?? getPath(n, 'template.name') ?? n._templateId ?? '?';
  const subscriber = getPath(n, 'subscriber.subscriberId') ?? n._subscriberId ?? '?';
  const lines: string[] = [];
  lines.push(`${c.bold('Event')} ${n._id ?? ''}  ${c.dim('·')}  workflow ${c.bold(String(workflow))}  ${c.dim('·')}  subscriber ${c.bold(String(subscriber))}`);
  const meta: [string, unknown][] = [
    ['Transaction', n.transactionId],
    ['Created', shortTime(n.createdAt)],
    ['Channels', Array.isArray(n.channels) ? n.channels.join(', ') : undefined],
    ['Context', Array.isArray(n.contextKeys) && n.contextKeys.length ? n.contextKeys.join(', ') : undefined],
    ['Status', colourStatus(c, statusOf(jobs))],
  ];
  for (const [k, v] of meta) if (v !== undefined && v !== '') lines.push(`${c.dim(k.padEnd(12))}${String(v)}`);
  if (jobs.length === 0) lines.push('', c.dim('No jobs recorded for this event.'));
  jobs.forEach((job, i) => {
    const name = getPath(job, 'step.name');
    const provider = job.providerId ? `  ${c.dim('via')} ${job.providerId}` : '';
    lines.push('');
    lines.push(`${c.bold(`${i + 1}. ${job.type ?? 'step'}`)}${name ? c.dim(` (${String(name)})`) : ''}${provider}  ${colourStatus(c, job.status ?? '?')}`);
    const details = job.executionDetails ?? [];
    if (details.length === 0) lines.push(`   ${c.dim('no execution details yet')}`);
    for (const d of details as Rec[]) {
      const status = String(d.status ?? '');
      lines.push(`   ${c.dim(shortTime(d.createdAt, true))}  ${colourStatus(c, status.padEnd(17))} ${String(d.detail ?? '')}`);
      if (typeof d.raw === 'string' && d.raw) lines.push(`   ${' '.repeat(14)}${c.dim(shorten(`raw: ${d.raw}`, 110))}`);
    }
    const last = lastDetail(job);
    if (job.status === 'failed' && last?.detail) lines.push(`   ${c.red('✗')} ${last.detail}`);
  });
  return `${lines.join('\n')}\n`;
}

function renderTrigger(c: ChalkInstance, r: Rec): string {
  const ok = r.status === 'processed';
  const lines = [`${ok ? c.green('✓') : c.red('✗')} ${colourStatus(c, String(r.status))}${r.transactionId ? `  transaction ${r.transactionId}` : ''}`];
  if (Array.isArray(r.error)) for (const e of r.error) lines.push(`  ${c.red(String(e))}`);
  if (typeof r.activityFeedLink === 'string') lines.push(`  ${c.dim('activity:')} ${r.activityFeedLink}`);
  return `${lines.join('\n')}\n`;
}

function renderWait(c: ChalkInstance, w: Rec): string {
  const lines = [renderTrigger(c, (w.trigger ?? {}) as Rec).trimEnd()];
  const recipients = (Array.isArray(w.recipients) ? w.recipients : []) as Rec[];
  const mark: Record<string, string> = { delivered: c.green('✓'), merged: c.green('↪'), failed: c.red('✗'), pending: c.yellow('…'), empty: c.dim('?') };
  lines.push(`${colourStatus(c, String(w.outcome))} after ${((Number(w.waitedMs) || 0) / 1000).toFixed(1)}s · ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}`);
  for (const r of recipients) {
    lines.push('', `${mark[String(r.outcome)] ?? ''} ${c.bold(String(r.subscriberId ?? '?'))}  ${colourStatus(c, String(r.outcome))}  ${c.dim(String(r.notificationId ?? ''))}`);
    for (const s of (Array.isArray(r.steps) ? r.steps : []) as Rec[]) {
      const provider = s.providerId ? ` ${c.dim('via')} ${String(s.providerId)}` : '';
      lines.push(`   ${String(s.type).padEnd(12)} ${colourStatus(c, String(s.status).padEnd(10))}${provider}${s.detail ? `  ${c.dim(String(s.detail))}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function renderWorkflow(out: Output, c: ChalkInstance, w: Rec): string {
  const head = renderRecord(out, c, {
    workflowId: w.workflowId, name: w.name, status: w.status, active: w.active, severity: w.severity,
    tags: w.tags, updatedAt: w.updatedAt, lastTriggeredAt: w.lastTriggeredAt,
  });
  const steps = (Array.isArray(w.steps) ? w.steps : []) as Rec[];
  const rows = steps.map((s, i) => {
    const issues = s.issues as { controls?: Rec; integration?: Rec } | undefined;
    const list = [...Object.values(issues?.controls ?? {}), ...Object.values(issues?.integration ?? {})]
      .flat()
      .map((x) => String((x as Rec).issueType ?? ''));
    return [String(i + 1), String(s.stepId ?? ''), String(s.type ?? ''), String(s.name ?? ''), list.length ? c.red(list.join(', ')) : c.dim('none')];
  });
  return `${head}\n${table(c, ['#', 'STEP ID', 'TYPE', 'NAME', 'ISSUES'], rows)}\n`;
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
  if (preview && typeof preview === 'object') text += renderRecord(out, c, preview);
  if (typeof p.svcSignature === 'string') text += `${c.dim('svc-signature:')} ${p.svcSignature}\n`;
  return text;
}

function renderSettings(c: ChalkInstance, rows: Rec[]): string {
  return `${table(c, ['SETTING', 'VALUE', 'SOURCE'], rows.map((r) => [String(r.setting), cell(r.value), c.dim(String(r.source))]))}\n`;
}

export function renderTable(out: Output, value: unknown, opts: PrintOptions, stream?: TableStream): string {
  const c = new Chalk({ level: out.color ? 1 : 0 });
  const view = opts.view;
  if (opts.list && value && typeof value === 'object' && Array.isArray((value as Rec).data)) {
    return renderList(out, c, (value as { data: Rec[] }).data, view, stream);
  }
  if (Array.isArray(value)) {
    if (value.every((x) => x && typeof x === 'object')) {
      if (view === 'settings') return renderSettings(c, value as Rec[]);
      return renderList(out, c, value as Rec[], view);
    }
    return `${value.map(cell).join('\n')}\n`;
  }
  if (value && typeof value === 'object' && !out.fields?.length) {
    const r = value as Rec;
    if (view === 'event') return renderTimeline(c, r);
    if (view === 'trigger') return renderTrigger(c, r);
    if (view === 'wait') return renderWait(c, r);
    if (view === 'workflow') return renderWorkflow(out, c, r);
    if (view === 'preview') return renderPreview(out, c, r);
  }
  return renderRecord(out, c, value);
}

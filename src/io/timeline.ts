// The event timeline (`events get`) and the delivery report of `trigger --wait`, laid out for the
// terminal's width: wrapped text continues under its own column (never at column 0), the derived status
// (core/status.ts) with its reason in one line, each channel's outcome, a failure in red, and "Channels"
// listing only the channel steps. A provider's or bridge's raw answer is folded to one line saying its
// size (`events get --raw` shows it, as `-o json` does). Pure: a record, a colour instance and the
// width in, text out.
import type { ChalkInstance } from 'chalk';
import { CHANNEL_TYPES, judge, type JudgeScope, type StatusJob } from '../core/status.js';
import { cut, wrap } from './fit.js';
import { safeText } from './safe-text.js';
import { formatTime, type TimeOptions } from './time.js';

type Rec = Record<string, unknown>;

interface LayoutOptions extends TimeOptions {
  /** The terminal's width (80 when unknown). */
  width?: number;
  /** Show each execution detail's raw answer whole (`--raw`) rather than folded. */
  raw?: boolean;
  /** Judge the status over these channels only (`--channel`). */
  scope?: JudgeScope;
}

const CHANNEL: ReadonlySet<string> = new Set<string>(CHANNEL_TYPES);

const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Rec)[k] : undefined), o);

const GREEN = new Set(['completed', 'sent', 'processed', 'success', 'delivered', 'read', 'done']);
const RED = new Set(['failed', 'error', 'canceled']);
const YELLOW = new Set(['pending', 'queued', 'running', 'delayed', 'warning', 'partial']);
const DIM = new Set(['skipped', 'merged', 'throttled', 'none', '-']);

function paint(c: ChalkInstance, status: string, text = status): string {
  const k = status.toLowerCase();
  if (GREEN.has(k)) return c.green(text);
  if (RED.has(k)) return c.red(text);
  if (YELLOW.has(k)) return c.yellow(text);
  if (DIM.has(k)) return c.dim(text);
  return text;
}

/** Lines of `text` wrapped to `width`, continuing at `indent`; `style` colours each line. */
function block(text: string, width: number, indent: number, style: (s: string) => string = (s) => s): string[] {
  return wrap(text, width, indent).map((s) => style(s));
}

/** The channel steps an event has: from its jobs when it has them, else its `channels` less the action steps. */
export function channelsOf(n: Rec): string[] {
  const jobs = Array.isArray(n.jobs) ? (n.jobs as Rec[]) : [];
  const from = jobs.length ? jobs.map((j) => String(j.type ?? '')) : Array.isArray(n.channels) ? n.channels.map(String) : [];
  return [...new Set(from.filter((t) => CHANNEL.has(t)))];
}

export function renderTimeline(c: ChalkInstance, n: Rec, opts: LayoutOptions = {}): string {
  const width = Math.max(40, opts.width ?? 80);
  const jobs = (Array.isArray(n.jobs) ? n.jobs : []) as Rec[];
  const workflow = get(n, 'template.triggers.0.identifier') ?? get(n, 'template.name') ?? n._templateId ?? '?';
  const subscriber = get(n, 'subscriber.subscriberId') ?? n._subscriberId ?? '?';
  const judged = judge(jobs as StatusJob[], opts.scope);
  const status = judged.status;
  const out: string[] = [];
  out.push(...block(`Event ${String(n._id ?? '')} · workflow ${String(workflow)} · subscriber ${String(subscriber)}`, width, 6, c.bold));
  const channels = channelsOf(n);
  const meta: [string, string | undefined][] = [
    ['Transaction', typeof n.transactionId === 'string' ? n.transactionId : undefined],
    ['Created', n.createdAt ? formatTime(n.createdAt, 'full', opts) : undefined],
    ['Channels', channels.length ? channels.join(', ') : undefined],
    ['Context', Array.isArray(n.contextKeys) && n.contextKeys.length ? n.contextKeys.join(', ') : undefined],
  ];
  for (const [k, v] of meta) if (v) out.push(...block(`${k.padEnd(12)}${v}`, width, 12).map((l, i) => (i === 0 ? c.dim(l.slice(0, 12)) + l.slice(12) : l)));
  out.push(
    `${c.dim('Status'.padEnd(12))}${paint(c, status)}${status === 'failed' ? c.red(` (${jobs.filter((j) => j.status === 'failed').length} of ${jobs.length} steps)`) : ''}`,
  );
  // Why, in one line that fits (the whole text is at its step below): a URL in it is its host.
  if (judged.reason) {
    const line = cut(
      judged.reason.replace(URL_RE, (u) => hostOf(u)),
      width - 12,
    );
    out.push(`${c.dim('Reason'.padEnd(12))}${status === 'failed' ? c.red(line) : line}`);
  }
  // Each channel's own outcome when they differ (one delivered, one skipped).
  if (new Set(judged.channels.map((x) => x.outcome)).size > 1) {
    const list = judged.channels.map((x) => `${x.channel} ${x.outcome}`).join(', ');
    out.push(...block(`${'Outcomes'.padEnd(12)}${list}`, width, 12).map((l, i) => (i === 0 ? c.dim(l.slice(0, 12)) + l.slice(12) : l)));
  }
  if (jobs.length === 0) out.push('', c.dim('No jobs recorded for this event.'));

  const details = jobs.flatMap((j) => (Array.isArray(j.executionDetails) ? (j.executionDetails as Rec[]) : []));
  const statusWidth = Math.max(7, ...details.map((d) => String(d.status ?? '').length));
  jobs.forEach((job, i) => {
    const failed = job.status === 'failed';
    const name = get(job, 'step.name');
    const head = `${i + 1}. ${String(job.type ?? 'step')}${name ? ` (${String(name)})` : ''}${job.providerId ? ` via ${String(job.providerId)}` : ''}  ${String(job.status ?? '?')}`;
    out.push('');
    out.push(...block(head, width, 3, failed ? (s) => c.red(c.bold(s)) : (s) => c.bold(s)));
    const list = Array.isArray(job.executionDetails) ? (job.executionDetails as Rec[]) : [];
    if (list.length === 0) out.push(`   ${c.dim('no execution details yet')}`);
    for (const d of list) {
      const when = formatTime(d.createdAt, 'clock-ms', opts);
      const st = String(d.status ?? '');
      const indent = 3 + when.length + 2 + statusWidth + 1;
      const bad = /^(failed|error)$/i.test(st);
      const text = `   ${when}  ${st.padEnd(statusWidth)} ${String(d.detail ?? '')}`;
      const lines = wrap(text, width, indent);
      lines.forEach((l, k) => {
        if (k > 0) {
          out.push(bad ? c.red(l) : l);
          return;
        }
        const pre = `   ${when}  `;
        out.push(`${c.dim(pre)}${paint(c, st, st.padEnd(statusWidth))}${bad ? c.red(l.slice(pre.length + statusWidth)) : l.slice(pre.length + statusWidth)}`);
      });
      if (typeof d.raw === 'string' && d.raw) {
        if (opts.raw) out.push(...block(`${' '.repeat(indent)}raw: ${d.raw}`, width, indent + 5, c.dim));
        else out.push(c.dim(cut(`${' '.repeat(indent)}raw: ${rawSize(d.raw)} folded (--raw shows it)`, width)));
      }
    }
  });
  return `${out.join('\n')}\n`;
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>]+/g;

/** A URL as its host (and port), or as it is when it does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url.replace(/…$/, '')).host || url;
  } catch {
    return url;
  }
}

/** The size of a folded raw answer: "1.2 kB" or "312 B". */
function rawSize(raw: string): string {
  const n = Buffer.byteLength(raw);
  return n < 1000 ? `${n} B` : `${(n / 1000).toFixed(1)} kB`;
}

/** One line per step whose state changed since the last poll, for `trigger --wait` on a terminal. */
export function stepChanges(
  seen: Map<string, string>,
  recipients: { subscriberId: string | null; notificationId: string | null; steps: { type: string; status: string; providerId: string | null }[] }[],
): string[] {
  const lines: string[] = [];
  for (const r of recipients) {
    r.steps.forEach((s, i) => {
      const key = `${r.notificationId ?? r.subscriberId}:${i}`;
      if (seen.get(key) === s.status) return;
      seen.set(key, s.status);
      lines.push(safeText(`${r.subscriberId ?? '?'}  ${i + 1}. ${s.type}  ${s.status}${s.providerId ? ` via ${s.providerId}` : ''}`));
    });
  }
  return lines;
}

export function renderWaitReport(c: ChalkInstance, w: Rec, opts: LayoutOptions = {}): string {
  const width = Math.max(40, opts.width ?? 80);
  const lines: string[] = [];
  const trigger = (w.trigger ?? {}) as Rec;
  const ok = trigger.status === 'processed';
  lines.push(
    `${ok ? c.green('✓') : c.red('✗')} ${paint(c, String(trigger.status ?? ''))}${trigger.transactionId ? `  transaction ${String(trigger.transactionId)}` : ''}`,
  );
  if (Array.isArray(trigger.error)) for (const e of trigger.error) lines.push(...block(`  ${String(e)}`, width, 2, c.red));
  // A link is never wrapped: a line break (and indent) inside it would make it open another page.
  if (typeof trigger.activityFeedLink === 'string') lines.push(`  ${c.dim('activity:')} ${safeText(trigger.activityFeedLink)}`);
  const recipients = (Array.isArray(w.recipients) ? w.recipients : []) as Rec[];
  const outcome = String(w.outcome);
  const label =
    outcome === 'skipped' || outcome === 'throttled'
      ? `nothing delivered (${outcome})`
      : outcome === 'partial'
        ? 'partial (some channels not delivered)'
        : outcome;
  lines.push(
    `${paint(c, outcome, label)} after ${((Number(w.waitedMs) || 0) / 1000).toFixed(1)}s · ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}`,
  );
  const mark: Record<string, string> = {
    delivered: c.green('✓'),
    completed: c.green('✓'),
    partial: c.yellow('±'),
    merged: c.dim('↪'),
    skipped: c.dim('–'),
    throttled: c.dim('–'),
    canceled: c.red('✗'),
    failed: c.red('✗'),
    pending: c.yellow('…'),
    empty: c.dim('?'),
    none: c.dim('?'),
  };
  for (const r of recipients) {
    lines.push('');
    lines.push(
      `${mark[String(r.outcome)] ?? ' '} ${c.bold(String(r.subscriberId ?? '?'))}  ${paint(c, String(r.outcome))}  ${c.dim(String(r.notificationId ?? ''))}`,
    );
    for (const s of (Array.isArray(r.steps) ? r.steps : []) as Rec[]) {
      // A channel step says its own outcome (delivered, skipped, throttled, ...), an action step its status.
      const st = String(s.outcome ?? s.status);
      const pre = `   ${String(s.type).padEnd(8)} `;
      const via = s.providerId ? ` via ${String(s.providerId)}` : '';
      const head = `${pre}${st.padEnd(9)}${via}`;
      // Why a step was not delivered; a delivered or running one says what happened last.
      const why = s.reason ?? s.detail;
      const text = `${head}${why ? `  ${String(why)}` : ''}`;
      wrap(text, width, pre.length + 10).forEach((l, k) => {
        if (k > 0) {
          lines.push(st === 'failed' ? c.red(l) : c.dim(l));
          return;
        }
        const rest = l.slice(head.length);
        lines.push(`${pre}${paint(c, st, st.padEnd(9))}${l.slice(pre.length + 9, head.length)}${st === 'failed' ? c.red(rest) : c.dim(rest)}`);
      });
    }
  }
  return `${lines.join('\n')}\n`;
}

// What a bulk run tells: the report (one NDJSON line per row: sent, failed or skipped, and why) and, on a
// terminal, the progress line.
import { closeSync, openSync, writeSync } from 'node:fs';
import { formatDuration } from '../core/duration.js';
import type { Deps } from '../deps.js';

export interface ReportLine {
  row: number;
  subscriberId: string | null;
  transactionId: string | null;
  status: 'sent' | 'failed' | 'skipped';
  error: string | null;
  chunk: number | null;
}

/**
 * The report, written with synchronous writes: a chunk's lines reach the file before the journal says
 * the chunk is done, so a run killed at any point leaves a report that --resume can trust.
 */
export class ReportWriter {
  private fd?: number;
  constructor(path: string | undefined, append: boolean) {
    if (path) this.fd = openSync(path, append ? 'a' : 'w', 0o600);
  }
  write(lines: ReportLine[]): void {
    if (this.fd !== undefined && lines.length) writeSync(this.fd, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export interface Progress {
  update(): void;
  /** The pacer waits for the rate limit (ms > 0), or has stopped waiting (0). */
  waiting(ms: number): void;
  stop(): void;
}

/** Renders the progress line: recipients sent of the total, rate, ETA, and a rate-limit wait. Pure. */
export function progressLine(p: { sent: number; failed: number; total?: number; elapsedMs: number; waitMs: number }, columns = 80): string {
  const width = Math.max(20, Math.min(columns, 200)) - 1;
  const rate = p.elapsedMs > 0 ? (p.sent / p.elapsedMs) * 1000 : 0;
  const done = p.sent + p.failed;
  const total = p.total !== undefined ? Math.max(p.total, done) : undefined;
  const eta = total !== undefined && rate > 0 ? `ETA ${formatDuration(Math.round(((total - done) / rate) * 1000))}` : '';
  const wait = p.waitMs > 0 ? `rate limited, resuming in ${Math.ceil(p.waitMs / 1000)} s` : eta;
  const count = `${p.sent}${total !== undefined ? `/${total}` : ''} sent${p.failed ? ` · ${p.failed} failed` : ''}`;
  const tail = ` ${count} · ${Math.round(rate)}/s${wait ? ` · ${wait}` : ''}`;
  const barWidth = Math.max(0, Math.min(24, width - tail.length - 1));
  let bar = '';
  if (barWidth >= 5 && total) {
    const filled = Math.round((Math.min(done, total) / total) * barWidth);
    bar = `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}`;
  }
  const line = `${bar}${tail}`;
  return line.length > width ? line.slice(0, width) : line;
}

/** A progress line on stderr when it is a terminal, redrawn at most 10 times a second. */
export function startProgress(deps: Deps, counts: { sent: number; failed: number }, total: number | undefined): Progress | undefined {
  if (!deps.io.stderr.isTTY || deps.globals.quiet) return undefined;
  const out = deps.io.stderr as NodeJS.WriteStream;
  const t0 = Date.now();
  let waitUntil = 0;
  let drawn = 0;
  const draw = () => {
    drawn = Date.now();
    const line = progressLine(
      { sent: counts.sent, failed: counts.failed, ...(total !== undefined ? { total } : {}), elapsedMs: drawn - t0, waitMs: Math.max(0, waitUntil - drawn) },
      out.columns || 80,
    );
    out.write(`\r\x1b[2K${line}`);
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  out.write('\x1b[?25l');
  draw();
  return {
    update() {
      if (Date.now() - drawn >= 100) draw();
    },
    waiting(ms) {
      waitUntil = ms > 0 ? Date.now() + ms : 0;
      draw();
    },
    stop() {
      clearInterval(timer);
      out.write('\r\x1b[2K\x1b[?25h');
    },
  };
}

// One `events watch` line for a terminal: the time, the end of the id (events get takes it), workflow,
// subscriber, the overall status and as much of the failure reason as there is room for, never wider
// than the terminal (measured in terminal columns: CJK and emoji take two); --wide shows whole ids and
// the transaction. Service text is made safe (io/safe-text.ts) before it is laid out and coloured.
import type { ChalkInstance } from 'chalk';
import { judge, type JudgeScope, type StatusJob } from '../core/status.js';
import { cut, cutAnsi, padWidth, takeWidthEnd, width as displayWidth } from './fit.js';
import { getPath } from './paths.js';
import { safeText } from './safe-text.js';
import { formatTime } from './time.js';

export interface WatchEvent {
  _id?: string;
  createdAt?: string;
  transactionId?: string;
  subscriber?: { subscriberId?: string };
  template?: { name?: string; triggers?: { identifier?: string }[] };
  jobs?: { status?: string }[];
}

/** `s` cut or padded to exactly `n` terminal columns. */
const fitTo = (s: string, n: number) => padWidth(cut(s, n), n);

export function line(
  e: WatchEvent,
  c: ChalkInstance,
  colour: (c: ChalkInstance, s: string) => string,
  layout: { width: number | undefined; wide: boolean; utc: boolean; scope?: JudgeScope },
): string {
  const workflow = safeText(String(getPath(e, 'template.triggers.0.identifier') ?? e.template?.name ?? '?'));
  const subscriber = safeText(String(e.subscriber?.subscriberId ?? '?'));
  const judged = Array.isArray(e.jobs) ? judge(e.jobs as StatusJob[], layout.scope) : undefined;
  const status = safeText(judged?.status ?? '-');
  const reason = safeText(judged?.reason ?? '');
  const id = safeText(e._id ?? '');
  if (layout.wide) {
    const when = safeText(formatTime(e.createdAt, 'full', { utc: layout.utc }));
    const parts = [c.dim(when), id, padWidth(workflow, 16), padWidth(subscriber, 16), colour(c, padWidth(status, 10)), c.dim(safeText(e.transactionId ?? ''))];
    return `${parts.join('  ')}${reason ? `  ${reason}` : ''}`;
  }
  const width = layout.width!;
  const when = safeText(formatTime(e.createdAt, 'compact', { utc: layout.utc }));
  // The end of the id tells events made in the same second apart; events get accepts it.
  const shortId = width >= 120 ? id : takeWidthEnd(id, 8);
  // Under 100 columns the workflow and subscriber give the reason room (`events get` shows them whole).
  const narrow = width < 100;
  const head = [when, shortId, fitTo(workflow, narrow ? 10 : 14), fitTo(subscriber, narrow ? 10 : 12)];
  const used = head.reduce((n, s) => n + displayWidth(s) + 2, 0) + 9;
  const room = width - used - 2;
  const tail = reason && room >= 8 ? `  ${cut(reason, room)}` : '';
  const text = `${[c.dim(head[0]!), ...head.slice(1), `${colour(c, status)}${tail ? ' '.repeat(Math.max(0, 9 - displayWidth(status))) : ''}`].join('  ')}${tail}`;
  // Never wider than the terminal, whatever the service sent.
  return displayWidth(text) > width ? cutAnsi(text, width) : text;
}

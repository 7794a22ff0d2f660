// A delivered message as a person reads it at a terminal (`messages get`, `messages wait`): who it
// went to and when, then the message as sent (an email's headers and text part, an SMS's text, a
// push's title, body and data), its links, and one line per check that says what exceeded what. The
// record reaching here has been sanitised by the output path; the checks are core/message-checks.ts's.
import type { ChalkInstance } from 'chalk';
import { type Check, type Inspection, inspectMessage } from '../core/message-checks.js';
import type { OutboxMessage } from '../core/message-text.js';
import { formatTime } from './time.js';

type Rec = Record<string, unknown>;

const MARK: Record<Check['level'], (c: ChalkInstance) => string> = {
  ok: (c) => c.green('✓'),
  warning: (c) => c.yellow('!'),
  problem: (c) => c.red('✗'),
};

function checkLines(c: ChalkInstance, checks: Check[]): string[] {
  const width = Math.max(...checks.map((k) => k.check.length), 0);
  return checks.map((k) => `  ${MARK[k.level](c)} ${c.dim(k.check.padEnd(width))}  ${k.text}`);
}

function destination(m: Rec): string {
  if (typeof m.email === 'string') return m.email;
  if (typeof m.phone === 'string') return m.phone;
  const devices = Array.isArray(m.deviceTokens) ? m.deviceTokens.length : 0;
  if (devices > 0) return `${devices} device${devices === 1 ? '' : 's'}`;
  return String((m.subscriber as Rec | undefined)?.subscriberId ?? m._subscriberId ?? '');
}

function sent(c: ChalkInstance, m: Rec, o: Inspection): string[] {
  const body = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');
  switch (o.channel) {
    case 'email': {
      const headers = Object.entries(o.email?.headers ?? {}).map(([k, v]) => `${c.bold(`${k}:`)} ${v}`);
      return [...headers, '', o.email?.text ?? ''];
    }
    case 'sms':
      return [body, c.dim(`${o.sms?.encoding}, ${o.sms?.characters} characters, ${o.sms?.segments} segment${o.sms?.segments === 1 ? '' : 's'}`)];
    case 'push': {
      const data = o.push && Object.keys(o.push.data).length > 0 ? [`${c.bold('data:')} ${JSON.stringify(o.push.data)}`] : [];
      return [`${c.bold('title:')} ${o.push?.title ?? ''}`, `${c.bold('body:')} ${o.push?.body ?? ''}`, ...data];
    }
    default:
      return [...(typeof m.subject === 'string' && m.subject ? [`${c.bold('subject:')} ${m.subject}`] : []), body];
  }
}

export function renderMessage(c: ChalkInstance, m: Rec, layout: { utc: boolean }): string {
  const o = (m.outbox as Inspection | undefined) ?? inspectMessage(m as unknown as OutboxMessage);
  const status = String(m.status ?? '');
  const head = `${c.bold(String(m.channel))} ${m._id ?? ''}  ${status === 'sent' ? c.green(status) : c.red(status)}`;
  const when = typeof m.createdAt === 'string' ? formatTime(m.createdAt, 'full', { utc: layout.utc }) : '';
  const about = [
    `to ${destination(m)}`,
    m.templateIdentifier ? `workflow ${m.templateIdentifier}` : '',
    when,
    m.transactionId ? `transaction ${m.transactionId}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const lines = [head, c.dim(about)];
  if (typeof m.errorText === 'string') lines.push(c.red(m.errorText));
  lines.push('', ...sent(c, m, o));
  const links = o.email?.links ?? o.links ?? [];
  if (links.length > 0) {
    lines.push('', c.bold(`Links (${links.length})`));
    for (const l of links) lines.push(`  ${l.url}${l.text ? c.dim(`  ${l.text}`) : ''}`);
  }
  if (o.checks.length > 0) lines.push('', c.bold('Checks'), ...checkLines(c, o.checks));
  return `${lines.join('\n')}\n`;
}

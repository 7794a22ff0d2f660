import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderFitted, type FitStream, type ListColumn } from '../../src/io/list-table.js';

const c = new Chalk({ level: 0 });
const columns: ListColumn[] = [
  { header: 'ID', value: '_id', kind: 'id' },
  { header: 'CREATED', value: 'createdAt', time: true, dropOrder: 4 },
  { header: 'WORKFLOW', value: 'wf', min: 10 },
  { header: 'SUBSCRIBER', value: 'sub', min: 8 },
  { header: 'STATUS', value: 'status', status: true },
  { header: 'REASON', value: 'reason', flex: true, min: 16 },
  { header: 'TRANSACTION', value: 'tx', full: true, dropOrder: 1 },
];
const rec = (i: number, status: string, reason = '') => ({
  _id: `6b0576${i}1a${i}d94bd2f7aa29${String(i).padStart(2, '0')}`,
  createdAt: '2026-11-24T11:34:41.473Z',
  wf: 'comment-digest',
  sub: 'ada',
  status,
  reason,
  tx: `21f40285-db44-4941-8e46-3def11c2ef${String(i).padStart(2, '0')}`,
});
const records = [rec(1, 'delivered'), rec(2, 'failed', "chat: Subscriber has no chat destination for slack (integration 'slack')"), rec(3, 'merged')];
const NOW = Date.parse('2026-11-24T11:40:00Z');

describe('list tables fitted to the terminal', () => {
  it('80 columns: no line longer, status and reason kept, times in the one display', () => {
    const { text, fit } = renderFitted(c, columns, records, { width: 80, utc: true, now: NOW }, (_c, s) => s);
    for (const l of text.trimEnd().split('\n')) expect(l.length).toBeLessThanOrEqual(80);
    expect(text).toMatch(/STATUS\s+REASON/);
    expect(text).toMatch(/failed\s+chat: Subscriber has/);
    expect(text).toMatch(/11:34:41Z|5m ago/);
    expect(fit.dropped).toContain('TRANSACTION');
  });
  it('--wide shows every column whole', () => {
    const { text } = renderFitted(c, columns, records, { width: 80, wide: true, utc: true, now: NOW }, (_c, s) => s);
    expect(text).toContain('21f40285-db44-4941-8e46-3def11c2ef02');
    expect(text).toContain('2026-11-24 11:34:41Z');
  });
  it('colours only the status word', () => {
    const col = new Chalk({ level: 1 });
    const { text } = renderFitted(col, columns, records, { width: 120, utc: true, now: NOW }, (k, s) => (s === 'failed' ? k.red(s) : s));
    expect(text).toContain('\u001b[31mfailed\u001b[39m');
  });
  it('later pages print no header and keep the layout', () => {
    const stream: FitStream = {};
    const a = renderFitted(c, columns, records, { width: 80, utc: true, now: NOW }, (_c, s) => s, stream);
    const b = renderFitted(c, columns, [rec(4, 'pending')], { width: 80, utc: true, now: NOW }, (_c, s) => s, stream);
    expect(b.text.split('\n')[0]).not.toContain('STATUS');
    expect(b.text.indexOf('pending')).toBe(a.text.split('\n')[1]!.indexOf('delivered'));
  });
});

// The browser's state and layout without a terminal: filters, moving, the list and timeline at 80 columns.
import { describe, expect, it } from 'vitest';
import {
  initialState,
  listLines,
  move,
  parseFilter,
  selectedEvent,
  setFilter,
  timelineLines,
  visibleEvents,
  withEvents,
  type BrowseEvent,
} from '../../src/tui/model.js';
import { wrap } from '../../src/io/fit.js';

const ev = (id: string, workflow: string, subscriber: string, jobs: BrowseEvent['jobs']): BrowseEvent => ({
  _id: id,
  transactionId: `tx-${id}`,
  createdAt: '2026-11-24T11:34:41.473Z',
  template: { triggers: [{ identifier: workflow }] },
  subscriber: { subscriberId: subscriber },
  jobs,
});
const failed = ev('6b057651a5d94bd2f7aa2955', 'incident', 'alan', [
  {
    type: 'chat',
    status: 'failed',
    executionDetails: [
      {
        status: 'Failed',
        detail: "Subscriber has no chat destination for slack (integration 'slack'): a channels[].credentials.webhookUrl or a channel endpoint",
        createdAt: '2026-11-24T11:34:41.533Z',
      },
    ],
  },
]);
const sent = ev('6b0575e8a5d94bd2f7aa2921', 'welcome', 'ada', [{ type: 'email', status: 'completed' }]);
const merged = ev('6b057686a5d94bd2f7aa2967', 'comment-digest', 'ada', [
  { type: 'digest', status: 'merged' },
  { type: 'in_app', status: 'merged' },
]);
const NOW = Date.parse('2026-11-24T11:40:00Z');

describe('events browse model', () => {
  it('filters by status, workflow, subscriber and free words', () => {
    expect(parseFilter('status:failed w:inc ada')).toEqual({ status: 'failed', workflow: 'inc', text: 'ada' });
    let s = withEvents(initialState(), [failed, sent, merged], NOW);
    expect(visibleEvents(setFilter(s, { status: 'failed' })).map((e) => e._id)).toEqual([failed._id]);
    expect(visibleEvents(setFilter(s, { subscriber: 'ada' }))).toHaveLength(2);
    expect(visibleEvents(setFilter(s, { text: 'merged' }))).toEqual([merged]);
    s = setFilter(s, { workflow: 'welcome' });
    expect(selectedEvent(s)).toBe(sent);
  });
  it('keeps the selection on the same event when new ones arrive on top', () => {
    let s = withEvents(initialState(), [failed, sent], NOW);
    s = move(s, 1, 10);
    expect(selectedEvent(s)).toBe(sent);
    s = withEvents(s, [merged, failed, sent], NOW);
    expect(selectedEvent(s)).toBe(sent);
    expect(move(s, 5, 10).cursor).toBe(2);
  });
  it('lists fit 80 columns and keep status and reason', () => {
    const { header, rows } = listLines([failed, sent, merged], 79, { utc: true }, NOW);
    for (const l of [header, ...rows]) expect(l.length).toBeLessThanOrEqual(79);
    expect(header).toMatch(/STATUS\s+REASON/);
    expect(rows[0]).toMatch(/failed\s+chat: Subscriber has no chat/);
    expect(rows[2]).toMatch(/merged/);
  });
  it('timeline lines fit and wrapped details stay indented', () => {
    const lines = timelineLines(failed, 79, { utc: true });
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(79);
    const i = lines.findIndex((l) => l.includes('Failed   Subscriber has no chat'));
    expect(i).toBeGreaterThan(0);
    expect(lines[i + 1]).toMatch(/^ {20,}\S/);
    expect(lines.join('\n')).toContain('11:34:41Z');
  });
  it('the timeline says the failure once: where it failed at the top, the message at its step', () => {
    const text = timelineLines(failed, 79, { utc: true }).join('\n');
    expect(text.split('Subscriber has no chat').length - 1).toBe(1);
    expect(text).toMatch(/✗ failed at step \d+ \(chat\)/);
  });
  it('wraps at word boundaries, never past the width', () => {
    expect(wrap('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrap('x'.repeat(25), 10, 2).every((l) => l.length <= 10)).toBe(true);
    expect(wrap('   lead', 20)).toEqual(['   lead']);
  });
});

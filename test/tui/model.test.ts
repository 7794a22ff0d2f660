// The browser's state and layout without a terminal: filters, moving, the list and timeline at 80 columns.
import { describe, expect, it } from 'vitest';
import {
  countText,
  initialState,
  listFit,
  withPage,
  wantsMore,
  listLines,
  move,
  parseFilter,
  selectedEvent,
  serviceFilter,
  serviceKey,
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
    // The subscriber is the service's filter: the list starts again from the service's first page.
    const reloaded = setFilter(s, { subscriber: 'ada' });
    expect(reloaded.events).toEqual([]);
    expect(reloaded.loading).toBe(true);
    expect(visibleEvents(setFilter(s, { text: 'merged' }))).toEqual([merged]);
    s = withEvents(setFilter(s, { workflow: 'welcome' }), [sent], NOW);
    expect(selectedEvent(s)).toBe(sent);
  });
  it('where svc dev filters by status, a status is asked of the service (a reload), not narrowed locally', () => {
    const s = withEvents(initialState({}, { statusByService: true }), [failed, sent, merged], NOW);
    const f = setFilter(s, { status: 'failed,partial' });
    expect(f.events).toEqual([]);
    expect(f.loading).toBe(true);
    expect(serviceFilter({ status: 'Failed,partial', subscriber: 'ada' }, true)).toEqual({ subscriber: 'ada', status: ['failed', 'partial'] });
    // Elsewhere the feed has no such parameter: the status narrows what is loaded.
    expect(serviceFilter({ status: 'failed' })).toEqual({});
    expect(serviceKey({ status: 'failed' })).toBe(serviceKey({}));
    expect(countText(withEvents(setFilter(initialState(), { status: 'failed' }), [failed, sent], NOW))).toBe('1 of 2 events');
  });
  it('an email skipped beside a delivered in-app is partial in the list and the timeline, with why; --channel judges that channel', () => {
    const partial = ev('6b0575e8a5d94bd2f7aa2930', 'welcome', 'alan', [
      { type: 'in_app', status: 'completed', executionDetails: [{ status: 'Success', detail: 'Message sent' }] },
      {
        type: 'email',
        status: 'skipped',
        executionDetails: [{ status: 'Warning', detail: 'Step filtered by subscriber preferences: the subscriber turned the email channel off' }],
      },
    ]);
    const { rows, statuses } = listLines([partial], 80, { utc: true }, NOW);
    expect(statuses).toEqual(['partial']);
    expect(rows[0]).toMatch(/partial +email skipped: Step filtered/);
    const t = timelineLines(partial, 80, { utc: true });
    expect(t[0]).toBe('welcome → alan  partial');
    expect(t[1]).toMatch(/^why: email skipped: Step filtered by subscriber preferences/);
    expect(t).toContain('channels: in_app delivered, email skipped');
    expect(listLines([partial], 80, { utc: true }, NOW, undefined, { channels: ['email'] }).statuses).toEqual(['skipped']);
    expect(visibleEvents(setFilter(withEvents(initialState(), [partial, sent], NOW), { status: 'delivered' })).map((e) => e._id)).toEqual([sent._id]);
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
    // The id stays beside a long reason: it is what `events get` takes.
    expect(header).toMatch(/^\S.*\bID\b/);
    expect(rows[0]).toContain(failed._id!.slice(-8));
    expect(rows[0]).toMatch(/failed\s+chat: Subscriber has/);
    expect(rows[2]).toMatch(/merged/);
  });
  it('one very long subscriber id is cut, not the id and reason of every row', () => {
    const long = ev('6b057651a5d94bd2f7aa2999', 'comment-digest', `long-${'x'.repeat(290)}`, failed.jobs);
    const { header, rows } = listLines([failed, sent, merged, long], 79, { utc: true }, NOW);
    for (const l of [header, ...rows]) expect(l.length).toBeLessThanOrEqual(79);
    expect(header).toMatch(/\bID\b.*SUBSCRIBER.*STATUS\s+REASON/);
    expect(rows[3]).toContain(long._id!.slice(-8));
    expect(rows[3]).toMatch(/long-x+…\s+failed\s+chat: Subscriber/);
    expect(rows[0]).toMatch(/failed\s+chat: Subscriber/);
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
  it('pages on: later pages add older events once each, the header counts what the service said', () => {
    const many = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        ev(`6b0576${String(from + i).padStart(18, '0')}`, 'welcome', `u${from + i}`, [{ type: 'email', status: 'completed' }]),
      );
    let s = withPage(initialState(), 0, many(0, 50), true, NOW);
    expect(countText(s)).toBe('50+ events');
    // Far from the end: nothing more yet; near the end: the next page.
    expect(wantsMore(s, 19)).toBe(false);
    s = move(s, 20, 19);
    expect(wantsMore(s, 19)).toBe(true);
    // Page 1 repeats two events page 0 had (new ones arrived meanwhile): kept once.
    s = withPage(s, 1, many(48, 30), false, NOW);
    expect(s.events).toHaveLength(78);
    expect(countText(s)).toBe('78 events');
    expect(wantsMore(s, 19)).toBe(false);
    // A status narrows what was loaded and says of how many.
    s = setFilter(s, { status: 'failed' });
    expect(countText(s)).toBe('0 of 78 events');
  });
  it('a narrowed list that does not fill the screen loads on, within a bound', () => {
    let s = setFilter(
      withPage(
        initialState(),
        0,
        [sent, sent, sent].map((e, i) => ({ ...e, _id: `${e._id}${i}` })),
        true,
        NOW,
      ),
      { status: 'failed' },
    );
    expect(wantsMore(s, 19)).toBe(true);
    for (let p = 1; p <= 40; p++) s = withPage(s, p, [], true, NOW);
    expect(wantsMore(s, 19)).toBe(false);
    // Moving on asks again.
    expect(wantsMore(move(s, 1, 19), 19)).toBe(true);
  });
  it('columns keep their widths as rows scroll: every row as wide as the header, whatever the page', () => {
    const long = ev('6b057651a5d94bd2f7aa2999', 'a-very-long-workflow-identifier', 'subscriber-with-a-long-id', [{ type: 'email', status: 'completed' }]);
    const all = [sent, failed, merged, long];
    const fit = listFit(all, 79, { utc: true }, NOW);
    const one = listLines([sent], 79, { utc: true }, NOW, fit);
    const other = listLines([long], 79, { utc: true }, NOW, fit);
    expect(one.header).toBe(other.header);
    const statusAt = (l: string, ref: string) => l.indexOf(ref);
    expect(statusAt(one.rows[0]!, 'delivered')).toBe(statusAt(other.rows[0]!, 'delivered'));
  });
  it('CJK, emoji and combining marks: no line wider than the terminal, no cut inside a character', async () => {
    const { default: stringWidth } = await import('string-width');
    const wide = ev('6b057651a5d94bd2f7aa2998', '欢迎邮件工作流程通知', '👩‍👩‍👧‍👦家族-e\u0301\u0301', [
      {
        type: 'email',
        status: 'failed',
        executionDetails: [{ status: 'Failed', detail: '送信に失敗しました：受信者のメールアドレスが無効です 🚫🚫🚫', createdAt: '2026-11-24T11:34:41.533Z' }],
      },
    ]);
    const { header, rows } = listLines([wide, sent, failed], 79, { utc: true }, NOW);
    for (const l of [header, ...rows]) {
      expect(stringWidth(l)).toBeLessThanOrEqual(79);
      expect(l).not.toContain('\ufffd');
      expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(l)).toBe(false);
    }
    for (const l of timelineLines(wide, 40, { utc: true })) expect(stringWidth(l)).toBeLessThanOrEqual(40);
  });
});

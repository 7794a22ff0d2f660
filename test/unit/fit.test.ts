import { describe, expect, it } from 'vitest';
import stringWidthOf from 'string-width';
import { cutAnsi, fitMore, fitTable, layout, shortIdForm, shortIds, type FitColumn } from '../../src/io/fit.js';

const columns: FitColumn[] = [
  { header: 'ID', kind: 'id' },
  { header: 'CREATED', dropOrder: 3 },
  { header: 'WORKFLOW', min: 10 },
  { header: 'SUBSCRIBER', min: 8 },
  { header: 'CHANNELS', dropOrder: 2 },
  { header: 'STATUS', kind: 'status' },
  { header: 'REASON', flex: true },
  { header: 'TRANSACTION', kind: 'id', dropOrder: 1 },
];
const row = (i: number, status: string, reason = '') => [
  `6b0576${i}1a${i}d94bd2f7aa29${String(i).padStart(2, '0')}`,
  ['2026-11-24 12:34:41+01:00', '12:34:41+01:00', '5m ago'],
  'comment-digest',
  'ada',
  'digest, in_app',
  status,
  reason,
  `21f40285-db44-4941-8e46-3def11c2ef${String(i).padStart(2, '0')}`,
];
const cells = [row(1, 'delivered'), row(2, 'failed', 'chat: Subscriber has no chat destination for slack (integration slack)'), row(3, 'merged')];

describe('fitting a table to the terminal', () => {
  it('fits 80 columns, keeps status and reason, shortens ids like git', () => {
    const fit = fitTable(columns, cells, 80);
    const lines = layout(fit, 80);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(fit.headers).toContain('STATUS');
    expect(fit.headers).toContain('REASON');
    expect(fit.dropped).toContain('TRANSACTION');
    // An ObjectId is shortened to its end: its start is the second it was made in, shared by other ids.
    expect(fit.rows[0]![0]).toBe('6b057611a1d94bd2f7aa2901'.slice(-8));

    expect(fit.rows[1]!.join(' ')).toMatch(/chat: Subscriber/);
    expect(fit.shortened).toBe(true);
  });
  it('a text column with a max is cut, when the table does not fit, no further than needed and not below its max, before any column is dropped', () => {
    const cols: FitColumn[] = [{ header: 'A' }, { header: 'NAME', max: 10 }, { header: 'B', dropOrder: 1 }];
    const cells = [['aaaa', 'n'.repeat(30), 'bbbb']];
    // Over by 2: cut by 2 only.
    const near = fitTable(cols, cells, 4 + 2 + 28 + 2 + 4);
    expect(near.widths).toEqual([4, 28, 4]);
    expect(near.dropped).toEqual([]);
    // Far over: cut to its max, B kept.
    const far = fitTable(cols, cells, 4 + 2 + 10 + 2 + 4);
    expect(far.widths).toEqual([4, 10, 4]);
    expect(far.dropped).toEqual([]);
  });
  it('--wide shows every column whole', () => {
    const fit = fitTable(columns, cells, 80, true);
    expect(fit.headers).toHaveLength(columns.length);
    expect(fit.rows[1]).toContain('21f40285-db44-4941-8e46-3def11c2ef02');
    expect(fit.rows[1]).toContain('2026-11-24 12:34:41+01:00');
  });
  it('a wide terminal needs no change', () => {
    const fit = fitTable(columns, cells, 250);
    expect(fit.dropped).toEqual([]);
    expect(fit.shortened).toBe(false);
  });
  it('at 40 columns every line still fits', () => {
    const lines = layout(fitTable(columns, cells, 40), 40);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });
  it('a key column (an id the next command needs) is never shortened: text is cut instead', () => {
    const cols: FitColumn[] = [{ header: 'ID', kind: 'key' }, { header: 'NAME' }, { header: 'CHANNEL' }];
    const fit = fitTable(cols, [['6b05748aa5d94bd2f7aa2912', 'Firebase Cloud Messaging for the mobile apps', 'push']], 50);
    expect(fit.rows[0]![0]).toBe('6b05748aa5d94bd2f7aa2912');
    expect(fit.rows[0]![1]).toMatch(/…$/);
    expect(layout(fit, 50).every((l) => l.length <= 50)).toBe(true);
  });
  it('a key wider than half the terminal is cut with `…` rather than leave the other columns a lone `…`', () => {
    const cols: FitColumn[] = [{ header: 'SUBSCRIBER ID', kind: 'key' }, { header: 'NAME' }, { header: 'EMAIL', min: 12 }, { header: 'ONLINE', dropOrder: 1 }];
    const long = `very-long-subscriber-identifier-${'x'.repeat(60)}`;
    const fit = fitTable(
      cols,
      [
        [long, 'Ada Lovelace', 'ada@example.com', 'true'],
        ['grace', 'Grace Hopper', 'grace@example.com', 'false'],
      ],
      80,
    );
    const lines = layout(fit, 80);
    expect(fit.headers).toEqual(['SUBSCRIBER ID', 'NAME', 'EMAIL']);
    expect(fit.rows[0]![0]).toMatch(/^very-long-subscriber-identifier-x+…$/);
    expect(fit.rows[0]!.slice(1)).toEqual(['Ada Lovelace', 'ada@example.com']);
    expect(fit.rows[1]![0]).toBe('grace');
    expect(fit.shortened).toBe(true);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(layout(fitTable(cols, [[long, 'Ada Lovelace', 'ada@example.com', 'true']], 80, true), 80, true)[1]).toContain(long);
  });
  it('a key longer than the terminal is cut with a mark, not silently; --wide keeps it whole', () => {
    const key = `topic-${'k'.repeat(89)}`;
    const fit = fitTable(
      [
        { header: 'KEY', kind: 'key' },
        { header: 'NAME', dropOrder: 1 },
      ],
      [[key, 'Name']],
      80,
    );
    const [, row] = layout(fit, 80);
    expect(row!.length).toBe(80);
    expect(row!.endsWith('…')).toBe(true);
    expect(layout(fitTable([{ header: 'KEY', kind: 'key' }], [[key]], 80, true), 80, true)[1]).toContain(key);
  });
  it('a line of columns that cannot be cut further (statuses, keys at 12) is cut at the terminal with a mark', () => {
    const cols: FitColumn[] = [
      { header: 'A', kind: 'key' },
      { header: 'B', kind: 'key' },
      { header: 'STATUS', kind: 'status' },
    ];
    const fit = fitTable(cols, [['aaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbb', 'completed-with-warnings']], 30);
    expect(fit.widths.slice(0, 2)).toEqual([12, 12]);
    const [, row] = layout(fit, 30);
    expect(row!.length).toBe(30);
    expect(row!.endsWith('…')).toBe(true);
  });
  it('later pages cut a key the first page cut, to the same width', () => {
    const cols: FitColumn[] = [{ header: 'SUBSCRIBER ID', kind: 'key' }, { header: 'NAME' }];
    const first = fitTable(cols, [[`long-${'x'.repeat(90)}`, 'Ada']], 60);
    expect(first.keyCut).toEqual([true, false]);
    const more = fitMore(cols, [[`longer-${'y'.repeat(95)}`, 'Grace']], first);
    expect(more.rows[0]![0]).toMatch(/^longer-y+…$/);
    expect(more.rows[0]![1]).toBe('Grace');
    for (const l of layout(more, 60)) expect(l.length).toBeLessThanOrEqual(60);
    // A first page that did not cut its keys leaves later ones whole.
    const whole = fitTable(cols, [['ada', 'Ada']], 60);
    expect(fitMore(cols, [[`z${'z'.repeat(70)}`, 'Z']], whole).rows[0]![0]).toBe(`z${'z'.repeat(70)}`);
  });
  it('short ids: the shortest unique prefix, at least 7', () => {
    expect(shortIds(['abcdef0123', 'abcdef0199'])).toEqual(['abcdef01', 'abcdef01'].map((_, i) => ['abcdef0123', 'abcdef0199'][i]!.slice(0, 9)));
    expect(shortIds(['1234567890', 'abcdefghij'])).toEqual(['1234567', 'abcdefg']);
  });
  it('short ids: a lone ObjectId, or ObjectIds of different seconds, keep their end, not the timestamp they start with', () => {
    // A prefix that tells one row apart is the creation second, which other events share.
    expect(shortIdForm(['6b08557b82de279871df1aa8'])).toEqual({ ids: ['71df1aa8'], from: 'end' });
    expect(shortIdForm(['6b08557b82de279871df1aa8', '6b09000082de279871df1ab9']).ids).toEqual(['71df1aa8', '71df1ab9']);
  });
  it('short ids: ObjectIds made in the same second (one prefix, a counter at the end) keep their last 8', () => {
    const ids = ['6b06f27682de279871df1aa8', '6b06f27682de279871df1aac', '6b06f27782de279871df1ab5'];
    expect(shortIdForm(ids)).toEqual({ ids: ['71df1aa8', '71df1aac', '71df1ab5'], from: 'end' });
    const fit = fitTable(
      [{ header: 'ID', kind: 'id' }, { header: 'X' }],
      ids.map((id) => [id, 'x'.repeat(60)]),
      80,
    );
    expect(fit.rows.map((r) => r[0])).toEqual(['71df1aa8', '71df1aac', '71df1ab5']);
    // Later pages (--all) keep the same end of each id.
    expect(fitMore([{ header: 'ID', kind: 'id' }, { header: 'X' }], [['6b06f27782de279871df1b00', 'x']], fit).rows[0]![0]).toBe('71df1b00');
  });
  it('cuts coloured lines by what is visible', () => {
    expect(cutAnsi('\u001b[31mfailed\u001b[39m and more', 4)).toBe('\u001b[31mfail\u001b[0m');
  });
});

describe('later pages of --all', () => {
  it('keep the first page’s columns, forms and widths', async () => {
    const { fitMore } = await import('../../src/io/fit.js');
    const first = fitTable(columns, cells, 80);
    const more = fitMore(columns, [row(7, 'failed', 'sms: Subscriber does not have a phone number at all, none')], first);
    expect(more.rows[0]).toHaveLength(first.shown.length);
    const lines = layout(more, 80);
    expect(lines[1]!.length).toBeLessThanOrEqual(80);
    expect(more.rows[0]![0]).toHaveLength(first.rows[0]![0]!.length);
  });
});

describe('terminal columns, not UTF-16 code units', () => {
  it('measures CJK and emoji as two, a combining mark as none', async () => {
    const { width, takeWidth, cut } = await import('../../src/io/fit.js');
    expect(width('山田')).toBe(4);
    expect(width('👩‍👩‍👧‍👦')).toBe(2);
    expect(width('e\u0301')).toBe(1);
    expect(width('\u001b[31mab\u001b[0m')).toBe(2);
    // Cuts fall between graphemes: never half a surrogate pair, a ZWJ family or an accent.
    expect(takeWidth('ab👩‍👩‍👧‍👦cd', 3)).toBe('ab');
    expect(takeWidth('ab👩‍👩‍👧‍👦cd', 4)).toBe('ab👩‍👩‍👧‍👦');
    expect(takeWidth('山田太郎', 3)).toBe('山');
    expect(takeWidth('Jose\u0301', 4)).toBe('Jose\u0301');
    expect(cut('日本語の名前', 7)).toBe('日本語…');
    expect(width(cut('日本語の名前', 7))).toBeLessThanOrEqual(7);
  });
  it('a table of wide names fits 80 columns with every row as wide as its header', () => {
    const cols: FitColumn[] = [{ header: 'ID', kind: 'key' }, { header: 'NAME' }, { header: 'CITY', dropOrder: 1 }, { header: 'NOTE', flex: true }];
    const rows = [
      ['山田太郎', '日本語の名前です長い長い名前', '東京都', '🏳️‍🌈 '.repeat(30)],
      ['family-👩‍👩‍👧‍👦', 'Zoë 👩🏽‍💻 Ng', '서울특별시 강남구', 'José\u0301 '.repeat(20)],
      ['ada', 'Ada Lovelace', 'London', 'ok'],
    ];
    const fit = fitTable(cols, rows, 80);
    const lines = layout(fit, 80);
    for (const l of lines) expect(stringWidthOf(l)).toBeLessThanOrEqual(80);
    // Every column but the last padded to its width on every line: the columns line up.
    const fixed = fit.widths.slice(0, -1).reduce((a, w) => a + w + 2, 0);
    fit.rows.forEach((r, i) => {
      for (const [k, c] of r.slice(0, -1).entries()) expect(stringWidthOf(c)).toBeLessThanOrEqual(fit.widths[k]!);
      const line = lines[i + 1]!;
      expect(stringWidthOf(line)).toBe(Math.min(80, fixed + stringWidthOf(r.at(-1)!)));
    });
    expect(lines.join('\n')).not.toMatch(/\ufffd/);
  });
});

// Wide and combined characters in a real 80-column terminal (tmux): CJK names, emoji (ZWJ sequences,
// skin tones), combining marks. Every line the built binary writes is at most 80 terminal columns
// (measured as the Unicode width tables say, with string-width), no line is wrapped by the terminal,
// and every row of a table keeps its columns where the header puts them (the two spaces between
// columns stay spaces). No cut splits a surrogate pair or a ZWJ sequence (no U+FFFD, no lone surrogate).
import { afterAll, beforeAll, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { api, BIN, startDev, type DevProcess } from '../helpers/dev.js';
import { openTerminal, tmux } from '../helpers/tmux.js';

let dev: DevProcess;
const env = () => ({ SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey, SVC_CONFIG_DIR: dev.configDir, TZ: 'UTC', NO_COLOR: '1' });
const NAMES = [
  ['山田太郎', '日本語の名前です長い長い名前', '東京都'],
  ['family-👩‍👩‍👧‍👦', 'Zoë 👩🏽‍💻 Ng', '🏳️‍🌈 Pride 🇯🇵'],
  ['jose\u0301', 'José\u0301 Mari\u0301a Nu\u0303n\u0303ez', 'Ærøskøbing'],
  ['한국어', '김민준 박서연 이지우 최하은', '서울특별시 강남구'],
];
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** A line as terminal cells: each grapheme takes its width, a wide one a second (empty) cell. */
function cells(line: string): string[] {
  const out: string[] = [];
  for (const { segment } of graphemes.segment(line)) {
    const w = stringWidth(segment);
    out.push(segment);
    for (let i = 1; i < w; i++) out.push('');
  }
  return out;
}

/** The columns where the header's words start (after two spaces). */
function starts(header: string): number[] {
  const c = cells(header);
  const at: number[] = [];
  for (let i = 2; i < c.length; i++) if (c[i] !== ' ' && c[i - 1] === ' ' && c[i - 2] === ' ') at.push(i);
  return at;
}

function expectTable(what: string, lines: string[]) {
  const header = lines.findIndex((l) => /^[A-Z][A-Z ]+[A-Z]$/.test(l.trim()) && l.includes('  '));
  expect(header, `${what}: a header`).toBeGreaterThanOrEqual(0);
  const cols = starts(lines[header]!);
  const rows = lines.slice(header + 1).filter((l) => l.trim() && !/^(page \d|\d+ records?|\(|EXIT=)/.test(l));
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const c = cells(row);
    // The gap before every column is blank: no value ran into the next column.
    for (const p of cols) if (p < c.length) expect(`${c[p - 2] ?? ' '}${c[p - 1] ?? ' '}`, `${what}: "${row}" at column ${p}`).toBe('  ');
  }
}

beforeAll(async () => {
  dev = await startDev();
  for (const [id, name, city] of NAMES) {
    const [firstName, ...rest] = name!.split(' ');
    await api(dev, 'POST', '/v2/subscribers', {
      subscriberId: id,
      firstName,
      lastName: rest.join(' '),
      email: `${encodeURIComponent(id!).slice(0, 8).replace(/%/g, '')}@example.com`,
      data: { city },
    });
    await api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to: id, payload: { city } });
  }
  // Deliveries are asynchronous: wait until each subscriber has a message (20 s at most).
  const deadline = Date.now() + 20_000;
  for (const [id] of NAMES) {
    while ((await api(dev, 'GET', `/v1/messages?limit=1&subscriberId=${encodeURIComponent(id!)}`)).body.data.length === 0) {
      if (Date.now() > deadline) throw new Error(`no message for ${id} within 20 s of the triggers`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
afterAll(async () => {
  await dev?.stop();
});

tmux.describe('CJK, emoji and combining marks at 80 columns', () => {
  for (const argv of [
    ['subscribers', 'search', '--limit', '20'],
    ['events', 'list'],
    ['messages', 'list', '--limit', '20'],
    ['subscribers', 'get', '山田太郎'],
    ['events', 'get', '<event of 山田太郎>'],
  ]) {
    it(`svc ${argv.join(' ')}`, async () => {
      if (argv[2]?.startsWith('<')) {
        const list = await api(dev, 'GET', `/v1/notifications?subscriberIds=${encodeURIComponent('山田太郎')}`);
        argv[2] = (list.body.data as { _id: string }[])[0]!._id;
      }
      const screen = openTerminal([process.execPath, BIN, ...argv], env(), { columns: 80, rows: 40, raw: true });
      try {
        await screen.waitFor('EXIT=0');
        // The raw copy is written by another process (tmux pipe-pane): wait until it has the end too.
        await expect.poll(() => screen.raw()).toContain('EXIT=0');
        const written = screen
          .raw()
          .replace(/\r\n/g, '\n')
          .split('\n')
          .filter((l) => !l.startsWith('EXIT='));
        expect(written.join('\n')).not.toMatch(/\ufffd|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        for (const l of written) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
        // What the terminal shows: no line it had to wrap (tmux joins wrapped lines back with -J).
        for (const l of screen.joined()) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
        if (argv[1] !== 'get') expectTable(argv.join(' '), written);
        else expect(written.join('\n')).toContain('山田太郎');
      } finally {
        screen.close();
      }
    });
  }

  it('events browse: the list and the timeline within 79 columns', async () => {
    const screen = openTerminal([process.execPath, BIN, 'events', 'browse', '--interval', '60s'], env(), { raw: true });
    try {
      await screen.waitFor(/svc events browse +\d+ events/);
      const list = screen.lines();
      for (const l of list) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
      expect(list.join('\n')).toMatch(/山田太郎/);
      expectTable('browse', list.slice(1, 2 + NAMES.length + 1));
      screen.keys('Enter');
      await screen.waitFor(/Timeline of [0-9a-f]{24}\n/);
      for (const l of screen.joined()) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
      screen.keys('q');
      await screen.waitFor('EXIT=0');
      await expect.poll(() => screen.raw()).toContain('EXIT=0');
      expect(screen.raw()).not.toMatch(/\ufffd/);
    } finally {
      screen.close();
    }
  });
});

// `svc events browse` on a service with more events than one screen or one page holds, in a real
// 80×24 terminal (tmux): the subscriber filter asks the service (ada's 7 events are older than the
// newest 100 and all are found), the list pages on as the cursor goes down and the header counts what
// the service said; the keys: Esc clears a filter and never quits, n at the re-trigger question stays
// in the timeline, ? shows the keys, the columns keep their widths as the rows scroll; and what it shows
// is masked as every other output is.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, BIN, startDev, type DevProcess } from '../helpers/dev.js';
import { svcBin } from '../helpers/bin.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';

let dev: DevProcess;
const env = () => ({ SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey, SVC_CONFIG_DIR: dev.configDir, TZ: 'UTC' });
const trigger = (to: string) => api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to, payload: {} });
// More events than `events get` looks through (the newest 500) and than browse remembers (200 ids).
const OTHERS = 830;
const ALL = 7 + OTHERS + 1;

beforeAll(async () => {
  dev = await startDev();
  // ada's events first (the oldest), then many for others, then one to a subscriber whose id is the key.
  for (let i = 0; i < 7; i++) await trigger('ada');
  for (let i = 0; i < OTHERS; i += 100) {
    const events = Array.from({ length: Math.min(100, OTHERS - i) }, (_, k) => ({ name: 'welcome', to: `user-${i + k}`, payload: {} }));
    expect((await api(dev, 'POST', '/v1/events/trigger/bulk', { events })).status).toBe(201);
  }
  await trigger(dev.apiKey);
  const last = Math.floor((ALL - 1) / 50);
  for (let i = 0; i < 300; i++) {
    const r = await api(dev, 'GET', `/v1/notifications?limit=50&page=${last}`);
    if ((r.body.data as unknown[]).length >= ALL - last * 50) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);
afterAll(async () => {
  await dev?.stop();
});

tmux.describe('events browse at scale, key by key (80×24)', () => {
  let screen: Terminal;
  afterAll(() => screen?.close());

  it('counts what the service says: 50+ while it has more', async () => {
    screen = openTerminal([process.execPath, BIN, 'events', 'browse', '--interval', '60s'], env());
    await screen.waitFor(/svc events browse +\d+\+ events/);
    for (const l of screen.joined()) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('the columns keep their widths as rows scroll; the list pages on to the end', async () => {
    const header = screen.lines()[1];
    const statusAt = screen.lines()[1]!.indexOf('STATUS');
    const rows = screen.lines().slice(2).join('\n');
    screen.keys('PageDown');
    // The page has moved once the rows below the header are others.
    await screen.waitFor(
      (s) =>
        s
          .split('\n')
          .slice(2, 24)
          .map((l) => l.trimEnd())
          .join('\n') !== rows,
    );
    expect(screen.lines()[1]).toBe(header);
    // The rows below the header: each status where the header says.
    for (const l of screen.lines().slice(2, 20)) if (l.trim()) expect(l.slice(statusAt)).toMatch(/^(delivered|failed|pending|completed)/);
    // To the end: every page loaded, and the count is the service's, exact once it has no more.
    // G again until the last page has come: a page that lands after a G leaves the cursor short of
    // the rows that ask for the next one.
    const all = `svc events browse  ${ALL} events`;
    const deadline = Date.now() + 20_000;
    while (!screen.lines()[0]?.includes(all) && Date.now() < deadline) {
      screen.keys('G');
      await new Promise((r) => setTimeout(r, 400));
    }
    await screen.waitFor(all);
    for (const l of screen.lines()) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('a lone word that matches no loaded event: the line suggests asking the service for it as a subscriber id', { timeout: 60_000 }, async () => {
    screen.keys('/');
    screen.keys('C-u');
    screen.type('nobody-x');
    screen.keys('Enter');
    await screen.waitFor('no loaded event matches nobody-x; a subscriber id? try /subscriber:nobody-x', 30_000);
    for (const l of screen.lines()) expect(l.length).toBeLessThanOrEqual(80);
    // svc dev filters by status over the whole feed: a word beside a status that no event it brought
    // has is offered as a subscriber id to ask the service for.
    screen.keys('/');
    screen.keys('C-u');
    screen.type('status:delivered user-5');
    screen.keys('Enter');
    await screen.waitFor('no loaded event matches user-5; a subscriber id? try /subscriber:user-5', 30_000);
    // A word that matches what the status brought: those rows, no hint.
    screen.keys('/');
    screen.keys('C-u');
    screen.type('status:delivered ada');
    screen.keys('Enter');
    await screen.waitFor(/svc events browse +7 of 7 events +\[status:delivered ada\]/, 30_000);
    expect(screen.text()).not.toContain('a subscriber id?');
  });

  it('/subscriber:ada asks the service: all 7 of hers, though they are older than the newest 100', async () => {
    screen.keys('/');
    screen.keys('C-u');
    screen.type('subscriber:ada');
    screen.keys('Enter');
    await screen.waitFor('svc events browse  7 events  [subscriber:ada]');
    expect(
      screen
        .lines()
        .slice(2)
        .filter((l) => /\bada\b/.test(l)),
    ).toHaveLength(7);
  });

  it('Esc clears the filter and does not quit; on an unfiltered list it says q quits', async () => {
    screen.keys('Escape');
    await screen.waitFor((s) => /svc events browse +\d+\+? events +updated/.test(s) && !s.includes('[subscriber:ada]'));
    screen.keys('Escape');
    await screen.waitFor('q quits; ? shows the keys');
    expect(screen.text()).not.toContain('EXIT=');
    // The hint answers that Esc; the next key takes it away.
    screen.keys('j');
    await screen.waitFor((s) => !s.includes('q quits; ? shows the keys'));
    screen.keys('k');
  });

  it('? shows the keys; any key closes the help', async () => {
    screen.keys('?');
    const help = await screen.waitFor('svc events browse: keys');
    expect(help).toMatch(/Esc +clear the filter/);
    expect(help).toMatch(/q +quit/);
    for (const l of screen.lines()) expect(l.length).toBeLessThanOrEqual(80);
    screen.keys('x');
    await screen.waitFor(/svc events browse +\d+\+? events/);
  });

  it('n at the re-trigger question stays in the timeline, where it was', async () => {
    screen.keys('g', 'Enter');
    await screen.waitFor(/Timeline of [0-9a-f]{24}\n/);
    screen.keys('r');
    await screen.waitFor('with the same payload? y/n');
    screen.keys('n');
    const after = await screen.waitFor('not re-triggered');
    expect(after).toMatch(/Timeline of [0-9a-f]{24}\n/);
    screen.keys('Escape');
    await screen.waitFor(/svc events browse +\d+\+? events/);
  });

  it('masks secrets as every other output does: the key in use never shows', async () => {
    // The newest event went to a subscriber whose id is the API key.
    screen.keys('g', 'Enter');
    const shown = await screen.waitFor(/welcome → \S+/);
    expect(shown).not.toContain(dev.apiKey);
    expect(shown).toMatch(/welcome → [a-z]{1,4}[_-]?…[0-9A-Za-z]{4}/);
    screen.keys('q');
    await screen.waitFor('EXIT=0');
  });

  it('an id shown on the screen resolves in events get, though older than the newest 500 and 200 more were loaded after it', async () => {
    const mine = openTerminal([process.execPath, BIN, 'events', 'browse', '--interval', '60s'], env());
    const pressG = async (until: (title: string) => boolean) => {
      const deadline = Date.now() + 30_000;
      while (!until(mine.lines()[0] ?? '') && Date.now() < deadline) {
        mine.keys('G');
        await new Promise((r) => setTimeout(r, 400));
      }
    };
    const loaded = (title: string) => Number(/browse +(\d+)\+? events/.exec(title)?.[1] ?? 0);
    try {
      await mine.waitFor(/svc events browse +\d+\+ events/);
      // Down past the newest 500: the cursor's row, on the screen, is older than what events get looks through.
      await pressG((t) => loaded(t) >= 600);
      const row = mine
        .lines()
        .filter((l) => /^\S+ ago +[0-9a-f]{8} /.test(l.trim()))
        .at(-1)!;
      const short = row.trim().split(/\s+/)[2]!;
      expect(short).toMatch(/^[0-9a-f]{8}$/);
      // Then every older page: 238 more ids loaded after it was shown.
      await pressG((t) => t.includes(`svc events browse  ${ALL} events`));
      await mine.waitFor(`svc events browse  ${ALL} events`);
      mine.keys('q');
      await mine.waitFor('EXIT=0');
      // Through the suite's spawner, so its output is audited for secrets like every other.
      const got = await svcBin(['events', 'get', short, '-o', 'json'], { env: env() });
      expect(got.exitCode, String(got.stderr)).toBe(0);
      expect(JSON.parse(String(got.stdout))._id.endsWith(short)).toBe(true);
    } finally {
      mine.close();
    }
  });
});

// What a person at a terminal meets, in a real 80×24 terminal (tmux) with the built binary and the
// local service: svc login offers the local profile's real address and asks again after a rejected
// key; profile remove asks before deleting. And hostile text: a subscriber, a workflow and a payload
// holding terminal escape sequences go through every output path and format, and no control byte a
// terminal would act on reaches stdout or stderr (only our own colour, when colour is on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { api, BIN, startDev, type DevProcess } from '../helpers/dev.js';
import { svcBin } from '../helpers/bin.js';
import { openTerminal, tmux } from '../helpers/tmux.js';

let dev: DevProcess;

/**
 * Escape sequences a hostile name or payload could hold: an OSC window title, CSI colour and
 * clear-screen, a C1 CSI, a bidi override, DEL, NUL, a lone CR, BEL, an isolate. Each is followed by a
 * marker word, to find it in what the terminal received.
 */
const CORPUS = 'Eve\u001b]0;PWNED\u0007\u001b[31mred\u001b[2Jwipe\u009bcsi\u202eevil\u2066iso\u007fdel\u0000nul\rcr\u0008bs';
/** What a terminal would act on; our own colour (SGR, `ESC [ … m`) is taken out first when allowed. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SGR = /\u001b\[[0-9;]*m/g;

function expectSafe(what: string, text: string, opts: { colour?: boolean; tabs?: boolean } = {}) {
  let t = opts.colour ? text.replace(SGR, '') : text;
  if (!opts.tabs) expect(t.includes('\t'), `${what}: a tab`).toBe(false);
  t = t.replace(/\t/g, ' ');
  const bad = UNSAFE.exec(t);
  expect(
    bad
      ? `${what}: raw U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} near ${JSON.stringify(t.slice(Math.max(0, bad.index - 20), bad.index + 20))}`
      : '',
  ).toBe('');
}

let notificationId = '';
beforeAll(async () => {
  dev = await startDev();
  await api(dev, 'POST', '/v2/subscribers', { subscriberId: 'eve', firstName: CORPUS, lastName: '日本語', email: 'eve@example.com', data: { note: CORPUS } });
  await api(dev, 'POST', '/v2/workflows', { name: CORPUS, workflowId: 'evil', steps: [] });
  // A subscriber id is shown everywhere an event is: in the lists, the timeline, watch and browse.
  await api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to: { subscriberId: `x${CORPUS}`, firstName: CORPUS }, payload: { name: CORPUS } });
  await api(dev, 'POST', '/v1/events/trigger', { name: 'welcome', to: 'eve', payload: { name: CORPUS } });
  for (let i = 0; i < 50; i++) {
    const r = await api(dev, 'GET', '/v1/notifications?limit=10');
    const list = r.body.data as { _id: string; subscriber?: { subscriberId?: string }; jobs?: { status: string }[] }[];
    const done = list.length >= 2 && list.every((n) => (n.jobs ?? []).every((j) => !['pending', 'queued', 'running'].includes(j.status)));
    notificationId = list.find((n) => n.subscriber?.subscriberId?.startsWith('x'))?._id ?? '';
    if (done) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  await dev?.stop();
});

const store = () => JSON.parse(readFileSync(join(dev.configDir, 'config.json'), 'utf8'));

tmux.describe('at a terminal', () => {
  it('svc login offers the local profile address, asks again after a rejected key, then saves', async () => {
    const screen = openTerminal([process.execPath, BIN, 'login'], { SVC_CONFIG_DIR: dev.configDir });
    try {
      await screen.waitFor('Profile name:');
      screen.type('mine');
      screen.keys('Enter');
      // The local service where svc dev said it runs, not a guessed port.
      await screen.waitFor(`Local svc dev (${dev.baseUrl}, from the local profile)`);
      screen.keys('Down', 'Down', 'Enter');
      await screen.waitFor('API key:');
      screen.type('sk_not_the_key_1234');
      screen.keys('Enter');
      await screen.waitFor('key sk_…1234 rejected (401); try again (2 of 3, Ctrl-C stops)');
      screen.type(dev.apiKey);
      screen.keys('Enter');
      const done = await screen.waitFor('EXIT=0');
      expect(done).toContain(`logged in: profile 'mine' (${dev.baseUrl}`);
      expect(done).not.toContain(dev.apiKey);
      expect(store().profiles.mine).toEqual({ baseUrl: dev.baseUrl, apiKey: dev.apiKey });
    } finally {
      screen.close();
    }
  });

  it('svc login gives up after three rejected keys, saving nothing (exit 3)', async () => {
    const screen = openTerminal([process.execPath, BIN, 'login', '--profile', 'nope', '--base-url', dev.baseUrl], { SVC_CONFIG_DIR: dev.configDir });
    try {
      for (let i = 1; i <= 3; i++) {
        await screen.waitFor((s) => (s.match(/API key:/g) ?? []).length >= i);
        screen.type(`sk_wrong_key_000${i}`);
        screen.keys('Enter');
      }
      const done = await screen.waitFor('EXIT=3');
      // (the error line is wider than 80 columns: the terminal wraps it)
      expect(done.replace(/\n/g, '')).toContain('rejected the key sk_…0003 (401); nothing was saved');
      expect(store().profiles.nope).toBeUndefined();
    } finally {
      screen.close();
    }
  });

  it('profile remove asks first: n keeps the profile, y removes it', async () => {
    const env = { SVC_CONFIG_DIR: dev.configDir };
    let screen = openTerminal([process.execPath, BIN, 'profile', 'remove', 'mine'], env);
    try {
      await screen.waitFor("Delete profile 'mine' and its saved key? This cannot be undone.");
      screen.keys('n', 'Enter');
      await screen.waitFor('EXIT=0');
      expect(screen.text()).toContain('nothing deleted');
      expect(store().profiles.mine).toBeDefined();
    } finally {
      screen.close();
    }
    screen = openTerminal([process.execPath, BIN, 'profile', 'remove', 'mine'], env);
    try {
      await screen.waitFor("Delete profile 'mine'");
      screen.keys('y', 'Enter');
      await screen.waitFor('EXIT=0');
      expect(store().profiles.mine).toBeUndefined();
    } finally {
      screen.close();
    }
  });
});

describe('hostile text never reaches a terminal raw', () => {
  const env = (colour: boolean) => ({
    SVC_BASE_URL: dev.baseUrl,
    SVC_API_KEY: dev.apiKey,
    SVC_CONFIG_DIR: dev.configDir,
    TZ: 'UTC',
    ...(colour ? { FORCE_COLOR: '1', NO_COLOR: '' } : { NO_COLOR: '1' }),
  });
  const paths: string[][] = [
    ['subscribers', 'search', '--subscriber-id', 'eve'],
    ['subscribers', 'get', 'eve'],
    ['events', 'list', '--limit', '10'],
    ['events', 'list', '--all'],
    ['events', 'get', '<event>'],
    ['messages', 'list', '--limit', '10'],
    ['workflow', 'get', 'evil'],
    ['workflow', 'list'],
  ];

  it('every path, every format: no raw control byte, visible escapes in the human formats, JSON exact', async () => {
    for (const path of paths) {
      const argv = path.map((a) => (a === '<event>' ? notificationId : a));
      for (const format of ['table', 'tsv', 'yaml', 'json', 'ndjson']) {
        for (const colour of format === 'table' ? [false, true] : [false]) {
          const r = await svcBin([...argv, '-o', format], { env: env(colour) });
          const what = `${argv.join(' ')} -o ${format}${colour ? ' (colour)' : ''}`;
          expect(r.exitCode, `${what}: ${String(r.stderr)}`).toBe(0);
          const out = String(r.stdout);
          expectSafe(`${what} stdout`, out, { colour, tabs: format === 'tsv' });
          expectSafe(`${what} stderr`, String(r.stderr));
          if (format === 'table' || format === 'tsv') expect(out, what).toMatch(/\\e\]0;PWNED|\\x1b\]0;PWNED/);
          if (format === 'json' || format === 'ndjson') expect(out, what).toContain('\\u001b]0;PWNED');
          if (format === 'table' && colour && path[1] !== 'get') expect(out, `${what}: our own colour`).toMatch(SGR);
        }
      }
    }
  }, 120_000);

  it('JSON, NDJSON and YAML keep the value exact', async () => {
    const json = JSON.parse(String((await svcBin(['subscribers', 'get', 'eve', '-o', 'json'], { env: env(false) })).stdout));
    expect(json.firstName).toBe(CORPUS);
    const nd = JSON.parse(
      String((await svcBin(['subscribers', 'search', '--subscriber-id', 'eve', '-o', 'ndjson'], { env: env(false) })).stdout).split('\n')[0]!,
    );
    expect(nd.firstName).toBe(CORPUS);
    const yaml = parseYaml(String((await svcBin(['subscribers', 'get', 'eve', '-o', 'yaml'], { env: env(false) })).stdout));
    expect(yaml.firstName).toBe(CORPUS);
    expect(yaml.data.note).toBe(CORPUS);
  });

  it('error messages that quote service text: plain and as JSON', async () => {
    // svc refuses control characters in an id it is given; the service quotes back what it got.
    for (const args of [
      ['api', 'GET', '/v2/subscribers/nobody%1B%5D0%3BPWNED%07%1B%5B2Jwipe%C2%9Bcsi%E2%80%AEevil%7Fdel'],
      ['api', 'POST', '/v2/workflows', '--data', JSON.stringify({ name: 'x', workflowId: CORPUS, steps: [] })],
    ]) {
      for (const json of [false, true]) {
        const r = await svcBin([...args, ...(json ? ['--json'] : [])], { env: env(false) });
        expect(r.exitCode).not.toBe(0);
        expectSafe(`${args.slice(0, 2).join(' ')} stderr`, String(r.stderr));
        // The plain 422 line names the field; its JSON form carries the value the service quoted.
        if (args[1] === 'GET' || json) expect(String(r.stderr)).toMatch(/PWNED/);
      }
    }
  });

  tmux.test('events watch lines on a terminal: only our colour reaches it', async () => {
    const screen = openTerminal(
      [process.execPath, BIN, 'events', 'watch', '--since', '1h', '--interval', '300ms'],
      { ...env(true), TERM: 'xterm-256color' },
      { raw: true },
    );
    try {
      // (the subscriber column is cut to fit 80 columns)
      await screen.waitFor('xEve\\e]0;');
      // The recording holds what the screen shows once the line has ended in it too.
      await expect.poll(() => screen.raw()).toMatch(/xEve\\e\]0;[^\n]*\n/);
      const raw = screen
        .raw()
        .replace(/\r\n/g, '\n')
        .replace(/\r(?=\n)/g, '');
      expect(raw).toMatch(SGR);
      expectSafe('events watch (tty)', raw, { colour: true });
      for (const l of screen.joined()) expect(l.length).toBeLessThanOrEqual(80);
    } finally {
      screen.close();
    }
  });

  tmux.test('events browse: the list and the timeline show escapes, never act on them', async () => {
    const screen = openTerminal([process.execPath, BIN, 'events', 'browse', '--interval', '500ms'], env(true), { raw: true });
    try {
      // The list cuts the long hostile id to its column, escapes shown; the timeline shows it whole.
      await screen.waitFor('xEve\\e]0;');
      // The older of the two events is the one to the hostile subscriber id.
      screen.keys('g', 'j', 'Enter');
      await screen.waitFor(/Timeline of [0-9a-f]{24}\n/);
      await screen.waitFor('xEve\\e]0;PWNED');
      screen.keys('q');
      await screen.waitFor('EXIT=0');
      // Ink moves the cursor and clears lines itself; what the service sent is never among it.
      const raw = screen.raw();
      for (const seq of ['\u001b]0;PWNED', '\u001b[2Jwipe', '\u009bcsi', '\u202eevil', '\u2066iso', '\u007fdel', '\u0000nul', '\rcr', '\u0008bs'])
        expect(raw.includes(seq), JSON.stringify(seq)).toBe(false);
      expect(raw).not.toMatch(/\u001b\]/);
    } finally {
      screen.close();
    }
  });
});

// `svc events browse` as a person uses it: a real 80×24 terminal (tmux), the built binary, the local
// service with its demo data. Keys are sent as a person presses them; the screen is read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BIN, startDev, type DevProcess } from '../helpers/dev.js';
import { svcBin } from '../helpers/bin.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';

let dev: DevProcess;
const env = () => ({ SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey, SVC_CONFIG_DIR: dev.configDir, TZ: 'UTC' });
const trigger = (name: string, to: string, payload: Record<string, unknown> = {}) => api(dev, 'POST', '/v1/events/trigger', { name, to, payload });

async function settle(count: number) {
  for (let i = 0; i < 100; i++) {
    const r = await api(dev, 'GET', '/v1/notifications?limit=50');
    const list = r.body.data as { jobs?: { status: string }[] }[];
    if (list.length >= count && list.every((n) => (n.jobs ?? []).every((j) => !['pending', 'queued', 'running'].includes(j.status)))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  dev = await startDev();
  await trigger('welcome', 'ada');
  await trigger('otp', 'alan', { code: '123456' });
  await trigger('incident', 'grace', { service: 'api' });
  await settle(3);
});
afterAll(async () => {
  await dev?.stop();
});

tmux.describe('svc events browse in an 80×24 terminal', () => {
  let screen: Terminal;
  afterAll(() => screen?.close());

  it('lists the feed fitted to 80 columns, with status and reason', async () => {
    screen = openTerminal([process.execPath, BIN, 'events', 'browse', '--interval', '500ms'], env());
    await screen.waitFor(/svc events browse +3 events/);
    const lines = screen.lines();
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/WORKFLOW\s+SUBSCRIBER\s+STATUS\s+REASON/);
    // The id stays beside the reason (what `events get` takes), the reason cut to what is left.
    expect(lines.find((l) => l.includes('otp'))).toMatch(/^\S+ ago\s+[0-9a-f]{8}\s+otp\s+alan\s+failed\s+sms: Subscriber does not/);
    expect(lines.find((l) => l.includes('welcome'))).toMatch(/ada\s+delivered/);
    expect(lines.filter(Boolean).at(-1)).toMatch(/q quit/);
  });

  it('/ filters by status (svc dev filters the whole feed); Enter opens the timeline; Esc comes back', async () => {
    screen.keys('/');
    screen.type('status:failed');
    screen.keys('Enter');
    await screen.waitFor(/svc events browse +2 events {2}\[status:failed\]/);
    expect(screen.text()).not.toContain('welcome');
    screen.keys('Down', 'Enter');
    const shown = await screen.waitFor(/Timeline of [0-9a-f]{24}\n/);
    expect(shown).toMatch(/Failed +Subscriber does not have a phone number|Failed +Subscriber has no chat/);
    for (const l of screen.lines()) expect(l.length).toBeLessThanOrEqual(80);
    screen.keys('Escape');
    await screen.waitFor('[status:failed]');
    // / shows the filter set, and a space after it: a word typed next is a word of its own.
    screen.keys('/');
    await screen.waitFor('filter: status:failed ▏');
    screen.keys('C-u');
    for (let i = 0; i < 20; i++) screen.keys('BSpace');
    screen.keys('Enter');
    await screen.waitFor(/svc events browse +3 events/);
  });

  it('shows new events as they arrive, and r re-triggers to the same subscriber', async () => {
    await trigger('welcome', 'grace');
    await screen.waitFor(/svc events browse +4 events/);
    expect(screen.lines()[2]).toMatch(/welcome\s+grace/);
    screen.keys('g', 'r');
    await screen.waitFor(/re-trigger welcome to grace with the same payload\? y\/n/);
    screen.keys('y');
    await screen.waitFor(/re-triggered welcome to grace: transaction [0-9a-f-]{36}/);
    await screen.waitFor(/svc events browse +5 events/);
  });

  it('q quits and gives the terminal back', async () => {
    screen.keys('q');
    const s = await screen.waitFor('EXIT=0');
    expect(s).not.toContain('svc events browse');
  });
});

tmux.describe('svc events browse with filter flags', () => {
  let screen: Terminal;
  afterAll(() => screen?.close());

  it('names every filter in the header; a single --workflow is the browser filter, which Esc clears', async () => {
    screen = openTerminal([process.execPath, BIN, 'events', 'browse', '--workflow', 'otp', '--since', '1h', '--interval', '500ms'], env());
    const first = await screen.waitFor(/svc events browse +1 event +\[workflow:otp\] +--since 1h/);
    expect(first).toContain('alan');
    expect(first).not.toContain('grace');
    // The id as the list shows it resolves later in `events get`, however old the event by then.
    const row = screen.lines().find((l) => l.includes('alan'))!;
    const short = row.trim().split(/\s+/)[2]!;
    expect(short).toMatch(/^[0-9a-f]{8}$/);
    screen.keys('Escape');
    await screen.waitFor(/svc events browse +[3-9] events +--since 1h/);
    screen.keys('q');
    await screen.waitFor('EXIT=0');
    // Through the suite's spawner, so its output is audited for secrets like every other.
    const got = await svcBin(['events', 'get', short, '-o', 'json'], { env: env() });
    expect(got.exitCode, String(got.stderr)).toBe(0);
    expect(JSON.parse(String(got.stdout))._id.endsWith(short)).toBe(true);
  });
});

describe('svc events browse without a terminal', () => {
  it('never starts: exit 2 and one clear line', async () => {
    const r = await svcBin(['events', 'browse'], { env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey } });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(String(r.stderr).trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/events browse needs a terminal.*svc events list/);
  });
});

// The test kit's time and clean starts as a CI job uses them: the built binary against the real
// `svc dev --clock manual`. `svc dev clock advance` runs what comes due before it returns, `svc dev
// reset` goes back to the seed, snapshots round-trip (and `--export-on-exit` feeds `--import`), and
// against a service that is not svc dev every admin command refuses, exit 5, having sent nothing else.
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { type DevProcess, startDev } from '../helpers/dev.js';

const HOUR = 3_600_000;
let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet', '--clock', 'manual'] });
});
afterAll(async () => {
  await dev?.stop();
});

const envOf = (d: DevProcess) => ({ SVC_BASE_URL: d.baseUrl, SVC_API_KEY: d.apiKey });
const svc = (args: string[], d = dev, opts: { cwd?: string } = {}) => svcBin(args, { env: envOf(d), ...opts });

async function api(method: string, path: string, body?: unknown, d = dev): Promise<{ status: number; body: any }> {
  const res = await fetch(`${d.baseUrl}${path}`, {
    method,
    headers: { authorization: `ApiKey ${d.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function trigger(name: string, to: string, payload: Record<string, unknown> = {}, d = dev): Promise<string> {
  const r = await api('POST', '/v1/events/trigger', { name, to, payload }, d);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.transactionId;
}

const messagesOf = async (tx: string, d = dev) => (await api('GET', `/v1/messages?transactionId=${tx}&limit=100`, undefined, d)).body.data as any[];

async function clock(): Promise<{ mode: string; now: string }> {
  const r = await svc(['dev', 'clock', '-o', 'json']);
  expect(r.exitCode, String(r.stderr)).toBe(0);
  return JSON.parse(String(r.stdout));
}

describe('svc dev --clock manual', () => {
  it('svc dev clock -o json is exactly {mode, now}, and time stands still', async () => {
    const first = await clock();
    expect(Object.keys(first).sort()).toEqual(['mode', 'now']);
    expect(first.mode).toBe('manual');
    expect(new Date(first.now).toISOString()).toBe(first.now);
    // A positive event in between (a trigger answered) and still the same service time.
    await trigger('welcome', 'ada');
    expect((await clock()).now).toBe(first.now);
  });

  it('a 1-hour delay: the message exists when `svc dev clock advance 1h` returns', async () => {
    const created = await api('POST', '/v2/workflows', {
      name: 'Later',
      workflowId: 'later-1h',
      active: true,
      steps: [
        { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } },
        { name: 'Inbox', type: 'in_app', controlValues: { body: 'An hour later' } },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const before = Date.parse((await clock()).now);
    const tx = await trigger('later-1h', 'ada');
    expect(await messagesOf(tx)).toEqual([]);
    const r = await svc(['dev', 'clock', 'advance', '1h', '-o', 'json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toEqual({ mode: 'manual', now: new Date(before + HOUR).toISOString() });
    const [m] = await messagesOf(tx);
    expect(m).toMatchObject({ channel: 'in_app', content: 'An hour later', createdAt: new Date(before + HOUR).toISOString() });
  });

  it("a digest window closes on advance: one summary of the window's events", async () => {
    const post = `post-${Date.now()}`;
    const a = await trigger('comment-digest', 'ada', { postId: post, author: 'Grace', comment: 'first' });
    await trigger('comment-digest', 'ada', { postId: post, author: 'Linus', comment: 'second' });
    expect(await messagesOf(a)).toEqual([]);
    const r = await svc(['dev', 'clock', 'advance', '10m']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const [m, ...more] = await messagesOf(a);
    expect(more).toEqual([]);
    expect(m.subject).toMatch(/^2 new comments/);
    expect(m.content).toContain('Grace: first');
    expect(m.content).toContain('Linus: second');
  });

  it('a bad DURATION is exit 2 naming the argument, and time did not move', async () => {
    const before = await clock();
    const r = await svc(['dev', 'clock', 'advance', 'soon']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain("argument 'duration'");
    expect(await clock()).toEqual(before);
  });

  it("svc messages wait's default --since is the service's time: a message of the standing clock is found", async () => {
    // Real time has moved on since the clock stopped; the message is dated in service time. Whether
    // the trigger lands before or after the wait asks the clock, its time is the clock's (standing).
    const waiting = svc(['messages', 'wait', '--subscriber', 'ada', '--workflow', 'otp', '--extract', 'otp', '--wait-timeout', '5s']);
    await trigger('otp', 'ada', { code: '4242' });
    const r = await waiting;
    expect({ code: r.exitCode, stdout: r.stdout }).toEqual({ code: 0, stdout: '4242' });
  });
});

describe('svc dev reset and snapshots', () => {
  it('reset at 10,000 events: back to the seed, the old jobs gone with it', async () => {
    const seedWorkflows = (await api('GET', '/v2/workflows?limit=100')).body.data.totalCount;
    // 10,000 events whose first step waits an hour: the runner holds 10,000 delayed jobs.
    for (let i = 0; i < 100; i++) {
      const events = Array.from({ length: 100 }, (_, j) => ({ name: 'later-1h', to: `load-${i}-${j}`, payload: {} }));
      const r = await api('POST', '/v1/events/trigger/bulk', { events });
      expect(r.status).toBe(201);
    }
    const feed = await api('GET', '/v1/notifications?limit=1');
    expect(feed.status).toBe(200);
    const r = await svc(['dev', 'reset', '-o', 'json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const summary = JSON.parse(String(r.stdout));
    expect(summary).toMatchObject({ environments: 1, events: 0, keyKept: true });
    // The seed is back (its workflows), what was made since is gone (later-1h, the subscribers).
    expect((await api('GET', '/v2/workflows?limit=100')).body.data.totalCount).toBe(seedWorkflows - 1);
    expect((await api('GET', '/v2/workflows/later-1h')).status).toBe(404);
    expect((await api('GET', '/v2/subscribers?subscriberId=load-0-0')).body.data).toEqual([]);
    expect((await api('GET', '/v2/subscribers?subscriberId=ada')).body.data).toHaveLength(1);
    // The old delays do not run: an hour later there is still nothing.
    expect((await svc(['dev', 'clock', 'advance', '2h'])).exitCode).toBe(0);
    expect((await api('GET', '/v1/messages?limit=1')).body.data).toEqual([]);
    // And the service still works on the new rows.
    const tx = await trigger('otp', 'ada', { code: '1111' });
    expect(await messagesOf(tx)).toHaveLength(1);
  }, 120_000);

  it('an environment created since start (svc environments create) is gone after reset, with its key', async () => {
    const made = await svc(['environments', 'create', 'per-test', '--show-secrets', '-o', 'json']);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    const key = JSON.stringify(JSON.parse(String(made.stdout))).match(/sk_[A-Za-z0-9_]+/)?.[0];
    expect(key).toBeDefined();
    const asNew = () => fetch(`${dev.baseUrl}/v1/environments/me`, { headers: { authorization: `ApiKey ${key}` } });
    expect((await asNew()).status).toBe(200);
    const before = (await api('GET', '/v1/environments')).body.data.map((e: { name: string }) => e.name);
    expect(before).toContain('per-test');
    expect((await svc(['dev', 'reset'])).exitCode).toBe(0);
    expect((await api('GET', '/v1/environments')).body.data.map((e: { name: string }) => e.name)).toEqual(before.filter((n: string) => n !== 'per-test'));
    expect((await asNew()).status).toBe(401);
  });

  it('reset --empty keeps the environment and its key, and nothing else', async () => {
    const r = await svc(['dev', 'reset', '--empty', '-o', 'json']);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect((await api('GET', '/v2/workflows?limit=100')).body.data.totalCount).toBe(0);
    expect((await api('GET', '/v2/subscribers?limit=100')).body.data).toEqual([]);
    // Back to the seed for the tests after.
    expect((await svc(['dev', 'reset'])).exitCode).toBe(0);
  });

  it('snapshot save FILE (relative to the command) and load FILE round-trip the whole store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-snap-'));
    const kept = await trigger('otp', 'ada', { code: '2222' });
    const saved = await svc(['dev', 'snapshot', 'save', 'kept.sqlite', '-o', 'json'], dev, { cwd: dir });
    expect(saved.exitCode, String(saved.stderr)).toBe(0);
    expect(existsSync(join(dir, 'kept.sqlite'))).toBe(true);
    const lost = await trigger('otp', 'ada', { code: '3333' });
    const loaded = await svc(['dev', 'snapshot', 'load', 'kept.sqlite', '-o', 'json'], dev, { cwd: dir });
    expect(loaded.exitCode, String(loaded.stderr)).toBe(0);
    expect(await messagesOf(kept)).toHaveLength(1);
    expect(await messagesOf(lost)).toEqual([]);
    // A file that is not a snapshot: exit 2 naming it.
    writeFileSync(join(dir, 'notes.txt'), 'not a database');
    const bad = await svc(['dev', 'snapshot', 'load', 'notes.txt'], dev, { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain('notes.txt is not an svc snapshot');
    expect(await messagesOf(kept)).toHaveLength(1);
  });

  it('--export-on-exit writes the store when svc dev stops; --import starts from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-export-'));
    const file = join(dir, 'after.sqlite');
    const first = await startDev({ args: ['--no-save-profile', '--quiet', '--export-on-exit', file] });
    const tx = await trigger('otp', 'ada', { code: '5555' }, first);
    expect(await messagesOf(tx, first)).toHaveLength(1);
    expect(await first.stop()).toBe(0);
    expect(existsSync(file)).toBe(true);
    const second = await startDev({ args: ['--no-save-profile', '--quiet', '--import', file], apiKey: first.apiKey });
    try {
      const [m] = await messagesOf(tx, second);
      expect(m).toMatchObject({ transactionId: tx, content: expect.stringContaining('5555') });
    } finally {
      await second.stop();
    }
    writeFileSync(join(dir, 'junk.sqlite'), 'SQLite format 3\0 but not really');
    const bad = await svcBin(['dev', '--in-memory', '--port', '0', '--no-save-profile', '--import', join(dir, 'junk.sqlite')]);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain('--import');
    expect(String(bad.stderr)).toContain('junk.sqlite');
  }, 60_000);
});

describe('against a service that is not svc dev', () => {
  let stub: ReturnType<typeof createServer>;
  let url = '';
  const seen: string[] = [];
  beforeAll(async () => {
    stub = createServer((req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, message: 'Cannot GET', error: 'Not Found' }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', () => r()));
    const addr = stub.address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => stub.close(() => r())));

  it('a FILE that is not a snapshot is exit 2 naming it, and nothing is sent', async () => {
    seen.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'svc-hosted-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const r = await svcBin(['dev', 'snapshot', 'load', 'notes.txt'], { env: { SVC_BASE_URL: url, SVC_API_KEY: 'sk_hosted_0123456789' }, cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('notes.txt is not an svc snapshot');
    expect(seen).toEqual([]);
  });

  it.each([
    [['dev', 'clock']],
    [['dev', 'clock', 'advance', '1h']],
    [['dev', 'reset']],
    [['dev', 'snapshot', 'save', 'x.sqlite']],
    [['dev', 'snapshot', 'load', 'kept.sqlite']],
  ])('svc %j refuses in one line, exit 5, having asked only GET /v1/svc-dev', async (args) => {
    seen.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'svc-hosted-'));
    writeFileSync(join(dir, 'kept.sqlite'), Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]));
    const r = await svcBin(args, { env: { SVC_BASE_URL: url, SVC_API_KEY: 'sk_hosted_0123456789' }, cwd: dir });
    expect(r.exitCode).toBe(5);
    expect(String(r.stderr).split('\n')[0]).toContain('works only against svc dev');
    expect(seen).toEqual(['GET /v1/svc-dev']);
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });
});

// Bulk runs under rate limits and failures: the read-only refusal through the one client factory, the
// truth about chunks the service did not process, the network's exit code, interruptible waits, cost
// pacing against a token bucket like the service's (a tight synthetic limit: runs in seconds),
// shrinking calls the bucket can never pay for, and --max-time.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { getEventListeners, setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { startStub, type Recorded, type Stub, type StubAnswer } from '../helpers/stub.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { Pacer } from '../../src/bulk/pacer.js';
import { progressLine } from '../../src/bulk/report.js';
import { openTerminal, tmux } from '../helpers/tmux.js';
import { fileURLToPath } from 'node:url';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let env: Record<string, string>;
let dir: string;
let seen: Map<string, number>;

function recipientsOf(req: Recorded): string[] {
  const body = req.body as { to?: unknown[]; events?: { to: unknown[] }[] };
  const ids = (to: unknown[]) => to.map((r) => (typeof r === 'string' ? r : (r as { subscriberId: string }).subscriberId));
  return body.events ? body.events.flatMap((e) => ids(e.to)) : ids(body.to ?? []);
}

const processed = (txn: string) => {
  seen.set(txn, (seen.get(txn) ?? 0) + 1);
  return { acknowledged: true, status: 'processed', transactionId: txn };
};

/**
 * The service's bucket (ground truth, "Rate limits"), on a 1-second window so tests are quick: `rate`
 * tokens a second, capacity rate + 10%, a bulk call costs 100, headers on every answer.
 */
function bucket(rate: number) {
  const limit = rate; // w=1
  const capacity = Math.round(limit * 1.1);
  let tokens = capacity;
  let at = Date.now();
  const stats = { refused: 0 };
  const take = (cost: number): { ok: boolean; headers: Record<string, string> } => {
    const now = Date.now();
    tokens = Math.min(capacity, tokens + ((now - at) / 1000) * rate);
    at = now;
    const ok = tokens >= cost;
    if (ok) tokens -= cost;
    else {
      stats.refused++;
      if (process.env.DEBUG_BUCKET) console.log('refused', cost, tokens, now);
    }
    const reset = Math.max(1, Math.ceil((cost - tokens) / rate));
    const headers: Record<string, string> = {
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(Math.max(0, Math.floor(tokens))),
      'ratelimit-reset': String(ok ? 0 : reset),
      'ratelimit-policy': `${limit};w=1;burst=${capacity}`,
    };
    if (!ok) headers['retry-after'] = String(reset);
    return { ok, headers };
  };
  const limited = { statusCode: 429, message: 'API rate limit exceeded', path: '/', timestamp: 'x' };
  stub.on('POST', '/v1/events/trigger', (req): StubAnswer => {
    const d = take(1);
    if (!d.ok) return { status: 429, headers: d.headers, body: limited };
    return { status: 201, headers: d.headers, body: { data: processed((req.body as { transactionId: string }).transactionId) } };
  });
  stub.on('POST', '/v1/events/trigger/bulk', (req): StubAnswer => {
    const d = take(100);
    if (!d.ok) return { status: 429, headers: d.headers, body: limited };
    return {
      status: 201,
      headers: d.headers,
      body: { data: (req.body as { events: { transactionId: string }[] }).events.map((e) => processed(e.transactionId)) },
    };
  });
  return stats;
}

function ndjson(rows: number): string {
  return `${Array.from({ length: rows }, (_, i) => JSON.stringify({ subscriberId: `user-${i}`, payload: { n: i } })).join('\n')}\n`;
}
function csv(rows: number): string {
  return `${['subscriberId', ...Array.from({ length: rows }, (_, i) => `user-${i}`)].join('\n')}\n`;
}

beforeEach(async () => {
  // The bucket answers both trigger routes; a test uses one or both.
  stub = await startStub({ allowUnused: true });
  env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url };
  dir = tempConfigDir();
  seen = new Map();
});
afterEach(async () => stub.close());

describe('bulk: one client factory, the truth, exit codes', () => {
  test('a read-only profile refuses --recipients-file like --to (exit 3): nothing sent, no journal written', async () => {
    const cfg = { SVC_CONFIG_DIR: join(dir, 'cfg') };
    await runSvc(['profile', 'add', 'ro', '--base-url', stub.url, '--api-key', KEY, '--read-only'], { env: cfg, cwd: dir });
    writeFileSync(join(dir, 'users.csv'), csv(5));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv'], { env: cfg, cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("profile 'ro' is read-only");
    expect(stub.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'users.csv.svc-journal'))).toBe(false);
  });

  test('a chunk acknowledged but not processed is failed, not journaled done; --resume sends it again under a new key', async () => {
    writeFileSync(join(dir, 'users.csv'), csv(200));
    // Replays answers by idempotency key like the service; the workflow is inactive at first.
    const answers = new Map<string, unknown>();
    let active = false;
    stub.on('POST', '/v1/events/trigger', (req) => {
      const key = String(req.headers['idempotency-key']);
      const txn = (req.body as { transactionId: string }).transactionId;
      const body = answers.get(key) ?? {
        data: active || txn.endsWith('-0') ? processed(txn) : { acknowledged: true, status: 'trigger_not_active', transactionId: txn },
      };
      answers.set(key, body);
      return { status: 201, body };
    });
    const first = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson'], { env, cwd: dir });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('100 recipients sent, 100 failed');
    expect(first.stderr).toContain('--resume');
    const journal = readFileSync(join(dir, 'rep.ndjson.journal'), 'utf8');
    expect(journal.match(/"type":"chunk"/g)).toHaveLength(1);

    active = true;
    const before = stub.requests.length;
    const again = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--report', 'rep.ndjson', '--resume'], { env, cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('100 recipients sent, 0 failed, 0 skipped, 100 already sent before');
    const resent = stub.requests.slice(before);
    expect(resent).toHaveLength(1);
    const firstKey = stub.requests.slice(0, before).find((q) => (q.body as { transactionId: string }).transactionId.endsWith('-1'))!.headers['idempotency-key'];
    expect(resent[0]!.headers['idempotency-key']).not.toBe(firstKey);
    const rep = readFileSync(join(dir, 'rep.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rep).toHaveLength(200);
    expect(rep.every((l) => l.status === 'sent')).toBe(true);
  });

  test('a stopped service: nothing delivered, exit 4 (the network), not "N recipients failed" exit 1', async () => {
    await stub.close();
    writeFileSync(join(dir, 'users.csv'), csv(199));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.csv', '--retries', '1'], { env, cwd: dir });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/nothing was sent: .*could not reach/);
    expect(r.stderr).toContain('--resume');
    stub = await startStub(); // for afterEach
  });
});

describe('bulk: pacing by cost', () => {
  test('own-payload rows under a bucket that holds less than one bulk call: sent one trigger each, 0 failed, nobody twice', async () => {
    const stats = bucket(20); // capacity 22 < a bulk call's 100
    writeFileSync(join(dir, 'users.ndjson'), ndjson(60));
    const t0 = Date.now();
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson'], { env, cwd: dir });
    const took = Date.now() - t0;
    expect(r.stderr).toContain('60 recipients sent, 0 failed');
    expect(r.code).toBe(0);
    const all = stub.requests.filter((q) => q.path === '/v1/events/trigger').flatMap(recipientsOf);
    expect(new Set(all).size).toBe(60);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // 22 at once, 38 more at 20/s: about 1.9 s. The first bulk call is refused (it teaches the
    // bucket's size); on a loaded machine one more 429 has been seen once in several runs.
    expect(stats.refused).toBeGreaterThanOrEqual(1);
    expect(stats.refused).toBeLessThanOrEqual(2);
    expect(took).toBeLessThan(6000);
  });

  test('bulk calls paced by their cost of 100: no avoidable 429, every row once, near the allowed rate', async () => {
    const stats = bucket(200); // 2 bulk calls/s, capacity 220: 2 at once
    writeFileSync(join(dir, 'users.ndjson'), ndjson(800));
    const t0 = Date.now();
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson'], { env, cwd: dir });
    const took = Date.now() - t0;
    expect(r.code).toBe(0);
    expect(new Set(stub.requests.flatMap(recipientsOf)).size).toBe(800);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(stats.refused).toBe(0);
    // 2 calls of burst, then 6 at 2/s: 3 s is the service's pace; allow the machine some slack.
    expect(took).toBeGreaterThan(2500);
    expect(took).toBeLessThan(6000);
  });

  test('--max-time runs out waiting for the rate limit: exit 7, a --resume hint, and --resume finishes the run', async () => {
    bucket(100); // one bulk call a second
    writeFileSync(join(dir, 'users.ndjson'), ndjson(500));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson', '--max-time', '1500ms'], { env, cwd: dir });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/--max-time 1\.5s ran out waiting for the rate limit: \d+ recipients not sent yet/);
    expect(r.stderr).toContain('--resume');
    const summary = JSON.parse(r.stdout);
    expect(summary.recipients.sent + summary.recipients.notSent).toBe(500);
    const again = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson', '--resume'], { env, cwd: dir });
    expect(again.code).toBe(0);
    expect(new Set(stub.requests.flatMap(recipientsOf)).size).toBe(500);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  }, 15_000);

  test('--resume after --max-time in a chunk sent one event at a time: the events already sent are neither sent nor paid for again', async () => {
    bucket(20); // capacity 22 < a bulk call's 100: one trigger per row, 20 a second after the first 22
    writeFileSync(join(dir, 'users.ndjson'), ndjson(60));
    const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson', '--report', 'rep.ndjson', '--max-time', '1500ms'], {
      env,
      cwd: dir,
    });
    expect(r.code).toBe(7);
    const first = JSON.parse(r.stdout).recipients;
    expect(first.sent).toBeGreaterThan(22);
    expect(first.sent + first.notSent).toBe(60);
    const before = stub.requests.length;

    const again = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson', '--report', 'rep.ndjson', '--resume'], { env, cwd: dir });
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout).recipients;
    expect(second).toMatchObject({ sent: 60 - first.sent, alreadySent: first.sent, failed: 0 });
    // Only the rows not yet processed went out again (none twice, even deduplicated by the service).
    const resent = stub.requests.slice(before).filter((q) => q.path === '/v1/events/trigger');
    expect(resent).toHaveLength(60 - first.sent);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect(seen.size).toBe(60);
    const rep = readFileSync(join(dir, 'rep.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rep).toHaveLength(60);
    expect(new Set(rep.map((l) => l.row)).size).toBe(60);
    expect(rep.every((l) => l.status === 'sent')).toBe(true);
  }, 15_000);

  test('Ctrl-C during a long rate-limit wait ends the run at once (exit 130, --resume hint), without listener warnings', async () => {
    bucket(100); // one bulk call a second: the third call waits ~1 s, the rest longer
    writeFileSync(join(dir, 'users.ndjson'), ndjson(3000));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 1500);
      const t0 = Date.now();
      const r = await runSvc(['trigger', 'welcome', '--recipients-file', 'users.ndjson', '--concurrency', '32'], { env, cwd: dir, signal: ac.signal });
      expect(r.code).toBe(130);
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(r.stderr).toContain('--resume');
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('--max-time is a bulk flag and a duration', async () => {
    expect((await runSvc(['trigger', 'welcome', '--to', 'u1', '--max-time', '1m'], { env, cwd: dir })).code).toBe(2);
    const bad = await runSvc(['trigger', 'welcome', '--recipients-file', 'x.csv', '--max-time', 'soon'], { env, cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-time');
    expect(stub.requests).toHaveLength(0);
  });
});

describe('pacer waits', () => {
  test('a long rate-limit wait ends at once on abort, and waits leave no abort listeners behind', async () => {
    const ac = new AbortController();
    // As runBulk does for its signal: 30 waits at once are 30 listeners for a moment (not a leak).
    setMaxListeners(64, ac.signal);
    const p = new Pacer({ signal: ac.signal });
    p.observe(429, { limit: 10, remaining: 0, reset: 60, policy: '10;w=60;burst=11' }, 60_000);
    // Many short waits: none leaves a listener.
    const q = new Pacer({ signal: ac.signal, fixed: 64 });
    q.observe(200, { limit: 1000, remaining: 0, policy: '1000;w=1;burst=1100' });
    await Promise.all(Array.from({ length: 30 }, () => q.acquire(1, false)));
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    const t0 = Date.now();
    const waiting = p.acquire(5);
    setTimeout(() => ac.abort(), 50);
    await expect(waiting).rejects.toThrow(/interrupted/);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  test('learns rate and capacity from RateLimit-Limit and the policy; refuses a call the bucket can never hold', () => {
    const p = new Pacer();
    p.observe(201, { limit: 300, remaining: 300, policy: '300;w=5;burst=330' });
    expect(p.rate).toBe(60);
    expect(p.capacity).toBe(330);
    expect(p.tooExpensive(100)).toBe(false);
    expect(p.delayFor(100)).toBe(0);
    // A clock that stands still: the bucket refills with time, so a real one could give a token back
    // between the answer and the question (998 ms, not 1000, on a slow run).
    const small = new Pacer({ now: () => 1_000_000 });
    small.observe(429, { limit: 10, remaining: 3, policy: '10;w=5;burst=11' }, 45_000);
    expect(small.tooExpensive(100)).toBe(true);
    expect(small.delayFor(1)).toBe(0);
    expect(small.delayFor(5)).toBe(1000); // 2 tokens short at 2/s
  });
});

describe('pacer slots', () => {
  test('one call until the first answer; then the window opens, with or without RateLimit-* headers', async () => {
    const p = new Pacer({ initial: 4 });
    await p.acquire(1);
    let second = false;
    const waiting = p.acquire(1).then(() => (second = true));
    // A call that takes no slot, asked after it, goes ahead: the second call, had it a slot, would have
    // started first.
    await p.acquire(1, false);
    expect(second).toBe(false);
    p.observe(201, {}); // a service without rate limits
    await waiting;
    expect(second).toBe(true);
    await p.acquire(1);
    expect(p.active).toBe(3);
  });
});

describe('progress line', () => {
  test('recipients sent of the total, rate, ETA; the rate-limit wait; never wider than the terminal', () => {
    const a = progressLine({ sent: 1200, failed: 0, total: 5000, elapsedMs: 20_000, waitMs: 0 }, 80);
    expect(a).toContain('1200/5000 sent · 60/s · ETA 1m3s');
    const b = progressLine({ sent: 1200, failed: 3, total: 5000, elapsedMs: 20_000, waitMs: 11_200 }, 80);
    expect(b).toContain('rate limited, resuming in 12 s');
    expect(b).toContain('3 failed');
    for (const cols of [40, 80, 200])
      expect(progressLine({ sent: 123456, failed: 1234, total: 999999, elapsedMs: 1000, waitMs: 59_000 }, cols).length).toBeLessThan(cols);
  });
});

tmux.describe('progress bar in a terminal of 80 columns', () => {
  test('shows recipients sent of the total and the rate-limit wait, within 80 columns', async () => {
    bucket(20); // capacity 22: the 60 rows wait for the bucket
    writeFileSync(join(dir, 'users.ndjson'), ndjson(60));
    const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
    const term = openTerminal(
      ['sh', '-c', `stty cols 80 rows 24; cd '${dir}' && exec '${process.execPath}' '${bin}' trigger welcome --recipients-file users.ndjson -o json`],
      { ...env, SVC_CONFIG_DIR: dir },
    );
    try {
      await term.waitFor('/60 sent');
      const lines = term.text().split('\n');
      const bar = lines.find((l) => l.includes('/60 sent'))!;
      expect(bar.trimEnd().length).toBeLessThan(80);
      expect(bar).toMatch(/\d+\/60 sent · \d+\/s/);
      await term.waitFor('EXIT=0');
      expect(term.text()).toContain('60 recipients sent, 0 failed');
    } finally {
      term.close();
    }
  });

  test('says when it waits for the rate limit and for how long, within 80 columns', async () => {
    bucket(1); // one token a second, capacity 1: every row after the first waits about a second
    writeFileSync(join(dir, 'users.ndjson'), ndjson(5));
    const bin = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
    const term = openTerminal(
      ['sh', '-c', `stty cols 80 rows 24; cd '${dir}' && exec '${process.execPath}' '${bin}' trigger welcome --recipients-file users.ndjson -o json`],
      { ...env, SVC_CONFIG_DIR: dir },
    );
    try {
      await term.waitFor('rate limited, resuming in 1 s');
      const bar = term
        .text()
        .split('\n')
        .find((l) => l.includes('rate limited'))!;
      expect(bar).toMatch(/\d\/5 sent · \d+\/s · rate limited, resuming in 1 s/);
      expect(bar.trimEnd().length).toBeLessThan(80);
      await term.waitFor('EXIT=0');
      expect(term.text()).toContain('5 recipients sent, 0 failed');
    } finally {
      term.close();
    }
  });
});

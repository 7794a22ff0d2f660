// Faults between the tool and the service: `svc` (in-process, the real command tree and HTTP core)
// talks to the built `svc dev` through a fault-injecting proxy that drops connections before and after
// the service saw the request, holds answers past the client's timeout, answers 429/502/503 with and
// without Retry-After, and cuts bodies short. What arrives is counted in the service itself.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  always,
  ALL_FAULTS,
  firstAttemptsFail,
  FORWARDING_FAULTS,
  randomSchedule,
  startFaultProxy,
  type Fault,
  type FaultProxy,
  type LogEntry,
} from '../helpers/fault-proxy.js';
import { startDev, type DevProcess } from '../helpers/dev.js';
import { runSvc } from '../helpers/run.js';
import { allNotifications, exactlyOnce, figures, pool, tally, tryJson } from './util.js';

let dev: DevProcess;
beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
});
afterAll(() => dev.stop());

const proxies: FaultProxy[] = [];
async function proxy(opts: Omit<Parameters<typeof startFaultProxy>[0], 'target'>): Promise<FaultProxy> {
  const p = await startFaultProxy({ target: dev.baseUrl, lifetimeMs: 120_000, ...opts });
  proxies.push(p);
  return p;
}
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
});

const svcVia = (p: FaultProxy) => ({ SVC_API_KEY: dev.apiKey, SVC_BASE_URL: p.url });
const transactionIdOf = ({ body }: { body: string }) => tryJson(body)?.transactionId as string | undefined;

/** Per idempotency key: how many times the service acted on it (answered 2xx without replaying). */
function processedPerKey(log: LogEntry[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const e of log) {
    if (!e.idempotencyKey) continue;
    const acted = e.upstreamStatus !== undefined && e.upstreamStatus < 300 && !e.replayed;
    m.set(e.idempotencyKey, (m.get(e.idempotencyKey) ?? 0) + (acted ? 1 : 0));
  }
  return m;
}

describe('1,000 triggers through a faulty network', () => {
  it('end as exactly 1,000 notifications: retries reuse the idempotency key and replays are recognised', { timeout: 120_000 }, async () => {
    const N = 1000;
    const p = await proxy({ schedule: randomSchedule({ seed: 20261122, rate: 0.3, maxFaultsPerKey: 2 }), delayMs: 1500, tag: transactionIdOf });
    const ids = Array.from({ length: N }, (_, i) => `rel-net-${i}`);
    const started = Date.now();
    const runs = await pool(N, 24, (i) =>
      runSvc(['trigger', 'welcome', '--to', `rel-user-${i % 100}`, '--transaction-id', ids[i]!, '--timeout', '1s', '--retries', '5', '-o', 'json'], {
        env: svcVia(p),
      }),
    );
    const elapsed = Date.now() - started;

    const failed = runs.map((r, i) => ({ i, ...r })).filter((r) => r.code !== 0);
    expect(failed.slice(0, 3), 'every trigger command succeeds').toEqual([]);
    for (const [i, r] of runs.entries()) expect(JSON.parse(r.stdout)).toMatchObject({ status: 'processed', transactionId: ids[i] });

    // What the service holds: one notification per transaction id.
    const notifications = (await allNotifications(dev)).filter((n) => n.transactionId.startsWith('rel-net-'));
    const counts = exactlyOnce(
      ids,
      tally(notifications, (n) => n.transactionId),
    );
    expect(counts).toEqual({ found: N, duplicates: 0, lost: 0, unexpected: 0 });

    // Every retry of a trigger carried the key of its first attempt...
    const keysPerTrigger = new Map<string, Set<string>>();
    for (const e of p.log) if (e.tag) (keysPerTrigger.get(e.tag) ?? keysPerTrigger.set(e.tag, new Set()).get(e.tag)!).add(e.idempotencyKey!);
    expect(keysPerTrigger.size).toBe(N);
    expect([...keysPerTrigger.values()].filter((k) => k.size !== 1)).toEqual([]);
    // ... and the service acted on each key exactly once: every later attempt that reached it was a replay.
    const processed = processedPerKey(p.log);
    expect([...processed.values()].filter((c) => c !== 1)).toEqual([]);
    const replays = p.log.filter((e) => e.replayed).length;
    expect(replays).toBeGreaterThan(0);
    // The tool noticed each replay it received and said so.
    const finalAttempts = new Map<string, LogEntry>();
    for (const e of p.log) if (e.idempotencyKey) finalAttempts.set(e.idempotencyKey, e);
    const replayedAnswers = [...finalAttempts.values()].filter((e) => e.replayed && e.fault === 'none').length;
    expect(runs.filter((r) => r.stderr.includes('replayed its earlier answer')).length).toBe(replayedAnswers);

    const attempts = p.log.length;
    expect(p.overflow()).toBe(0);
    expect(p.faultCount()).toBeGreaterThan(N * 0.2);
    for (const f of ALL_FAULTS) expect(p.faults()[f] ?? 0, `fault ${f} injected`).toBeGreaterThan(0);
    figures('1,000 triggers through faults', {
      triggers: N,
      attempts,
      faultsInjected: p.faultCount(),
      byKind: p.faults(),
      replaysByService: replays,
      replaysReportedByCli: replayedAnswers,
      notifications: notifications.length,
      duplicates: counts.duplicates,
      lost: counts.lost,
      failedCommands: failed.length,
      elapsedMs: elapsed,
    });
  });
});

describe('triggers without transaction ids', () => {
  it('are not duplicated when the answer is lost after the service acted: the idempotency key alone protects them', { timeout: 60_000 }, async () => {
    const N = 200;
    const forwarding = [...FORWARDING_FAULTS].filter((f) => f !== 'delay');
    const p = await proxy({ schedule: randomSchedule({ seed: 11, rate: 0.3, faults: forwarding, maxFaultsPerKey: 2 }) });
    const runs = await pool(N, 16, (i) => runSvc(['trigger', 'welcome', '--to', `nokey-${i}`, '--retries', '4', '-o', 'json'], { env: svcVia(p) }));
    expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
    const ids = Array.from({ length: N }, (_, i) => `nokey-${i}`);
    const notifications = (await allNotifications(dev)).filter((n) => n.subscriber?.subscriberId?.startsWith('nokey-'));
    const counts = exactlyOnce(
      ids,
      tally(notifications, (n) => n.subscriber.subscriberId),
    );
    expect(counts).toEqual({ found: N, duplicates: 0, lost: 0, unexpected: 0 });
    // Some answers were lost after the service acted, so a naive retry would have duplicated them.
    expect(p.log.filter((e) => e.replayed).length).toBeGreaterThan(10);
    figures('triggers without transaction ids', {
      triggers: N,
      faultsInjected: p.faultCount(),
      replays: p.log.filter((e) => e.replayed).length,
      notifications: notifications.length,
      duplicates: counts.duplicates,
      lost: counts.lost,
    });
  });
});

describe('a bulk run from a file with 10% of the answers lost', () => {
  it('notifies every recipient exactly once, chunks of shared and of own payloads alike', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-rel-bulk-'));
    const rows = 1500;
    // Two of every three rows share the run's payload (triggers of up to --chunk recipients); every
    // third has a payload of its own, so it goes through the bulk trigger operation.
    const lines = Array.from({ length: rows }, (_, i) => (i % 3 === 2 ? `bulk-${i},,${i}` : `bulk-${i},R${i},`));
    writeFileSync(join(dir, 'recipients.csv'), `subscriberId,firstName,payload.row\n${lines.join('\n')}\n`);
    const p = await proxy({ schedule: randomSchedule({ seed: 5, rate: 0.1, faults: ['drop-after'], maxFaultsPerKey: 2 }) });
    const r = await runSvc(
      [
        'trigger',
        'welcome',
        '--recipients-file',
        join(dir, 'recipients.csv'),
        '--chunk',
        '10',
        '--report',
        join(dir, 'report.ndjson'),
        '--retries',
        '5',
        '--timeout',
        '5s',
        '-o',
        'json',
      ],
      { env: svcVia(p) },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.recipients).toEqual({ sent: rows, failed: 0, skipped: 0, alreadySent: 0 });

    const report = readFileSync(join(dir, 'report.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(report.filter((l) => l.status === 'sent')).toHaveLength(rows);
    const lost = p.log.filter((e) => e.fault === 'drop-after').length;
    expect(lost).toBeGreaterThanOrEqual(Math.floor(p.log.length * 0.05));
    // Each chunk was acted on once by the service, however many times its answer was lost.
    expect([...processedPerKey(p.log).values()].filter((c) => c !== 1)).toEqual([]);

    const ids = Array.from({ length: rows }, (_, i) => `bulk-${i}`);
    const notifications = (await allNotifications(dev)).filter((n) => n.subscriber?.subscriberId?.startsWith('bulk-'));
    const counts = exactlyOnce(
      ids,
      tally(notifications, (n) => n.subscriber.subscriberId),
    );
    expect(counts).toEqual({ found: rows, duplicates: 0, lost: 0, unexpected: 0 });
    figures('bulk run with lost answers', {
      recipients: rows,
      requests: p.log.length,
      answersLost: lost,
      replays: p.log.filter((e) => e.replayed).length,
      notifications: notifications.length,
      duplicates: counts.duplicates,
      lost: counts.lost,
    });
  });
});

describe('reads through a faulty network', () => {
  it('every read command retries and prints exactly what a clean network gives', { timeout: 60_000 }, async () => {
    const first = (await allNotifications(dev))[0];
    const reads = [
      ['integrations', 'active'],
      ['events', 'list', '--limit', '20'],
      ['events', 'get', first._id],
      ['subscribers', 'search', '--limit', '5'],
      ['messages', 'list', '--limit', '10'],
      ['workflow', 'get', 'welcome'],
      ['endpoints', 'list'],
      ['connections', 'list'],
      ['api', 'GET', '/v1/notifications', '-f', 'limit=3'],
    ];
    // Two faults before every answer, cycling through every kind of fault.
    // A clean attempt is forwarded to svc dev and must be answered within --timeout: 3 s leaves a loaded
    // machine room; the delay fault holds its answer longer than that.
    const p = await proxy({ schedule: firstAttemptsFail(ALL_FAULTS, 2), delayMs: 5000 });
    const env = { SVC_API_KEY: dev.apiKey, SVC_BASE_URL: dev.baseUrl };
    const clean = await Promise.all(reads.map((argv) => runSvc([...argv, '-o', 'json'], { env })));
    const faulty = await Promise.all(reads.map((argv) => runSvc([...argv, '-o', 'json', '--retries', '3', '--timeout', '3s'], { env: svcVia(p) })));
    for (const [i, argv] of reads.entries()) {
      expect(faulty[i]!.code, `${argv.join(' ')}: ${faulty[i]!.stderr}`).toBe(0);
      expect(faulty[i]!.stdout, argv.join(' ')).toBe(clean[i]!.stdout);
    }
    expect(p.log.length).toBe(reads.length * 3);
    expect(p.faultCount()).toBe(reads.length * 2);
    figures('reads through faults', { commands: reads.length, attempts: p.log.length, faultsInjected: p.faultCount(), failed: 0 });
  });

  it('--all follows every page through faults: every record once, in order', { timeout: 60_000 }, async () => {
    // Timeouts are left out here: they cost a whole --timeout each, and the test above has them.
    const kinds = ALL_FAULTS.filter((f) => f !== 'delay');
    const p = await proxy({ schedule: randomSchedule({ seed: 77, rate: 0.15, faults: kinds, maxFaultsPerKey: 2 }) });
    const env = { SVC_API_KEY: dev.apiKey, SVC_BASE_URL: dev.baseUrl };
    const clean = await runSvc(['events', 'list', '--all', '--limit', '50', '-o', 'ndjson'], { env });
    const faulty = await runSvc(['events', 'list', '--all', '--limit', '50', '-o', 'ndjson', '--retries', '4', '--timeout', '1s'], { env: svcVia(p) });
    expect(faulty.code, faulty.stderr).toBe(0);
    const ids = faulty.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)._id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(faulty.stdout).toBe(clean.stdout);
    expect(ids.length).toBeGreaterThan(1000);
    expect(p.faultCount()).toBeGreaterThan(3);
    figures('--all through faults', { records: ids.length, pages: p.log.length - p.faultCount(), faultsInjected: p.faultCount() });
  });
});

describe('after the retries run out', () => {
  const HOST = String.raw`127\.0\.0\.1:\d+`;
  const cases: [Fault, string[], number, RegExp, { code: string; hint: boolean }][] = [
    [
      'drop-before',
      ['integrations', 'active'],
      4,
      new RegExp(`^error: GET /v1/integrations/active: lost the connection to ${HOST} before an answer: connection closed by the server \\(3 attempts\\)$`),
      { code: 'network_error', hint: false },
    ],
    [
      'drop-after',
      ['trigger', 'welcome', '--to', 'out-drop-after'],
      4,
      new RegExp(`^error: POST /v1/events/trigger: lost the connection to ${HOST} before an answer: connection closed by the server \\(3 attempts\\)$`),
      { code: 'network_error', hint: true },
    ],
    [
      'delay',
      ['integrations', 'active'],
      4,
      new RegExp(`^error: GET /v1/integrations/active: no answer from ${HOST} within 2.0s \\(3 attempts\\)$`),
      { code: 'timeout', hint: false },
    ],
    [
      'delay',
      ['trigger', 'welcome', '--to', 'out-delay'],
      4,
      new RegExp(`^error: POST /v1/events/trigger: no answer from ${HOST} within 2.0s \\(3 attempts\\)$`),
      { code: 'timeout', hint: true },
    ],
    [
      '429',
      ['integrations', 'active'],
      7,
      /^error: GET \/v1\/integrations\/active failed: 429 API rate limit exceeded$/,
      { code: 'rate_limited', hint: false },
    ],
    [
      '429-retry-after',
      ['trigger', 'welcome', '--to', 'out-429'],
      7,
      /^error: POST \/v1\/events\/trigger failed: 429 API rate limit exceeded$/,
      { code: 'rate_limited', hint: false },
    ],
    ['503', ['integrations', 'active'], 1, /^error: GET \/v1\/integrations\/active failed: 503 Service Unavailable$/, { code: 'server_error', hint: false }],
    // A GET given a key anyway: a read changes nothing, so there is nothing to repeat safely.
    [
      '503',
      ['--idempotency-key', 'a-key-on-a-read', 'integrations', 'active'],
      1,
      /^error: GET \/v1\/integrations\/active failed: 503 Service Unavailable$/,
      { code: 'server_error', hint: false },
    ],
    ['503-retry-after', ['subscribers', 'search'], 1, /^error: GET \/v2\/subscribers failed: 503 Service Unavailable$/, { code: 'server_error', hint: false }],
    [
      '502',
      ['trigger', 'welcome', '--to', 'out-502'],
      1,
      /^error: POST \/v1\/events\/trigger failed: 502 Bad Gateway: <html>.*502 Bad Gateway.*$/,
      { code: 'server_error', hint: true },
    ],
    ['502-retry-after', ['events', 'list'], 1, /^error: GET \/v1\/notifications failed: 502 Bad Gateway: .*$/, { code: 'server_error', hint: false }],
    [
      'truncate',
      ['trigger', 'welcome', '--to', 'out-truncate'],
      4,
      new RegExp(`^error: POST /v1/events/trigger: the answer from ${HOST} \\(HTTP 201\\) was cut short: connection closed by the server \\(3 attempts\\)$`),
      { code: 'network_error', hint: true },
    ],
    [
      'truncate-clean',
      ['integrations', 'active'],
      4,
      new RegExp(`^error: GET /v1/integrations/active: the answer from ${HOST} \\(HTTP 200\\) was not valid JSON: cut short\\? \\(3 attempts\\)$`),
      { code: 'network_error', hint: false },
    ],
  ];
  const ran: { fault: Fault; attempts: number }[] = [];
  // Every attempt of these got a fault.
  afterAll(() => figures('retries exhausted', { cases: ran.length, faultsInjected: ran.reduce((a, r) => a + r.attempts, 0), exitCodesAsCliMd: ran.length }));

  it.concurrent.each(cases)('%s on every attempt of %j → exit %i, and the error says what happened', async (fault, argv, code, message, json) => {
    // Forwarding faults need svc dev to answer each attempt within --timeout (2 s, room for a loaded
    // machine); the delay fault holds its answer longer than that.
    const p = await proxy({ schedule: always(fault), delayMs: 5000 });
    const r = await runSvc([...argv, '--retries', '2', '--timeout', '2s'], { env: svcVia(p) });
    expect(r.code, r.stderr).toBe(code);
    // One line: the message, then the hint (when there is one) after '; '.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const at = lines[0]!.indexOf('; the service may');
    const line = at < 0 ? lines[0] : lines[0]!.slice(0, at);
    const hint = at < 0 ? undefined : lines[0]!.slice(at + 2);
    expect(line).toMatch(message);
    expect(p.log).toHaveLength(3);
    const keys = new Set(p.log.map((e) => e.idempotencyKey));
    expect(keys.size, 'every attempt carried the same key').toBe(1);
    const key = [...keys][0];
    if (json.hint) {
      expect(hint).toBe(
        `the service may have acted on it. To try again safely, run the same command with --idempotency-key ${key}: a repeat is answered from the first attempt instead of acting twice.`,
      );
    } else expect(hint).toBeUndefined();
    // What reached the service: only forwarding faults let it act, and then exactly once.
    const acted = [...processedPerKey(p.log).values()].reduce((a, b) => a + b, 0);
    expect(acted).toBe(argv[0] === 'trigger' && FORWARDING_FAULTS.has(fault) ? 1 : 0);
    if (json.hint) {
      // The hint's command does not act twice: the service answers from the first attempt.
      const again = await runSvc([...argv, '--idempotency-key', key!, '-o', 'json'], { env: { SVC_API_KEY: dev.apiKey, SVC_BASE_URL: dev.baseUrl } });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('replayed its earlier answer');
      const to = argv[argv.indexOf('--to') + 1];
      expect((await allNotifications(dev)).filter((n) => n.subscriber?.subscriberId === to)).toHaveLength(1);
    }
    const j = await runSvc([...argv, '--retries', '0', '--timeout', '2s', '-o', 'json'], { env: svcVia(p) });
    expect(j.code).toBe(code);
    const err = JSON.parse(j.stderr).error;
    expect(err.code).toBe(json.code);
    expect(err.idempotencyKey !== undefined).toBe(json.hint);
    ran.push({ fault, attempts: p.log.length });
  });
});

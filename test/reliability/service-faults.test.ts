// Faults in the service: `svc dev` killed with -9 in the middle of a stream of triggers, and several
// processes changing the same messages at once.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { svcBin } from '../helpers/bin.js';
import { runSvc } from '../helpers/run.js';
import { allNotifications, eventually, exactlyOnce, figures, pool, tally, tryJson } from './util.js';

const TERMINAL = new Set(['completed', 'failed', 'canceled', 'merged', 'skipped']);
const started: DevProcess[] = [];
const proxies: FaultProxy[] = [];
afterAll(async () => {
  await Promise.all(started.map((d) => d.stop()));
  await Promise.all(proxies.map((p) => p.close()));
});
async function dev(opts: Parameters<typeof startDev>[0]): Promise<DevProcess> {
  const d = await startDev(opts);
  started.push(d);
  return d;
}

/** Invariants of a store at rest: nothing half-written, nothing orphaned, every job finished. */
function storeInvariants(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      notifications: one('SELECT count(*) AS n FROM notifications'),
      // Each notification has one job per step of its workflow.
      incompleteNotifications: one(`SELECT count(*) AS n FROM notifications n JOIN workflows w ON w.id = n.workflow_id
        WHERE (SELECT count(*) FROM jobs j WHERE j.notification_id = n.id) != json_array_length(w.doc, '$.steps')`),
      orphanJobs: one('SELECT count(*) AS n FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = j.notification_id)'),
      orphanMessages: one(`SELECT count(*) AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = m.job_id)
        OR NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = m.notification_id)`),
      unfinishedJobs: one("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'canceled', 'merged', 'skipped')"),
      idempotencyInProgress: one("SELECT count(*) AS n FROM idempotency WHERE state = 'in_progress'"),
    };
  } finally {
    db.close();
  }
}

describe('kill -9 of svc dev during a stream of triggers', () => {
  it('loses nothing acknowledged, shows nothing half-written, resumes pending jobs, and the clients finish exactly once', { timeout: 90_000 }, async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'svc-rel-kill-')), 'dev.sqlite');
    const apiKey = 'sk_rel_kill_9f2e4c6a8b1d';
    // --time-scale: once the workflow engine runs digests, comment-digest's ten minutes last a second.
    const args = ['--no-save-profile', '--quiet', '--time-scale', '600'];
    const first = await dev({ dataFile, apiKey, args });
    // The clients talk to a proxy: across the restart the service gets a new port, the clients keep
    // their URL, and while nothing listens the proxy answers 502 as a gateway would.
    const proxy = await startFaultProxy({ target: first.baseUrl, tag: ({ body }) => tryJson(body)?.transactionId, lifetimeMs: 90_000 });
    proxies.push(proxy);
    const N = 400;
    const ids = Array.from({ length: N }, (_, i) => `kill-${i}`);
    const workflowOf = (i: number) => (i % 4 === 3 ? 'comment-digest' : 'welcome');
    const stream = pool(N, 12, (i) =>
      runSvc(['trigger', workflowOf(i), '--to', `kill-user-${i % 40}`, '--transaction-id', ids[i]!, '--retries', '8', '--timeout', '3s', '-o', 'json'], {
        env: { SVC_API_KEY: apiKey, SVC_BASE_URL: proxy.url },
      }),
    );

    // Kill it once a third of the stream has been acknowledged, with requests in flight, and right
    // after a bulk trigger has queued a thousand jobs, so that some are certainly unfinished.
    await eventually('a third of the triggers acknowledged', async () => proxy.log.filter((e) => e.upstreamStatus === 201).length >= N / 3, 30_000);
    const bulkIds = Array.from({ length: 100 }, (_, i) => `kill-bulk-${i}`);
    const bulk = await api(first, 'POST', '/v1/events/trigger/bulk', {
      events: bulkIds.map((transactionId, i) => ({ name: 'welcome', transactionId, to: Array.from({ length: 5 }, (_, k) => `kill-bulk-user-${i}-${k}`) })),
    });
    await first.kill9();
    expect(bulk.status).toBe(201);
    const acknowledged = new Set(proxy.log.filter((e) => e.upstreamStatus === 201 && e.tag).map((e) => e.tag!));
    const atKill = storeInvariants(dataFile);

    const second = await dev({ dataFile, apiKey, args });
    proxy.setTarget(second.baseUrl);
    const runs = await stream;
    expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);

    // Every trigger answered 2xx before the kill is there, and in the end every trigger exactly once.
    const notifications = await allNotifications(second);
    const seen = tally(
      notifications.filter((n) => !n.transactionId.startsWith('kill-bulk-')),
      (n) => n.transactionId,
    );
    expect([...acknowledged].filter((t) => !seen.has(t))).toEqual([]);
    const counts = exactlyOnce(ids, seen);
    expect(counts).toEqual({ found: N, duplicates: 0, lost: 0, unexpected: 0 });
    const bulkSeen = tally(
      notifications.filter((n) => n.transactionId.startsWith('kill-bulk-')),
      (n) => n.transactionId,
    );
    expect(
      bulkIds.filter((t) => bulkSeen.get(t) !== 5),
      'each acknowledged bulk event has its five notifications',
    ).toEqual([]);
    // Pending jobs (queued when it died, or delayed by a digest) run after the restart.
    await eventually(
      'every job finished',
      async () => (await allNotifications(second)).every((n) => n.jobs.every((j: { status: string }) => TERMINAL.has(j.status))),
      30_000,
    );
    expect(await second.stop()).toBe(0);

    const after = storeInvariants(dataFile);
    expect(after).toEqual({
      notifications: N + 500,
      incompleteNotifications: 0,
      orphanJobs: 0,
      orphanMessages: 0,
      unfinishedJobs: 0,
      idempotencyInProgress: 0,
    });
    // What the killed process left on disk was already whole: only unfinished jobs, never half a trigger.
    expect(atKill).toMatchObject({ incompleteNotifications: 0, orphanJobs: 0, orphanMessages: 0 });
    // There was pending work to resume.
    expect(atKill.unfinishedJobs).toBeGreaterThan(0);
    figures('kill -9 during triggers', {
      faultsInjected: 1,
      triggers: N,
      bulkEventsJustBeforeKill: bulkIds.length,
      acknowledgedBeforeKill: acknowledged.size,
      notificationsOnDiskAtKill: atKill.notifications,
      jobsUnfinishedAtKill: atKill.unfinishedJobs,
      requestsDuringOutage: proxy.log.filter((e) => e.upstreamError).length,
      notifications: notifications.length,
      duplicates: counts.duplicates,
      lost: counts.lost,
    });
  });
});

describe('svc dev killed between doing a request and recording its idempotency key as answered', () => {
  it('a retry with the same key after the restart does not act twice (no transaction id to fall back on)', { timeout: 60_000 }, async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'svc-rel-idem-')), 'dev.sqlite');
    const apiKey = 'sk_rel_idem_4b6d8f0a2c';
    const args = ['--no-save-profile', '--quiet'];
    const preload = fileURLToPath(new URL('./fixtures/die-before-idempotency-finish.mjs', import.meta.url));
    const first = await dev({ dataFile, apiKey, args, env: { NODE_OPTIONS: `--import=${preload}` } });
    const proxy = await startFaultProxy({ target: first.baseUrl, lifetimeMs: 60_000 });
    proxies.push(proxy);
    const trigger = runSvc(['trigger', 'welcome', '--to', 'idem-crash', '--retries', '8', '-o', 'json'], {
      env: { SVC_API_KEY: apiKey, SVC_BASE_URL: proxy.url },
    });
    // It dies on the trigger's first attempt; the client retries (502s from the proxy) meanwhile.
    await first.proc;
    expect(first.proc.signalCode).toBe('SIGKILL');
    const second = await dev({ dataFile, apiKey, args });
    proxy.setTarget(second.baseUrl);
    const r = await trigger;
    expect(r.code, r.stderr).toBe(0);
    const keys = new Set(proxy.log.map((e) => e.idempotencyKey));
    expect(keys.size, 'every attempt carried the same key').toBe(1);
    const notifications = (await allNotifications(second)).filter((n) => n.subscriber?.subscriberId === 'idem-crash');
    expect(notifications, 'one trigger, one notification').toHaveLength(1);
    figures('killed before the idempotency key was recorded', {
      faultsInjected: 1,
      attempts: proxy.log.length,
      notifications: notifications.length,
      duplicates: notifications.length - 1,
    });
  });
});

describe('svc dev killed after a replayed answer went out but before its original committed', () => {
  it('two concurrent triggers with one idempotency key: every 201, original or replay, is in the store after kill -9', { timeout: 60_000 }, async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'svc-rel-replay-')), 'dev.sqlite');
    const apiKey = 'sk_rel_replay_7c9e1a3b5d';
    const args = ['--no-save-profile', '--quiet'];
    const preload = fileURLToPath(new URL('./fixtures/die-at-commit-after-early-replay.mjs', import.meta.url));
    const first = await dev({ dataFile, apiKey, args, env: { NODE_OPTIONS: `--import=${preload}` } });
    const acknowledged = new Set<string>();
    let replays = 0;
    const send = async (key: string, tx: string) => {
      try {
        const r = await fetch(`${first.baseUrl}/v1/events/trigger`, {
          method: 'POST',
          headers: { authorization: `ApiKey ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ name: 'otp', to: 'replay-crash', transactionId: tx, payload: { code: '1' } }),
        });
        const body = (await r.json()) as { data?: { transactionId?: string } };
        if (r.status === 201 && body.data?.transactionId) {
          acknowledged.add(body.data.transactionId);
          if (r.headers.get('idempotency-replay') === 'true') replays++;
        }
      } catch {
        // The process died with the request in flight: not acknowledged.
      }
    };
    // Pairs on two connections, the second 15 ms after the first: it finds the first's answer kept
    // but (the commit being slow) not yet committed.
    for (let i = 0; i < 20 && first.proc.exitCode === null && first.proc.signalCode === null; i++) {
      const a = send(`pair-${i}`, `replay-${i}`);
      await new Promise((r) => setTimeout(r, 15));
      await Promise.all([a, send(`pair-${i}`, `replay-${i}`)]);
    }
    await first.kill9();
    expect(replays, 'some second requests were answered as replays').toBeGreaterThan(0);
    const second = await dev({ dataFile, apiKey, args });
    const seen = new Set((await allNotifications(second)).map((n) => n.transactionId as string));
    const lost = [...acknowledged].filter((tx) => !seen.has(tx));
    figures('replays racing their original commit, then kill -9', { acknowledged: acknowledged.size, replays, lost: lost.length });
    expect(lost, 'acknowledged but not in the store').toEqual([]);
  });
});

describe('several processes changing the same messages', () => {
  it('mark-as from two processes while a third triggers: every update lands, each call applies whole', { timeout: 60_000 }, async () => {
    const d = await dev({ args: ['--no-save-profile', '--quiet'] });
    const sub = 'concurrent-reader';
    const M = 40;
    await pool(M, 8, (i) => api(d, 'POST', '/v1/events/trigger', { name: 'welcome', to: sub, transactionId: `mark-${i}` }));
    const inbox = async () =>
      (await api(d, 'GET', `/v1/messages?subscriberId=${sub}&channel=in_app&limit=1000`)).body.data as {
        _id: string;
        read: boolean;
        seen: boolean;
        transactionId: string;
      }[];
    await eventually('the in-app messages exist', async () => (await inbox()).length === M);
    const ids = (await inbox()).sort((a, b) => a.transactionId.localeCompare(b.transactionId, 'en', { numeric: true })).map((m) => m._id);
    const env = { SVC_API_KEY: d.apiKey, SVC_BASE_URL: d.baseUrl };
    const readSet = ids.slice(0, 25);
    const seenSet = ids.slice(15);
    const rounds = 4;
    const chain = (argv: () => string[]) =>
      (async () => {
        const codes: number[] = [];
        for (let k = 0; k < rounds; k++) codes.push((await svcBin(argv(), { env })).exitCode ?? -1);
        return codes;
      })();

    // Stage 1, overlapping sets, operations that commute: the final state is known whatever the order.
    const [a, b, c] = await Promise.all([
      chain(() => ['messages', 'mark-as', sub, 'read', ...readSet]),
      chain(() => ['messages', 'mark-as', sub, 'seen', ...seenSet]),
      chain(() => ['trigger', 'welcome', '--to', sub]),
    ]);
    expect([...a, ...b, ...c]).toEqual(Array(rounds * 3).fill(0));
    await eventually('the triggered messages exist', async () => (await inbox()).length === M + rounds);
    const byId = new Map((await inbox()).map((m) => [m._id, m]));
    const lost = ids.filter((id, i) => {
      const m = byId.get(id)!;
      const wantRead = i < 25;
      const wantSeen = true;
      return m.read !== wantRead || m.seen !== wantSeen;
    });
    expect(lost, 'messages whose update was lost').toEqual([]);
    const fresh = [...byId.values()].filter((m) => !ids.includes(m._id));
    expect(fresh.every((m) => !m.read && !m.seen)).toBe(true);

    // Stage 2, conflicting operations on all of them: read against unread. Either may win, but one call
    // applies to every message it names at once, so the messages end all read or all unread.
    const [r, u] = await Promise.all([chain(() => ['messages', 'mark-as', sub, 'read', ...ids]), chain(() => ['messages', 'mark-as', sub, 'unread', ...ids])]);
    expect([...r, ...u]).toEqual(Array(rounds * 2).fill(0));
    const final = (await inbox()).filter((m) => ids.includes(m._id));
    expect(new Set(final.map((m) => m.read)).size, 'all read or all unread').toBe(1);
    expect(final.every((m) => m.seen)).toBe(true);
    figures('concurrent mark-as', {
      processes: 5,
      markAsCalls: rounds * 4,
      triggers: rounds,
      messages: byId.size,
      lostUpdates: lost.length,
      mixedFinalState: 0,
    });
  });
});

// `svc dev reset` at 10,000 events (issue 32's goal: at most 50 ms): a store holding the demo data and
// 10,000 delivered `welcome` events (their jobs, execution details, in-app and email messages) is put
// back to its start state by POST /v1/svc-dev/reset, through the HTTP app (inject), round after round.
// Beside it, in the same run, the other way to start clean: closing the service and opening a new one.
// Reported per store kind (in memory, a file): the reset's answer time (median and worst of the
// rounds) and the store's own copy time it reports, against the goal and the restart.
// Run: node bench/reset.mjs [--events 10000] [--rounds 5] [--kind memory|file|both]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, loadServer, caller } from './lib/server-bundle.mjs';

const EVENTS = Number(arg('events', 10_000));
const ROUNDS = Number(arg('rounds', 5));
const KINDS = arg('kind', 'both') === 'both' ? ['memory', 'file'] : [arg('kind')];
const GOAL_MS = 50;
const KEY = 'sk_bench_reset_0123456789';
const { createLocalService, ManualClock } = await loadServer(arg('src'));
const dir = mkdtempSync(join(tmpdir(), 'svc-reset-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

const call = (svc, ...a) => caller(svc, KEY)(...a);

async function fill(svc) {
  for (let i = 0; i < EVENTS; i += 100) {
    const events = Array.from({ length: Math.min(100, EVENTS - i) }, (_, j) => ({
      name: 'welcome',
      to: `bench-${(i + j) % 2000}`,
      payload: { name: 'Bench' },
    }));
    await call(svc, 'POST', '/v1/events/trigger/bulk', { events });
  }
  await svc.runner.idle();
  const n = svc.store.db
    .prepare('SELECT (SELECT count(*) FROM notifications) AS events, (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM jobs) AS jobs')
    .get();
  if (n.events < EVENTS) throw new Error(`only ${n.events} events stored`);
  return n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const open = (kind, i) =>
  createLocalService({
    data: kind === 'memory' ? ':memory:' : join(dir, `reset-${i}.sqlite`),
    apiKey: KEY,
    clock: new ManualClock(Date.parse('2026-01-01T00:00:00.000Z')),
  });

let files = 0;
for (const kind of KINDS) {
  const svc = open(kind, files++);
  const answered = [];
  const copied = [];
  let held;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      held = await fill(svc);
      const t = performance.now();
      const res = await call(svc, 'POST', '/v1/svc-dev/reset', {});
      answered.push(performance.now() - t);
      copied.push(res.data.ms);
      if (res.data.events !== 0) throw new Error('the reset left events');
    }
  } finally {
    await svc.close();
  }
  // The other way to start clean: stop the service and open a new one (the demo data written again).
  const restarts = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    const fresh = open(kind, files++);
    await fresh.close();
    restarts.push(performance.now() - t);
  }
  console.log(
    `${kind.padEnd(6)} reset at ${EVENTS} events (${held.messages} messages, ${held.jobs} jobs): answered in median ${median(answered).toFixed(1)} ms, ` +
      `worst ${Math.max(...answered).toFixed(1)} ms (store copy ${median(copied).toFixed(1)} ms) | goal ≤ ${GOAL_MS} ms: ${Math.max(...answered) <= GOAL_MS ? 'met' : 'NOT met'} | ` +
      `restart (close + open a new service) median ${median(restarts).toFixed(1)} ms`,
  );
}

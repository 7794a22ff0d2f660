// The server-side CPU cost of a trigger without HTTP: the route's work (zod validation of the body,
// the trigger in a group-commit batch, COMMIT) and the delivery of its jobs by the runner, in process
// on a file store, for `svc dev`'s bench workflow (otp: one SMS step, the body of
// bench/server-trigger.mjs). Batches of --batch triggers share one commit, as 10 connections' requests
// do. Steadier than the HTTP bench for comparing store and trigger changes; with --baseline-src the
// same load runs on another source tree in the same run (alternating, median of --runs).
// Run: node bench/trigger-inprocess.mjs [--n 20000] [--batch 10] [--runs 5] [--baseline-src .tmp-head/src]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, loadServer } from './lib/server-bundle.mjs';

const N = Number(arg('n', 20000));
const BATCH = Number(arg('batch', 10));
const runs = Number(arg('runs', 5));
const baselineSrc = arg('baseline-src');
const KEY = 'sk_bench_inproc_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'svc-inproc-'));
const extra = [
  ['trigger', 'server/trigger.ts'],
  ['operations', 'api/operations.ts'],
];
const builds = [['current', await loadServer(undefined, extra)]];
if (baselineSrc) builds.unshift(['baseline', await loadServer(baselineSrc, extra)]);
const body = { name: 'otp', to: 'ada', payload: { code: '123456' } };
const withTick = process.argv.includes('--tick');
const tick = () => new Promise((r) => setImmediate(r));

let n = 0;
async function measure(mod) {
  const { createLocalService, trigger, operations } = mod;
  const svc = createLocalService({ data: join(dir, `s${++n}.sqlite`), apiKey: KEY });
  const env = svc.environment;
  const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
  const schema = operations.triggerEvent.body;
  let inTrigger = 0n;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i += BATCH) {
    const waits = [];
    for (let j = 0; j < BATCH; j++) {
      const s = process.hrtime.bigint();
      const { committed } = svc.store.grouped(() => {
        const result = trigger(deps, env, schema.parse(JSON.parse(JSON.stringify(body))), 'http://127.0.0.1', true);
        return JSON.stringify({ data: result });
      });
      inTrigger += process.hrtime.bigint() - s;
      waits.push(committed);
    }
    await Promise.all(waits);
    // As under HTTP load, the next batch's triggers come right after the replies (no idle turn of
    // the event loop in between); --tick leaves one.
    if (withTick) await tick();
  }
  const accepted = performance.now() - t0;
  await svc.runner.idle();
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const open = svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'pending', 'running')").get().n;
  await svc.close();
  if (open !== 0) throw new Error(`${open} jobs left`);
  return { cpu: (cpu.user + cpu.system) / N, trig: Number(inTrigger) / 1000 / N, accepted: N / (accepted / 1000), total: N / (total / 1000) };
}

const all = new Map(builds.map(([k]) => [k, []]));
try {
  for (const [, mod] of builds) await measure(mod); // warm-up
  for (let r = 0; r < runs; r++) for (const [k, mod] of builds) all.get(k).push(await measure(mod));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${N} triggers (otp, 1 SMS job each) in batches of ${BATCH}, file store, median of ${runs}`);
for (const [k, rs] of all) {
  const m = (f) => median(rs.map(f));
  console.log(
    `${k.padEnd(9)} cpu ${m((r) => r.cpu)
      .toFixed(1)
      .padStart(
        6,
      )} µs/trigger (trigger+validation in its savepoint ${m((r) => r.trig).toFixed(1)} µs)   accepted ${m((r) => r.accepted).toFixed(0)}/s   delivered ${m((r) => r.total).toFixed(0)}/s`,
  );
}

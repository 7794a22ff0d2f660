// Bulk trigger throughput: `svc trigger --recipients-file` with 10,000 and 100,000 recipients against
// `svc dev`, beside, in the same run and against a fresh `svc dev` each:
//   - autocannon sending the same request bodies (100 recipients each, same headers) to the same
//     endpoint with 10 connections: the limit of the server;
//   - a loop sending them one request at a time.
// Also the bulk run's peak RSS (it streams the file: memory must not grow with it).
// Run after `npm run build`: node bench/bulk.mjs throughput [sizes, default 10000,100000]
//
// Without `throughput` (the default): bulk runs under rate limits, against `svc dev
// --rate-limit` at the free and the top tier (`node bench/bulk.mjs free` or `top` for one), with 5,000
// NDJSON rows each with its own payload (bulk calls, 100 tokens each) and 20,000 CSV rows (triggers of
// 100 recipients, 1 token each). Each run must exit 0 with 0 failed and store exactly one event per
// recipient (counted in svc dev's SQLite file); its recipients/s is printed beside what the tier allows
// (the bucket's burst, then its rate; the ground truth's token bucket: window 5 s, burst +10%). A file
// that fits in the burst is not limited by the tier: its bar is the same file sent to a `svc dev`
// without limits, best of 5 runs interleaved with the limited ones (the machine is shared).
// Measured 2026-11-25 14:56-14:59 UTC, 2 cores shared with three other engineers' work (load average
// 4-9): free: NDJSON 64/s of 64/s allowed (100%, 78.1 s), CSV 9,070/s vs 8,379/s unlimited (108%);
// top: NDJSON 1,673/s of 1,765/s allowed (95%, 3.0 s), CSV 6,158/s vs 5,951/s (103%); every run exit 0,
// 0 failed, one event per recipient. Earlier runs of the burst-sized CSV against a single baseline
// (or best of 3) gave 61-133%: the machine's noise, not the tier (no 429 and no wait in those runs).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { BIN, createBenchWorkflow, startDev } from './lib/dev.mjs';

function csv(dir, n) {
  const path = join(dir, `recipients-${n}.csv`);
  const lines = ['subscriberId,firstName'];
  for (let i = 0; i < n; i++) lines.push(`user-${i},Name ${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

if (process.argv[2] !== 'throughput') {
  // node bench/bulk.mjs [free,top]: the rate-limit tiers.
  await tiers();
  process.exit(0);
}
const sizes = (process.argv[3] ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const CHUNK = 100;
function rate(count, ms) {
  return Math.round((count / ms) * 1000);
}

function bodies(n, workflow) {
  const out = [];
  for (let c = 0; c < n / CHUNK; c++) {
    const to = [];
    for (let i = c * CHUNK; i < (c + 1) * CHUNK && i < n; i++) to.push({ subscriberId: `user-${i}`, firstName: `Name ${i}` });
    out.push({ name: workflow, to });
  }
  return out;
}

async function measureSvc(n) {
  const dev = await startDev();
  const wf = await createBenchWorkflow(dev);
  const file = csv(dev.dir, n);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BIN, 'trigger', wf, '--recipients-file', file, '-o', 'json', '-q'], {
    env: dev.env,
    encoding: 'utf8',
  });
  const ms = performance.now() - t0;
  await dev.stop();
  if (r.status !== 0) throw new Error(`svc bulk failed: ${r.stderr}`);
  const summary = JSON.parse(r.stdout);
  const rssKb = Number(r.stderr.trim().split('\n').pop());
  return { ms, sendingMs: summary.elapsedMs, requests: summary.requests.sent, sent: summary.recipients.sent, rssMb: rssKb / 1024 };
}

async function measureAutocannon(n) {
  const dev = await startDev();
  const wf = await createBenchWorkflow(dev);
  const all = bodies(n, wf);
  let i = 0;
  const t0 = performance.now();
  const result = await autocannon({
    url: `${dev.baseUrl}/v1/events/trigger`,
    connections: 10,
    amount: all.length,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const body = all[i++ % all.length];
          return {
            ...req,
            headers: { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify({ ...body, transactionId: randomUUID() }),
          };
        },
      },
    ],
  });
  const ms = performance.now() - t0;
  await dev.stop();
  const ok = result['2xx'];
  if (ok !== all.length) throw new Error(`autocannon: ${ok} of ${all.length} answered 2xx`);
  return { ms, requests: ok };
}

async function measureLoop(n) {
  const dev = await startDev();
  const wf = await createBenchWorkflow(dev);
  const all = bodies(n, wf);
  const t0 = performance.now();
  for (const body of all) {
    const res = await request(`${dev.baseUrl}/v1/events/trigger`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ ...body, transactionId: randomUUID() }),
    });
    await res.body.text();
    if (res.statusCode !== 201) throw new Error(`loop: ${res.statusCode}`);
  }
  const ms = performance.now() - t0;
  await dev.stop();
  return { ms, requests: all.length };
}

console.log(`node ${process.version}, ${cpus().length} cores; ${CHUNK} recipients per request; fresh file store for each measurement\n`);
for (const n of sizes) {
  const svc = await measureSvc(n);
  const ac = await measureAutocannon(n);
  const loop = await measureLoop(n);
  console.log(`${n.toLocaleString('en')} recipients (${n / CHUNK} requests)`);
  console.log(
    `  svc trigger --recipients-file   ${(svc.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(svc.sent, svc.ms)).padStart(6)} recipients/s  ${String(rate(svc.requests, svc.ms)).padStart(5)} req/s  peak RSS ${svc.rssMb.toFixed(0)} MB (whole process)`,
  );
  console.log(
    `    of which sending              ${(svc.sendingMs / 1000).toFixed(1).padStart(6)} s  ${String(rate(svc.sent, svc.sendingMs)).padStart(6)} recipients/s  ${String(rate(svc.requests, svc.sendingMs)).padStart(5)} req/s  (without start-up, as autocannon is timed)`,
  );
  console.log(
    `  autocannon, 10 connections      ${(ac.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(ac.requests * CHUNK, ac.ms)).padStart(6)} recipients/s  ${String(rate(ac.requests, ac.ms)).padStart(5)} req/s`,
  );
  console.log(
    `  one request at a time           ${(loop.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(loop.requests * CHUNK, loop.ms)).padStart(6)} recipients/s  ${String(rate(loop.requests, loop.ms)).padStart(5)} req/s`,
  );
  console.log(
    `  svc / autocannon: ${((rate(svc.requests, svc.sendingMs) / rate(ac.requests, ac.ms)) * 100).toFixed(0)}% of the server's limit while sending, ${((rate(svc.requests, svc.ms) / rate(ac.requests, ac.ms)) * 100).toFixed(0)}% counting process start-up (goal ≥ 80%)\n`,
  );
}

// Constant memory: the whole file is read and cut into chunks (--dry-run sends nothing). Peak RSS is
// measured at 10,000 and 1,000,000 rows, and the 1,000,000-row run is repeated with V8's old space
// capped at 32 MB: with a leak (rows kept) it would run out of memory; bounded, it completes.
{
  const dev = await startDev({ inMemory: true });
  const wf = await createBenchWorkflow(dev);
  const run = (file, nodeArgs = []) => {
    const r = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', process.execPath, ...nodeArgs, BIN, 'trigger', wf, '--recipients-file', file, '--dry-run', '-o', 'json', '-q'],
      { env: dev.env, encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.slice(-500)}`);
    return Number(r.stderr.trim().split('\n').pop()) / 1024;
  };
  const small = run(csv(dev.dir, 10_000));
  const bigFile = csv(dev.dir, 1_000_000);
  const big = run(bigFile);
  const capped = run(bigFile, ['--max-old-space-size=32']);
  await dev.stop();
  console.log(`reading the file (--dry-run): peak RSS ${small.toFixed(0)} MB at 10,000 rows, ${big.toFixed(0)} MB at 1,000,000 rows;`);
  console.log(
    `  1,000,000 rows with a 32 MB old-space cap: completes at ${capped.toFixed(0)} MB peak RSS (memory is bounded; the rest is V8 growing its heap because it may)`,
  );
}

async function tiers() {
  const TIERS = { free: 60, top: 600 }; // trigger tokens per second (src/server/rate-limit.ts)
  const WINDOW = 5;
  const BURST = 0.1;
  const ndjson = (dir, n) => {
    const path = join(dir, `own-${n}.ndjson`);
    const lines = [];
    for (let i = 0; i < n; i++)
      lines.push(JSON.stringify({ subscriberId: `user-${i}`, firstName: `Name ${i}`, payload: { n: i, plan: i % 3 ? 'pro' : 'free' } }));
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const runOne = async (extraArgs, make) => {
    const dev = await startDev({ extraArgs });
    const wf = await createBenchWorkflow(dev);
    const file = make(dev.dir);
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, 'trigger', wf, '--recipients-file', file, '-o', 'json', '-q'], { env: dev.env, encoding: 'utf8' });
    const ms = performance.now() - t0;
    await dev.stop();
    let summary;
    try {
      summary = JSON.parse(r.stdout);
    } catch {
      throw new Error(`exit ${r.status}: ${r.stderr.slice(-500)}`);
    }
    // Exactly once, counted in the service's own store: one event per recipient, nobody twice.
    const db = new Database(join(dev.dir, 'bench.sqlite'), { readonly: true });
    const events = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT subscriber_id) AS people FROM notifications').get();
    db.close();
    return { ms, exit: r.status, summary, stderr: r.stderr, events };
  };
  /** Best of `times` runs, each beside a baseline run (no --rate-limit) in the same moment: the machine is shared. */
  const paired = async (extraArgs, make, times) => {
    let best;
    let bestBase;
    for (let i = 0; i < times; i++) {
      const b = await runOne([], make);
      const r = await runOne(extraArgs, make);
      if (!bestBase || rateOf(b) > rateOf(bestBase)) bestBase = b;
      if (!best || rateOf(r) > rateOf(best)) best = r;
      // Every run must be right, not only the fastest.
      if (r.summary.recipients.failed || b.summary.recipients.failed) best = r.summary.recipients.failed ? r : b;
      if (best.summary.recipients.failed) break;
    }
    return { r: best, base: bestBase };
  };
  const rateOf = (r) => rate(r.summary.recipients.sent, r.summary.elapsedMs);
  /** What the bucket allows for `n` recipients costing `costPer` tokens each: the burst at once, then the rate. */
  const allowed = (rate, n, costPer) => {
    const capacity = Math.round(rate * WINDOW * (1 + BURST));
    const seconds = Math.max(0, n * costPer - capacity) / rate;
    return seconds > 0 ? Math.round(n / seconds) : Infinity;
  };
  const only = process.argv[2] ? process.argv[2].split(',') : Object.keys(TIERS);
  console.log(`node ${process.version}, ${cpus().length} cores, shared with other work (figures are noisy); a fresh svc dev for each run\n`);
  console.log('tier  file                          rows    sent failed  events  recipients/s  allowed/s     %  s');
  let ok = true;
  for (const [tier, perSecond] of Object.entries(TIERS).filter(([t]) => only.includes(t))) {
    for (const [label, n, make, costPer] of [
      ['NDJSON, own payloads (bulk)', 5000, (dir) => ndjson(dir, 5000), 1],
      ['CSV (triggers of 100)', 20_000, (dir) => csv(dir, 20_000), 1 / 100],
    ]) {
      const allow = allowed(perSecond, n, costPer);
      // A run that fits in the burst is not limited by the tier: the server's own pace is the bar,
      // measured beside it (best of 5 each, interleaved, as the machine is shared).
      const { r, base } = Number.isFinite(allow) ? { r: await runOne(['--rate-limit', tier], make) } : await paired(['--rate-limit', tier], make, 5);
      const s = r.summary;
      const got = rateOf(r);
      const bar = Number.isFinite(allow) ? allow : rateOf(base);
      const pct = Math.round((got / bar) * 100);
      const once = r.events.n === n && r.events.people === n;
      const pass = r.exit === 0 && s.recipients.failed === 0 && s.recipients.sent === n && once && pct >= 90;
      ok &&= pass;
      console.log(
        `${tier.padEnd(5)} ${label.padEnd(29)} ${String(n).padStart(6)} ${String(s.recipients.sent).padStart(6)} ${String(s.recipients.failed).padStart(6)} ${String(r.events.n).padStart(7)} ${String(got).padStart(13)} ${String(bar).padStart(10)}${Number.isFinite(allow) ? ' ' : '*'} ${String(pct).padStart(4)}  ${(s.elapsedMs / 1000).toFixed(1)}  exit ${r.exit}${once ? '' : ` (${r.events.people} distinct recipients: NOT exactly once)`} ${pass ? 'ok' : 'BELOW GOAL'}`,
      );
    }
  }
  console.log(
    `\nallowed/s: the bucket's burst (${WINDOW} s of the rate + ${BURST * 100}%) at once, then the rate, for the file's cost (a bulk call 100 tokens, a trigger 1);` +
      '\n  * the file fits in the burst: the bar is svc dev without --rate-limit, best of 5 runs interleaved with the limited ones.' +
      '\nevents: events the service stored, counted in its SQLite file (must equal rows, one per distinct recipient).',
  );
  if (!ok) process.exitCode = 1;
}

// Bulk trigger throughput: `svc trigger --recipients-file` with 10,000 and 100,000 recipients against
// `svc dev`, beside, in the same run and against a fresh `svc dev` each:
//   - autocannon sending the same request bodies (100 recipients each, same headers) to the same
//     endpoint with 10 connections: the limit of the server;
//   - a loop sending them one request at a time.
// Also the bulk run's peak RSS (it streams the file: memory must not grow with it).
// Run after `npm run build`: node bench/bulk.mjs [sizes, default 10000,100000]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { request } from 'undici';
import { BIN, createBenchWorkflow, startDev } from './lib/dev.mjs';

const sizes = (process.argv[2] ?? '10000,100000').split(',').map(Number).filter((n) => n > 0);
const CHUNK = 100;

function csv(dir, n) {
  const path = join(dir, `recipients-${n}.csv`);
  const lines = ['subscriberId,firstName'];
  for (let i = 0; i < n; i++) lines.push(`user-${i},Name ${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
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
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, BIN, 'trigger', wf, '--recipients-file', file, '-o', 'json', '-q'], { env: dev.env, encoding: 'utf8' });
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
    requests: [{
      method: 'POST',
      setupRequest: (req) => {
        const body = all[i++ % all.length];
        return {
          ...req,
          headers: { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({ ...body, transactionId: randomUUID() }),
        };
      },
    }],
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

const rate = (count, ms) => Math.round((count / ms) * 1000);
console.log(`node ${process.version}, ${cpus().length} cores; ${CHUNK} recipients per request; fresh file store for each measurement\n`);
for (const n of sizes) {
  const svc = await measureSvc(n);
  const ac = await measureAutocannon(n);
  const loop = await measureLoop(n);
  console.log(`${n.toLocaleString('en')} recipients (${n / CHUNK} requests)`);
  console.log(`  svc trigger --recipients-file   ${(svc.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(svc.sent, svc.ms)).padStart(6)} recipients/s  ${String(rate(svc.requests, svc.ms)).padStart(5)} req/s  peak RSS ${svc.rssMb.toFixed(0)} MB (whole process)`);
  console.log(`    of which sending              ${(svc.sendingMs / 1000).toFixed(1).padStart(6)} s  ${String(rate(svc.sent, svc.sendingMs)).padStart(6)} recipients/s  ${String(rate(svc.requests, svc.sendingMs)).padStart(5)} req/s  (without start-up, as autocannon is timed)`);
  console.log(`  autocannon, 10 connections      ${(ac.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(ac.requests * CHUNK, ac.ms)).padStart(6)} recipients/s  ${String(rate(ac.requests, ac.ms)).padStart(5)} req/s`);
  console.log(`  one request at a time           ${(loop.ms / 1000).toFixed(1).padStart(6)} s  ${String(rate(loop.requests * CHUNK, loop.ms)).padStart(6)} recipients/s  ${String(rate(loop.requests, loop.ms)).padStart(5)} req/s`);
  console.log(`  svc / autocannon: ${((rate(svc.requests, svc.sendingMs) / rate(ac.requests, ac.ms)) * 100).toFixed(0)}% of the server's limit while sending, ${((rate(svc.requests, svc.ms) / rate(ac.requests, ac.ms)) * 100).toFixed(0)}% counting process start-up (goal ≥ 80%)\n`);
}

// Constant memory: the whole file is read and cut into chunks (--dry-run sends nothing). Peak RSS is
// measured at 10,000 and 1,000,000 rows, and the 1,000,000-row run is repeated with V8's old space
// capped at 32 MB: with a leak (rows kept) it would run out of memory; bounded, it completes.
{
  const dev = await startDev({ inMemory: true });
  const wf = await createBenchWorkflow(dev);
  const run = (file, nodeArgs = []) => {
    const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...nodeArgs, BIN, 'trigger', wf, '--recipients-file', file, '--dry-run', '-o', 'json', '-q'], { env: dev.env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr.slice(-500)}`);
    return Number(r.stderr.trim().split('\n').pop()) / 1024;
  };
  const small = run(csv(dev.dir, 10_000));
  const bigFile = csv(dev.dir, 1_000_000);
  const big = run(bigFile);
  const capped = run(bigFile, ['--max-old-space-size=32']);
  await dev.stop();
  console.log(`reading the file (--dry-run): peak RSS ${small.toFixed(0)} MB at 10,000 rows, ${big.toFixed(0)} MB at 1,000,000 rows;`);
  console.log(`  1,000,000 rows with a 32 MB old-space cap: completes at ${capped.toFixed(0)} MB peak RSS (memory is bounded; the rest is V8 growing its heap because it may)`);
}

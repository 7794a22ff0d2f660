// Export: `svc events list --all -o ndjson` over 1,000 and then 50,000 events of `svc dev`: wall time and
// peak RSS, beside a curl loop fetching the same pages (limit 50) in the same run.
// Goals: peak RSS at the largest count within 1.2× of that at 1,000; svc at least 1.5× faster than the curl
// loop (curl pays a process and a connection per page, svc keeps one connection).
// Run after `npm run build`: [ROUNDS=3] node bench/export.mjs [counts...]   (default: 1000 50000; e.g. 1000 100000)
//
// FEED=1 node bench/export.mjs 1000 20000 100000 1000000: the same export against a loopback feed that
// serves N copies of a real event (event-fixture.json, each with its own _id and transactionId) without
// a store, so that counts up to a million are quick to reach; only svc's peak RSS is compared (no curl).
// BASE_BIN=<another checkout>/bin/svc.js runs that build's export too, beside this one, in the same run
// (against the same feed or svc dev): e.g. main's, from `git archive main | tar -x -C .tmp/base` and its
// own build.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { BIN, api, createBenchWorkflow, startDev } from './lib/dev.mjs';

const FEED = process.env.FEED === '1';
let feedCount = 0;

/** A feed of `feedCount` events, newest first, paged like GET /v1/notifications. */
async function startFeed() {
  const fixture = JSON.parse(readFileSync(new URL('./lib/event-fixture.json', import.meta.url), 'utf8'));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://feed');
    const page = Number(url.searchParams.get('page') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const data = [];
    for (let i = page * limit; i < Math.min(feedCount, (page + 1) * limit); i++) {
      data.push({ ...fixture, _id: (0x6761f0c2a3b4c5d6e7f00000n + BigInt(i)).toString(16), transactionId: `txn-${i}` });
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data, hasMore: (page + 1) * limit < feedCount, pageSize: limit, page }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { env: { ...process.env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench_feed_0123456789', NO_COLOR: '1' }, stop: () => server.close() };
}

const dev = FEED ? await startFeed() : await startDev();
const wf = FEED ? undefined : await createBenchWorkflow(dev);
let created = 0;

function addEvents(n) {
  const file = join(dev.dir, `more-${created}.csv`);
  const lines = ['subscriberId,firstName'];
  for (let i = created; i < created + n; i++) lines.push(`user-${i},Name ${i}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = spawnSync(process.execPath, [BIN, 'trigger', wf, '--recipients-file', file, '-q', '-o', 'json'], { env: dev.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  created += n;
}

async function settle() {
  // Let the runner finish delivering so the export reads a quiet service.
  for (;;) {
    const page = await api(dev, 'GET', '/v1/notifications?limit=1&page=0');
    if (page.data.every((n) => n.jobs.every((j) => ['completed', 'failed', 'skipped'].includes(j.status)))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Spawned without blocking: with FEED=1 the feed answers from this process. */
async function exportWithSvc(bin = BIN) {
  const t0 = performance.now();
  const child = spawn('bash', ['-c', `/usr/bin/time -f %M ${process.execPath} ${bin} events list --all -o ndjson -q > /dev/null`], {
    env: dev.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'close');
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(stderr);
  return { ms, rssMb: Number(stderr.trim().split('\n').pop()) / 1024 };
}

function exportWithCurl(count) {
  const pages = Math.ceil(count / 50);
  const script = `for p in $(seq 0 ${pages - 1}); do curl -s -f -H "authorization: ApiKey ${dev.apiKey}" "${dev.baseUrl}/v1/notifications?limit=50&page=$p" > /dev/null || exit 1; done`;
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`curl loop failed: ${r.stderr}`);
  return { ms: performance.now() - t0 };
}

console.log(
  `node ${process.version}, ${cpus().length} cores; ${FEED ? 'a loopback feed of copies of one real event' : 'svc dev with a file store'}; 50 events per page\n`,
);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const targets = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
if (targets.length === 0) targets.push(1000, 50000);
const results = {};
const BASE_BIN = process.env.BASE_BIN;
const baseResults = {};
for (const target of targets) {
  if (FEED) feedCount = target;
  else {
    addEvents(target - created);
    await settle();
  }
  // svc and curl in turn, ROUNDS times (medians): load from other processes falls on both alike.
  const runs = { svc: [], curl: [], base: [] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.svc.push(await exportWithSvc());
    runs.curl.push(FEED ? { ms: Number.NaN } : exportWithCurl(target));
    if (BASE_BIN && !FEED) runs.base.push(await exportWithSvc(BASE_BIN));
  }
  const median = (xs, k) => [...xs].sort((a, b) => a[k] - b[k])[Math.floor(xs.length / 2)][k];
  const svc = { ms: median(runs.svc, 'ms'), rssMb: median(runs.svc, 'rssMb') };
  const curl = { ms: median(runs.curl, 'ms') };
  results[target] = svc;
  const each =
    ROUNDS > 1
      ? `  (svc ${runs.svc.map((x) => (x.ms / 1000).toFixed(1)).join('/')} s, curl ${runs.curl.map((x) => (x.ms / 1000).toFixed(1)).join('/')} s)`
      : '';
  if (FEED) {
    const base = BASE_BIN ? await exportWithSvc(BASE_BIN) : undefined;
    if (base) baseResults[target] = base;
    const beside = base ? `   |   baseline build ${(base.ms / 1000).toFixed(2)} s, peak RSS ${base.rssMb.toFixed(0)} MB` : '';
    console.log(`${target.toLocaleString('en')} events: svc ${(svc.ms / 1000).toFixed(2)} s, peak RSS ${svc.rssMb.toFixed(0)} MB${beside}`);
    continue;
  }
  const base = runs.base.length ? { ms: median(runs.base, 'ms'), rssMb: median(runs.base, 'rssMb') } : undefined;
  if (base) baseResults[target] = base;
  const beside = base
    ? `   |   baseline build ${(base.ms / 1000).toFixed(2)} s, peak RSS ${base.rssMb.toFixed(0)} MB, ${(curl.ms / base.ms).toFixed(2)}× curl`
    : '';
  console.log(
    `${target.toLocaleString('en')} events: svc ${(svc.ms / 1000).toFixed(2)} s, peak RSS ${svc.rssMb.toFixed(0)} MB   |   curl loop ${(curl.ms / 1000).toFixed(2)} s   svc is ${(curl.ms / svc.ms).toFixed(2)}× as fast (goal ≥ 1.5×)${beside}${each}`,
  );
}
const [small, large] = [targets[0], targets[targets.length - 1]];
if (large !== small)
  console.log(
    `\npeak RSS at ${large.toLocaleString('en')} / at ${small.toLocaleString('en')}: ${(results[large].rssMb / results[small].rssMb).toFixed(2)}× (goal ≤ 1.2×)`,
  );
if (large !== small && BASE_BIN) console.log(`baseline build: ${(baseResults[large].rssMb / baseResults[small].rssMb).toFixed(2)}× (${BASE_BIN})`);
await dev.stop();

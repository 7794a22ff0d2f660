// Export: `svc events list --all -o ndjson` over 1,000 and then 50,000 events of `svc dev`: wall time and
// peak RSS, beside a curl loop fetching the same pages (limit 50) in the same run.
// Goals: peak RSS at 50,000 within 1.2× of that at 1,000; time within 1.5× of the curl loop.
// Run after `npm run build`: node bench/export.mjs
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus } from 'node:os';
import { BIN, api, createBenchWorkflow, startDev } from './lib/dev.mjs';

const dev = await startDev();
const wf = await createBenchWorkflow(dev);
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

function exportWithSvc() {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', `/usr/bin/time -f %M ${process.execPath} ${BIN} events list --all -o ndjson -q > /dev/null`], { env: dev.env, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(r.stderr);
  return { ms, rssMb: Number(r.stderr.trim().split('\n').pop()) / 1024 };
}

function exportWithCurl(count) {
  const pages = Math.ceil(count / 50);
  const script = `for p in $(seq 0 ${pages - 1}); do curl -s -f -H "authorization: ApiKey ${dev.apiKey}" "${dev.baseUrl}/v1/notifications?limit=50&page=$p" > /dev/null || exit 1; done`;
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`curl loop failed: ${r.stderr}`);
  return { ms: performance.now() - t0 };
}

console.log(`node ${process.version}, ${cpus().length} cores; svc dev with a file store; 50 events per page\n`);
const results = {};
for (const target of [1000, 50000]) {
  addEvents(target - created);
  await settle();
  const svc = exportWithSvc();
  const curl = exportWithCurl(target);
  results[target] = svc;
  console.log(`${target.toLocaleString('en')} events: svc ${(svc.ms / 1000).toFixed(2)} s, peak RSS ${svc.rssMb.toFixed(0)} MB   |   curl loop ${(curl.ms / 1000).toFixed(2)} s   (svc/curl ${(svc.ms / curl.ms).toFixed(2)}×, goal ≤ 1.5×)`);
}
console.log(`\npeak RSS at 50,000 / at 1,000: ${(results[50000].rssMb / results[1000].rssMb).toFixed(2)}× (goal ≤ 1.2×)`);
await dev.stop();

// `svc events list --status` on svc dev at scale: the store judges each event's derived status
// (core/status.ts) where the feed is read (svcStatus, svc dev's extension), beside the unfiltered
// newest page measured on the same store in the same run.
// The store: --size events (default 100,000), newest last. Every 2,000th event older than the newest
// 1,000 failed (an SMS to a subscriber without a phone: ~50 at 100,000); every 10th is `partial` (the
// subscriber turned the email channel off: in-app delivered, email skipped); the rest delivered. The
// three kinds are triggered through the routes, then copied by SQL (new ids and times).
// Measured: (1) the routes in process (GET /v1/notifications with and without svcStatus), median and
// fastest of --reps rounds; (2) the built CLI against the built `svc dev` on that store, wall time of
// `svc events list -o json` beside `svc events list --status failed -o json`, median of --cli-reps.
// Needs `npm run build` first. --keep FILE keeps the store (e.g. to try it with svc dev --data FILE).
// Run: npx node bench/status-filter.mjs [--size 100000] [--reps 15] [--cli-reps 7] [--keep FILE]
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { arg, loadServer, caller } from './lib/server-bundle.mjs';

const size = Number(arg('size', 100_000));
const reps = Number(arg('reps', 15));
const cliReps = Number(arg('cli-reps', 7));
const keep = arg('keep');
const KEY = 'sk_bench_status_0123456789';
const STEP = 1000; // ms between copied events
const T0 = Date.now() - (size + 10) * STEP;
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

const { createLocalService, ManualClock } = await loadServer(arg('src'));
const dir = mkdtempSync(join(tmpdir(), 'svc-status-'));
const file = join(dir, 'status.sqlite');
const svc = createLocalService({ data: file, apiKey: KEY, clock: new ManualClock(T0) });
const call = caller(svc, KEY);

// One event of each kind, run to the end.
await call('PATCH', '/v2/subscribers/alan/preferences', { workflowId: 'welcome', channels: { email: false } });
await call('POST', '/v1/events/trigger', { name: 'welcome', to: 'ada', transactionId: 'tpl-delivered' });
await call('POST', '/v1/events/trigger', { name: 'welcome', to: 'alan', transactionId: 'tpl-partial' });
await call('POST', '/v1/events/trigger', { name: 'otp', to: 'alan', transactionId: 'tpl-failed', payload: { code: '123456' } });
await svc.runner.idle();
const db = svc.store.db;
const template = (tx) => db.prepare('SELECT rowid AS r, id FROM notifications WHERE transaction_id = ?').get(tx);
const tpl = { delivered: template('tpl-delivered'), partial: template('tpl-partial'), failed: template('tpl-failed') };
for (const kind of Object.keys(tpl)) {
  const status = (await call('GET', `/v1/notifications?transactionId=tpl-${kind}`)).data[0].jobs.map((j) => j.status);
  console.error(`template ${kind}: jobs ${status.join(', ')}`);
}

// Copies of event `t` number from..to-1 (ids and times from the number).
const copy = db.transaction((t, from, to) => {
  const id = (tag) => `unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, ${tag}, s.i))`;
  const seq = `WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to - 1})`;
  db.prepare(
    `INSERT INTO notifications (id, env_id, org_id, transaction_id, workflow_id, subscriber_id, channels, severity, context_keys, topic_keys, doc, created_at, updated_at)
     ${seq} SELECT ${id(1)}, env_id, org_id, 'c' || s.i, workflow_id, subscriber_id, channels, severity, context_keys, topic_keys, doc,
     ${T0} + s.i * ${STEP}, ${T0} + s.i * ${STEP} FROM s, notifications n WHERE n.rowid = ?`,
  ).run(t.r);
  db.prepare(
    `INSERT INTO jobs (id, notification_id, step_index, type, status, run_at, provider_id, state, step_ref, details, group_key, created_at, updated_at)
     ${seq} SELECT unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, 10 + j.step_index, s.i)), ${id(1)}, step_index, type, status,
     ${T0} + s.i * ${STEP}, provider_id, state, step_ref, details, group_key, ${T0} + s.i * ${STEP}, ${T0} + s.i * ${STEP}
     FROM s, jobs j WHERE j.notification_id = ?`,
  ).run(t.id);
});
const kindOf = (i) => (i < size - 1000 && i % 2000 === 1000 ? 'failed' : i % 10 === 3 ? 'partial' : 'delivered');
const built = performance.now();
for (let i = 0; i < size; ) {
  const kind = kindOf(i);
  let j = i + 1;
  while (j < size && kindOf(j) === kind && j - i < 50_000) j++;
  copy(tpl[kind], i, j);
  i = j;
}
// The templates go: only the copies, in their order, make the feed.
for (const t of Object.values(tpl)) {
  db.prepare('DELETE FROM jobs WHERE notification_id = ?').run(t.id);
  db.prepare('DELETE FROM messages WHERE notification_id = ?').run(t.id);
  db.prepare('DELETE FROM notifications WHERE rowid = ?').run(t.r);
}
db.pragma('wal_checkpoint(TRUNCATE)');
console.error(
  `built ${size.toLocaleString('en-US')} events in ${((performance.now() - built) / 1000).toFixed(1)} s, store ${(statSync(file).size / 1e6).toFixed(0)} MB`,
);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const queries = [
  ['newest page, no filter (baseline)', '/v1/notifications?limit=10'],
  ['svcStatus=failed (~50, all older than the newest 1,000)', '/v1/notifications?svcStatus=failed&limit=10'],
  ['svcStatus=failed, page 4 (the last: read to the end)', '/v1/notifications?svcStatus=failed&limit=10&page=4'],
  ['svcStatus=partial (every 10th)', '/v1/notifications?svcStatus=partial&limit=10'],
  ['svcStatus=delivered', '/v1/notifications?svcStatus=delivered&limit=10'],
  ['svcStatus=failed, channels=email (email failed: none)', '/v1/notifications?svcStatus=failed&channels=email&limit=10'],
];
const rows = new Map();
for (const [name, url] of queries) rows.set(name, { n: (await call('GET', url)).data.length, t: [] });
for (let r = 0; r < reps; r++) {
  for (const [name, url] of queries) {
    const s = performance.now();
    await call('GET', url);
    rows.get(name).t.push(performance.now() - s);
  }
}
await svc.close();
if (keep) copyFileSync(file, keep);

// The built CLI against the built svc dev on the same store.
const dev = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--data', file, '--api-key', KEY, '--no-save-profile', '--quiet', '-o', 'json'], {
  env: { ...process.env, SVC_CONFIG_DIR: dir, NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise((resolve, reject) => {
  let buf = '';
  dev.stdout.on('data', (d) => {
    buf += d;
    const nl = buf.indexOf('\n');
    if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
  });
  dev.once('exit', (code) => reject(new Error(`svc dev exited ${code}`)));
});
const env = { ...process.env, SVC_BASE_URL: ready.baseUrl, SVC_API_KEY: KEY, SVC_CONFIG_DIR: dir, NO_COLOR: '1' };
const commands = [
  ['svc events list -o json (baseline)', ['events', 'list', '-o', 'json']],
  ['svc events list --status failed -o json', ['events', 'list', '--status', 'failed', '-o', 'json']],
  ['svc events list --status failed --limit 50 -o json', ['events', 'list', '--status', 'failed', '--limit', '50', '-o', 'json']],
];
const cli = new Map(commands.map(([name]) => [name, { n: 0, t: [] }]));
try {
  for (let r = 0; r < cliReps; r++) {
    for (const [name, args] of commands) {
      const s = performance.now();
      const out = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
      cli.get(name).t.push(performance.now() - s);
      if (out.status !== 0) throw new Error(`${name}: exit ${out.status}: ${out.stderr}`);
      cli.get(name).n = JSON.parse(out.stdout).length;
    }
  }
} finally {
  await new Promise((r) => {
    dev.once('exit', r);
    dev.kill('SIGINT');
  });
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${size.toLocaleString('en-US')} events; ms, median (fastest)`);
console.log(`routes in process, ${reps} rounds, every query once per round:`);
for (const [name, { n, t }] of rows) console.log(`  ${name.padEnd(58)}${`${median(t).toFixed(1)} (${Math.min(...t).toFixed(1)})`.padStart(16)}  ${n} rows`);
console.log(`the built CLI against the built svc dev (wall time, process start included), ${cliReps} rounds:`);
for (const [name, { n, t }] of cli) console.log(`  ${name.padEnd(58)}${`${median(t).toFixed(0)} (${Math.min(...t).toFixed(0)})`.padStart(16)}  ${n} events`);

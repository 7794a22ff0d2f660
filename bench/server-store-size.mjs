// Store size per notification: the demo workflows (welcome: in-app + email; otp: sms; incident: chat +
// push; comment-digest: digest + in-app), triggered through the HTTP routes (in process) for N
// recipients in triggers of 10, run by the engine until every job is done (service time moved on
// past the digests' window), then the file checkpointed and measured. Beside it, in the same run,
// the same load on the store of a baseline source tree (--baseline-src, e.g. the commit before the
// compaction), if given. Bytes per notification = (file after − file before the load) / N.
// Run: node bench/server-store-size.mjs [--n 20000] [--baseline-src .tmp-base/src] [--driver better-sqlite3|node:sqlite]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, loadServer } from './lib/server-bundle.mjs';

const N = Number(arg('n', 20000));
const baselineSrc = arg('baseline-src');
const KEY = 'sk_bench_size_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'svc-size-'));

const loads = [
  (_i) => ({ name: 'welcome', payload: { appName: 'Acme' } }),
  (i) => ({ name: 'otp', payload: { code: String(100000 + i) } }),
  (_i) => ({ name: 'incident', payload: { service: 'api', status: 'degraded', summary: 'Error rate above 5%' } }),
  (i) => ({
    name: 'comment-digest',
    payload: { postId: `p${i % 50}`, author: 'Ada', comment: 'Nice work on this one', postTitle: 'Roadmap', postUrl: '/posts/1' },
  }),
];

async function measure(label, srcDir) {
  const { createLocalService, ManualClock } = await loadServer(srcDir, [], arg('driver'));
  const file = join(dir, `${label}.sqlite`);
  const clock = new ManualClock(Date.now());
  const svc = createLocalService({ data: file, apiKey: KEY, clock });
  const size = () => {
    svc.store.db.pragma('wal_checkpoint(TRUNCATE)');
    return statSync(file).size;
  };
  const before = size();
  const started = performance.now();
  for (let t = 0; t < N / 10; t++) {
    const load = loads[t % loads.length](t);
    const to = Array.from({ length: 10 }, (_, i) => ({
      subscriberId: `user-${(t * 10 + i) % 2000}`,
      firstName: 'Sam',
      email: `user${(t * 10 + i) % 2000}@example.com`,
      phone: '+15555550100',
    }));
    const r = await svc.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      payload: JSON.stringify({ ...load, to }),
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
    });
    if (r.statusCode !== 201) throw new Error(`${label}: trigger answered ${r.statusCode}: ${r.body}`);
    if (t % 50 === 49) await svc.runner.idle();
  }
  await svc.runner.idle();
  clock.advance(11 * 60_000); // the digests' window closes
  await svc.runner.idle();
  const open = svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'skipped', 'merged', 'canceled')").get().n;
  const notifications = svc.store.db.prepare('SELECT count(*) AS n FROM notifications').get().n;
  const seconds = (performance.now() - started) / 1000;
  const after = size();
  await svc.close();
  if (process.env.KEEP_STORE) {
    const { copyFileSync } = await import('node:fs');
    copyFileSync(file, `${process.env.KEEP_STORE}${label}.sqlite`);
  }
  // Where the bytes are: per table and index, from SQLite's dbstat.
  const db = new Database(file, { readonly: true });
  const parts = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8').all();
  db.close();
  return { label, before, after, open, notifications, seconds, parts };
}

const results = [];
try {
  if (baselineSrc) results.push(await measure('baseline', baselineSrc));
  results.push(await measure('current', undefined));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`demo workflows, ${N} notifications (triggers of 10 recipients), every job run; file checkpointed`);
for (const r of results) {
  const per = (r.after - r.before) / N;
  console.log(
    `${r.label.padEnd(9)} ${per.toFixed(0).padStart(6)} B/notification   store ${(r.after / 1e6).toFixed(1)} MB (empty ${(r.before / 1e6).toFixed(2)} MB)   ${r.notifications} notifications, ${r.open} jobs open, ${r.seconds.toFixed(1)} s`,
  );
  console.log(`          ${r.parts.map((p) => `${p.name} ${(p.bytes / N).toFixed(0)}`).join(', ')}  (B/notification)`);
}

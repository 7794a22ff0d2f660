// The cost of the kept message counts (migration 8) on the write path: CPU per message insert and per
// message delete with the counting triggers, beside the same statements on the same store with the
// triggers dropped, in alternating rounds (so that other load on the machine falls on both alike).
// Each insert is its own transaction, as the runner writes a message; the rows are copies of a real
// message (one welcome event: in-app + email) with new ids, spread over 1,000 subscribers.
// Reported: the best round of each (CPU µs per statement from process.cpuUsage), and the difference.
// Run: node bench/message-counts.mjs [--n 5000] [--rounds 7]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, loadServer } from './lib/server-bundle.mjs';

const N = Number(arg('n', 5000));
const ROUNDS = Number(arg('rounds', 7));
const KEY = 'sk_bench_counts_0123456789';
const { createLocalService, ManualClock } = await loadServer(arg('src'));
const dir = mkdtempSync(join(tmpdir(), 'svc-counts-'));
const svc = createLocalService({ data: join(dir, 'counts.sqlite'), apiKey: KEY, clock: new ManualClock(Date.parse('2026-01-01T00:00:00.000Z')) });
try {
  const r = await svc.app.inject({
    method: 'POST',
    url: '/v1/events/trigger',
    headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'welcome', to: 'ada', payload: { appName: 'Acme' } }),
  });
  if (r.statusCode !== 201) throw new Error(r.body);
  await svc.runner.idle();
  const db = svc.store.db;
  const triggers = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'messages'").all();
  if (triggers.length === 0) throw new Error('no counting triggers on messages in this source tree');
  let seq = 0;
  const insert = db.prepare(
    `INSERT INTO messages (id, env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at, updated_at)
     SELECT unhex(printf('%024x', ?)), env_id, notification_id, job_id, unhex(printf('%024x', ?)), channel, read, seen, status, doc, created_at, updated_at
     FROM messages WHERE rowid = ? + 1`,
  );
  const remove = db.prepare("DELETE FROM messages WHERE id = unhex(printf('%024x', ?))");
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const round = () => {
    const first = 1e9 + seq;
    let t = cpu();
    for (let i = 0; i < N; i++, seq++) insert.run(1e9 + seq, 1e6 + (seq % 1000), seq % 2);
    const ins = (cpu() - t) / N;
    t = cpu();
    for (let i = 0; i < N; i++) remove.run(first + i);
    const del = (cpu() - t) / N;
    return { ins, del };
  };
  const best = { counted: { ins: Infinity, del: Infinity }, plain: { ins: Infinity, del: Infinity } };
  const keep = (k, x) => {
    best[k].ins = Math.min(best[k].ins, x.ins);
    best[k].del = Math.min(best[k].del, x.del);
  };
  round(); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    keep('counted', round());
    for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);
    keep('plain', round());
    for (const t of triggers) db.exec(t.sql);
  }
  console.log(`CPU µs per statement, best of ${ROUNDS} rounds of ${N} (each its own transaction), file store`);
  console.log(`               insert   delete`);
  for (const k of ['plain', 'counted']) console.log(`${k.padEnd(14)} ${best[k].ins.toFixed(1).padStart(6)}   ${best[k].del.toFixed(1).padStart(6)}`);
  console.log(
    `counting adds  ${(best.counted.ins - best.plain.ins).toFixed(1).padStart(6)}   ${(best.counted.del - best.plain.del).toFixed(1).padStart(6)}  (${((best.counted.ins / best.plain.ins - 1) * 100).toFixed(0)}% of an insert)`,
  );
} finally {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}

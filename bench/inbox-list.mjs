// `GET /v1/inbox/notifications` latency for a subscriber with many notifications in a large store,
// beside the activity feed's query for the same subscriber (`GET /v1/notifications?subscriberIds=`),
// measured in the same run against the same built `svc dev`. Run after `npm run build`:
//   node bench/inbox-list.mjs [--mine 10000] [--total 1000000] [--requests 2000]
// The subscriber's notifications are made by the engine (bulk triggers of an in-app workflow); the
// rest of the store is copies of them for other subscribers (rows written with SQL while svc dev is
// stopped: the engine would take minutes for a million), so every table and index is that large.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { BIN } from './lib/dev.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINE = arg('mine', 10_000);
const TOTAL = arg('total', 1_000_000);
const REQUESTS = arg('requests', 2000);
const KEY = 'sk_bench_inbox_list_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'svc-inbox-list-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'bench.sqlite');
const agent = new Agent({ connections: 1 });

async function start() {
  const proc = spawn(process.execPath, [BIN, 'dev', '--port', '0', '--data', file, '--api-key', KEY, '--no-save-profile', '--quiet', '-o', 'json'], {
    env: { ...process.env, SVC_CONFIG_DIR: dir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    proc.once('exit', (code) => reject(new Error(`svc dev exited ${code}`)));
  });
  const stop = () =>
    new Promise((r) => {
      proc.once('exit', r);
      proc.kill('SIGINT');
    });
  return { ...ready, stop };
}

async function call(base, method, path, headers, body) {
  const r = await request(`${base}${path}`, {
    method,
    dispatcher: agent,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await r.body.text();
  if (r.statusCode >= 400) throw new Error(`${method} ${path}: ${r.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const apiKey = { authorization: `ApiKey ${KEY}` };

// 1. The subscriber's notifications, through the engine.
let dev = await start();
await call(dev.baseUrl, 'POST', '/v2/workflows', apiKey, {
  name: 'Bench list',
  workflowId: 'bench-list',
  active: true,
  tags: ['bench'],
  steps: [
    { name: 'Inbox', type: 'in_app', controlValues: { subject: 'Note {{ payload.k }}', body: 'Body of note {{ payload.k }}', data: { k: '{{ payload.k }}' } } },
  ],
});
const made = performance.now();
for (let k = 0; k < MINE; k += 100) {
  const events = Array.from({ length: Math.min(100, MINE - k) }, (_, j) => ({ name: 'bench-list', to: 'me', payload: { k: k + j } }));
  await call(dev.baseUrl, 'POST', '/v1/events/trigger/bulk', apiKey, { events });
}
const session = await call(dev.baseUrl, 'POST', '/v1/inbox/session', {}, { applicationIdentifier: dev.applicationIdentifier, subscriberId: 'me' });
const bearer = { authorization: `Bearer ${session.data.token}` };
const countPath = `/v1/inbox/notifications/count?filters=${encodeURIComponent('[{}]')}`;
for (;;) {
  const c = await call(dev.baseUrl, 'GET', countPath, bearer);
  if (c.data[0].count >= MINE) break;
  await new Promise((r) => setTimeout(r, 500));
}
console.error(`${MINE} notifications for 'me' in ${((performance.now() - made) / 1000).toFixed(1)} s`);
await dev.stop();

// 2. The rest of the store: copies for other subscribers.
const db = new Database(file);
const me = db.prepare("SELECT unhex(id) AS id FROM subscribers WHERE subscriber_id = 'me'").get().id;
const copies = Math.max(0, Math.floor(TOTAL / MINE) - 1);
const copy = db.transaction((n) => {
  db.prepare(`CREATE TEMP TABLE IF NOT EXISTS mine AS SELECT id FROM notifications WHERE subscriber_id = ?`).run(me);
  for (let b = 0; b < n; b++) {
    const other = db.prepare('SELECT randomblob(12) AS b').get().b;
    db.prepare(
      `INSERT INTO notifications (id, env_id, org_id, transaction_id, workflow_id, subscriber_id, channels, severity, context_keys, topic_keys, doc, created_at, updated_at)
       SELECT randomblob(12), env_id, org_id, randomblob(16), workflow_id, ?, channels, severity, context_keys, topic_keys, doc, created_at + ?, updated_at + ?
       FROM notifications WHERE id IN (SELECT id FROM mine)`,
    ).run(other, b, b);
    db.prepare(
      `INSERT INTO messages (id, env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at, updated_at, archived, snoozed_until)
       SELECT randomblob(12), env_id, notification_id, randomblob(12), ?, channel, read, seen, status, doc, created_at + ?, updated_at + ?, archived, snoozed_until
       FROM messages WHERE subscriber_id = ?`,
    ).run(other, b, b, me);
  }
});
const filled = performance.now();
for (let b = 0; b < copies; b += 10) copy(Math.min(10, copies - b));
db.pragma('wal_checkpoint(TRUNCATE)');
const counts = {
  notifications: db.prepare('SELECT count(*) AS n FROM notifications').get().n,
  messages: db.prepare('SELECT count(*) AS n FROM messages').get().n,
};
db.close();
console.error(
  `store: ${counts.notifications} notifications, ${counts.messages} messages, ${(statSync(file).size / 1e6).toFixed(0)} MB, filled in ${((performance.now() - filled) / 1000).toFixed(1)} s`,
);

// 3. The latencies, one request at a time, after a warm-up.
dev = await start();
const again = await call(dev.baseUrl, 'POST', '/v1/inbox/session', {}, { applicationIdentifier: dev.applicationIdentifier, subscriberId: 'me' });
const token = { authorization: `Bearer ${again.data.token}` };
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
async function time(label, path, headers) {
  for (let i = 0; i < 100; i++) await call(dev.baseUrl, 'GET', path, headers);
  const xs = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await call(dev.baseUrl, 'GET', path, headers);
    xs.push(performance.now() - t0);
  }
  xs.sort((a, b) => a - b);
  return `${label.padEnd(58)} p50 ${pct(xs, 50).toFixed(2).padStart(6)} ms  p99 ${pct(xs, 99).toFixed(2).padStart(6)} ms  max ${xs.at(-1).toFixed(1).padStart(6)} ms`;
}
const lines = [
  await time('activity feed: GET /v1/notifications?subscriberIds=me', '/v1/notifications?subscriberIds=me&limit=10', apiKey),
  await time('inbox: GET /v1/inbox/notifications?limit=10', '/v1/inbox/notifications?limit=10', token),
  await time('inbox: …?limit=10&archived=false&snoozed=false', '/v1/inbox/notifications?limit=10&archived=false&snoozed=false', token),
  await time('inbox: …?limit=10&read=false&tags[]=bench', '/v1/inbox/notifications?limit=10&read=false&tags[]=bench', token),
  await time(
    "inbox: count, the Inbox's 3 tab filters",
    `/v1/inbox/notifications/count?filters=${encodeURIComponent('[{"read":false,"archived":false,"snoozed":false},{"archived":true},{"seen":false,"archived":false}]')}`,
    token,
  ),
  await time(
    'inbox: count by severity (joins each event)',
    `/v1/inbox/notifications/count?filters=${encodeURIComponent('[{"read":false,"severity":["high"]}]')}`,
    token,
  ),
];
await dev.stop();
console.log(`${REQUESTS} requests each, one at a time; 'me' has ${MINE} notifications in a store of ${counts.notifications}`);
for (const l of lines) console.log(l);
process.exit(0);

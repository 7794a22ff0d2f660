// The feed at scale: how the filters of the activity feed and the message list (those the CLI, the
// terminal browser and the console send) answer as the store grows from 10,000 to 1,000,000 events,
// beside the newest page (no filter) measured on the same store at the same size.
// One subscriber ("needle") has 20 events among the first 10,000, of a workflow only they get (one
// SMS step, severity high); every other event is another subscriber's welcome (in-app and email).
// The store is built once, growing: a few events are triggered through the routes, then copied by
// SQL (new ids and times) up to each size; each query is then asked through the routes (in process).
// "busiest" rows filter for what nearly every event has: their page must stop after its rows too.
// Run: node bench/feed-scale.mjs [--sizes 10000,100000,1000000] [--reps 21] [--src <another src/>]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { arg, loadServer, caller } from './lib/server-bundle.mjs';

const sizes = String(arg('sizes', '10000,100000,1000000')).split(',').map(Number);
const reps = Number(arg('reps', 21));
const KEY = 'sk_bench_feed_0123456789';
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const STEP = 1000; // ms between copied events

const { createLocalService, ManualClock } = await loadServer(arg('src'));
const dir = mkdtempSync(join(tmpdir(), 'svc-feed-'));
const file = join(dir, 'feed.sqlite');
const clock = new ManualClock(T0);
const svc = createLocalService({ data: file, apiKey: KEY, clock });
const call = caller(svc, KEY);

// Templates: one event of each kind, run to the end, then copied.
await call('POST', '/v2/workflows', {
  name: 'Needle alert',
  workflowId: 'needle-alert',
  active: true,
  severity: 'high',
  steps: [{ name: 'SMS', type: 'sms', controlValues: { body: 'Alert for {{ subscriber.firstName }}' } }],
});
await call('POST', '/v2/subscribers', { subscriberId: 'needle', firstName: 'Nee', email: 'needle@example.com', phone: '+15555550100' });
await call('POST', '/v2/subscribers', { subscriberId: 'hay', firstName: 'Hay', email: 'hay@example.com' });
await call('POST', '/v1/events/trigger', { name: 'needle-alert', to: 'needle', transactionId: 'needle-template' });
await call('POST', '/v1/events/trigger', { name: 'welcome', to: 'hay', transactionId: 'hay-template', payload: { appName: 'Acme' } });
await svc.runner.idle();
const db = svc.store.db;
const template = (tx) => db.prepare('SELECT rowid AS r, id FROM notifications WHERE transaction_id = ?').get(tx);
const needle = template('needle-template');
const hay = template('hay-template');
const workflowId = db.prepare("SELECT id FROM workflows WHERE workflow_id = 'needle-alert'").get().id;
const welcomeId = db.prepare("SELECT id FROM workflows WHERE workflow_id = 'welcome'").get().id;

// Copies of event `tpl` number from..to-1 (ids and times from the number; transactionIds 'c<number>').
const copy = db.transaction((tpl, from, to) => {
  const id = (table) => `unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, ${table}, s.i))`;
  const seq = `WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to - 1})`;
  db.prepare(
    `INSERT INTO notifications (id, env_id, org_id, transaction_id, workflow_id, subscriber_id, channels, severity, context_keys, topic_keys, doc, created_at, updated_at)
     ${seq} SELECT ${id(1)}, env_id, org_id, 'c' || s.i, workflow_id, subscriber_id, channels, severity, context_keys, topic_keys, doc,
     ${T0} + s.i * ${STEP}, ${T0} + s.i * ${STEP} FROM s, notifications n WHERE n.rowid = ?`,
  ).run(tpl.r);
  db.prepare(
    `INSERT INTO jobs (id, notification_id, step_index, type, status, run_at, provider_id, state, step_ref, details, group_key, created_at, updated_at)
     ${seq} SELECT unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, 10 + j.step_index, s.i)), ${id(1)}, step_index, type, status,
     ${T0} + s.i * ${STEP}, provider_id, state, step_ref, details, group_key, ${T0} + s.i * ${STEP}, ${T0} + s.i * ${STEP}
     FROM s, jobs j WHERE j.notification_id = ?`,
  ).run(tpl.id);
  db.prepare(
    `INSERT INTO messages (id, env_id, notification_id, job_id, subscriber_id, channel, read, seen, status, doc, created_at, updated_at)
     ${seq} SELECT unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, 20 + m.rowid % 200, s.i)), env_id, ${id(1)},
     unhex(printf('%08x%02x%014x', (${T0} + s.i * ${STEP}) / 1000, 10 + (SELECT step_index FROM jobs WHERE id = m.job_id), s.i)),
     subscriber_id, channel, read, seen, status, doc, ${T0} + s.i * ${STEP}, ${T0} + s.i * ${STEP} FROM s, messages m WHERE m.notification_id = ?`,
  ).run(tpl.id);
});

// The needle's 20 events: every 500th of the first 10,000.
const isNeedle = (i) => i < 10_000 && i % 500 === 250;
let built = 0;
function growTo(n) {
  let i = built;
  while (i < n) {
    if (isNeedle(i)) {
      copy(needle, i, i + 1);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && !isNeedle(j) && j - i < 50_000) j++;
    copy(hay, i, j);
    i = j;
  }
  built = n;
}

const needleTx = 'c4750';
const queries = [
  ['events: newest page (baseline)', '/v1/notifications?limit=10'],
  ['events: subscriber', '/v1/notifications?subscriberIds=needle&limit=10'],
  ['events: email', '/v1/notifications?emails=needle%40example.com&limit=10'],
  ['events: workflow', `/v1/notifications?templates=${workflowId}&limit=10`],
  ['events: channel', '/v1/notifications?channels=sms&limit=10'],
  ['events: severity', '/v1/notifications?severity=high&limit=10'],
  ['events: transactionId', `/v1/notifications?transactionId=${needleTx}&limit=10`],
  [
    'events: time range (1 h, old)',
    `/v1/notifications?after=${new Date(T0 + 3000 * STEP).toISOString()}&before=${new Date(T0 + 6600 * STEP).toISOString()}&limit=10`,
  ],
  ['events: busiest subscriber (all others)', '/v1/notifications?subscriberIds=hay&limit=10'],
  ['events: busiest workflow', `/v1/notifications?templates=${welcomeId}&limit=10`],
  ['events: busiest channel (in_app)', '/v1/notifications?channels=in_app&limit=10'],
  ['events: busiest severity (none)', '/v1/notifications?severity=none&limit=10'],
  ['messages: newest page', '/v1/messages?limit=10'],
  ['messages: subscriber', '/v1/messages?subscriberId=needle&limit=10'],
  ['messages: subscriber + channel (inbox)', '/v1/messages?subscriberId=needle&channel=sms&limit=10'],
  ['messages: channel', '/v1/messages?channel=sms&limit=10'],
  ['messages: transactionId', `/v1/messages?transactionId=${needleTx}&limit=10`],
  ['messages: busiest subscriber (all others)', '/v1/messages?subscriberId=hay&limit=10'],
  ['messages: busiest channel (in_app)', '/v1/messages?channel=in_app&limit=10'],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const table = new Map(queries.map(([name]) => [name, []]));
const counts = new Map();
try {
  for (const n of sizes) {
    const t = performance.now();
    growTo(n);
    db.pragma('wal_checkpoint(TRUNCATE)');
    console.error(
      `built ${n.toLocaleString('en-US')} events in ${((performance.now() - t) / 1000).toFixed(1)} s, store ${(statSync(file).size / 1e6).toFixed(0)} MB`,
    );
    // Round-robin (every query once per round), so that a burst of other load on the machine falls
    // on all of them alike.
    const times = new Map(queries.map(([name]) => [name, []]));
    for (const [name, url] of queries) counts.set(name, (await call('GET', url)).data.length);
    for (let r = 0; r < reps; r++) {
      for (const [name, url] of queries) {
        const s = performance.now();
        await call('GET', url);
        times.get(name).push(performance.now() - s);
      }
    }
    for (const [name] of queries) table.get(name).push([median(times.get(name)), Math.min(...times.get(name))]);
  }
} finally {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
}

// Each cell: median (fastest) ms. On a loaded machine the fastest of the rounds shows the work a
// query does; the median, what a user waits.
const head = sizes.map((n) => `${n.toLocaleString('en-US')} ev`.padStart(17)).join('');
console.log(
  `ms of ${reps} rounds, median (fastest); every query once per round; in process, file store; the needle subscriber has 20 events among the first 10,000`,
);
console.log(`${'query'.padEnd(44)}${head}  ${'last/first (median, fastest)'.padStart(29)}  rows`);
for (const [name] of queries) {
  const ms = table.get(name);
  const ratio = (k) => `${(ms[ms.length - 1][k] / ms[0][k]).toFixed(2)}×`;
  console.log(
    `${name.padEnd(44)}${ms.map(([m, f]) => `${m.toFixed(2)} (${f.toFixed(2)})`.padStart(17)).join('')}  ${`${ratio(0)}, ${ratio(1)}`.padStart(29)}  ${counts.get(name)}`,
  );
}

// Trigger → wait cycles against svc dev, one after another: each cycle triggers an email to one
// subscriber with a transactionId of its own and waits for that message. Two ways to wait, in the
// same run against the same service:
//   told:    GET /v1/svc-dev/messages/wait (what `svc messages wait` uses on svc dev), sent with the
//            trigger and answered when the message is stored;
//   polling: GET /v1/messages?transactionId= every 100 ms until the message is there (what a test
//            does without it, and the CLI against the hosted service), started with the trigger as
//            the told wait is; and, for comparison, a poller that starts only once the trigger has
//            answered (svc dev has usually delivered by then, so its first look finds the message).
// A cycle's time runs from just before the trigger is sent to the message in hand. Run after
// `npm run build`:
//   node bench/messages-wait.mjs [--cycles 1000] [--interval 100]
// svc dev uses a file store (WAL), as it would in use.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { api, startDev } from './lib/dev.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CYCLES = arg('cycles', 1000);
const INTERVAL = arg('interval', 100);
const agent = new Agent({ connections: 8, keepAliveTimeout: 30_000 });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function call(dev, method, path, body) {
  const res = await request(`${dev.baseUrl}${path}`, {
    method,
    dispatcher: agent,
    headers: { authorization: `ApiKey ${dev.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await res.body.json();
  if (res.statusCode >= 400) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

const trigger = (dev, transactionId, i) =>
  call(dev, 'POST', '/v1/events/trigger', {
    name: 'bench-mail',
    to: { subscriberId: `bench-${i % 50}`, email: `bench-${i % 50}@example.com` },
    transactionId,
    payload: { i },
  });

async function told(dev, i) {
  const tx = randomUUID();
  const t0 = performance.now();
  const since = new Date().toISOString();
  const waiting = call(dev, 'GET', `/v1/svc-dev/messages/wait?transactionId=${tx}&channel=email&since=${since}&holdMs=10000`);
  await trigger(dev, tx, i);
  const { data } = await waiting;
  if (!data) throw new Error(`cycle ${i}: no message`);
  return performance.now() - t0;
}

async function poll(dev, tx) {
  for (;;) {
    const { data } = await call(dev, 'GET', `/v1/messages?transactionId=${tx}&channel=email`);
    if (data.length > 0) return;
    await sleep(INTERVAL);
  }
}

/** The same loop as `told`: the wait starts with the trigger (its first look finds nothing yet). */
async function polling(dev, i) {
  const tx = randomUUID();
  const t0 = performance.now();
  const waiting = poll(dev, tx);
  await trigger(dev, tx, i);
  await waiting;
  return performance.now() - t0;
}

/** A poller that starts only once the trigger has answered: its first look usually finds the message. */
async function pollingAfter(dev, i) {
  const tx = randomUUID();
  const t0 = performance.now();
  await trigger(dev, tx, i);
  await poll(dev, tx);
  return performance.now() - t0;
}

async function loop(name, dev, cycle) {
  for (let i = 0; i < 20; i++) await cycle(dev, i);
  const times = [];
  const started = performance.now();
  for (let i = 0; i < CYCLES; i++) times.push(await cycle(dev, i));
  const seconds = (performance.now() - started) / 1000;
  return { name, cycles: CYCLES, p50: pct(times, 50), p99: pct(times, 99), max: Math.max(...times), seconds };
}

const dev = await startDev();
try {
  await api(dev, 'POST', '/v2/workflows', {
    name: 'Bench mail',
    workflowId: 'bench-mail',
    active: true,
    steps: [
      { name: 'Mail', type: 'email', controlValues: { subject: 'Code {{ payload.i }}', body: '<p>Your code is {{ payload.i }}</p>', editorType: 'html' } },
    ],
  });
  const rows = [
    await loop('told (svc dev long-poll)', dev, told),
    await loop(`polling every ${INTERVAL} ms`, dev, polling),
    await loop(`polling, after the trigger`, dev, pollingAfter),
  ];
  const ms = (x) => x.toFixed(1).padStart(7);
  console.log(`${CYCLES} sequential trigger → wait cycles (email, svc dev file store), node ${process.version}`);
  console.log(`${'way of waiting'.padEnd(28)}      p50      p99      max   total s`);
  for (const r of rows) console.log(`${r.name.padEnd(28)} ${ms(r.p50)}  ${ms(r.p99)}  ${ms(r.max)}   ${r.seconds.toFixed(1).padStart(6)}`);
  const [t] = rows;
  console.log(`goal (issue 32): told p50 ≤ 5 ms (${t.p50 <= 5 ? 'met' : 'NOT met'}), p99 ≤ 20 ms (${t.p99 <= 20 ? 'met' : 'NOT met'})`);
} finally {
  await dev.stop();
  await agent.close();
}

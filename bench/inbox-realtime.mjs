// Trigger → `notification_received` latency of the in-app Inbox's socket with many connected clients,
// while triggers arrive at a steady rate, beside a bare socket.io server doing the same hop (HTTP POST
// in, a room emit out; bench/lib/socket-echo-server.mjs) measured in the same run. Run after
// `npm run build`:
//   node bench/inbox-realtime.mjs [--sockets 1000] [--rate 500] [--duration 10]
// Each trigger goes to one of the connected subscribers (round robin) with its send time in the
// payload; the latency is from just before the HTTP request to the event's arrival at that
// subscriber's socket. svc dev uses a file store (WAL), as it would in use.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { io } from 'socket.io-client';
import { Agent, request, setGlobalDispatcher } from 'undici';
import { api, startDev } from './lib/dev.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SOCKETS = arg('sockets', 1000);
const RATE = arg('rate', 500);
const DURATION = arg('duration', 10);
setGlobalDispatcher(new Agent({ connections: 64, pipelining: 1 }));

const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** Connects `n` clients (token i → its own room) and collects each event's latency. */
async function connect(url, tokens, latencies) {
  const clients = [];
  for (let i = 0; i < tokens.length; i += 100) {
    const batch = tokens.slice(i, i + 100).map(
      (token) =>
        new Promise((resolve, reject) => {
          const c = io(url, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
          c.on('notification_received', ({ message }) => latencies.push(Date.now() - message.payload.sentAt));
          c.once('connect', () => resolve(c));
          c.once('connect_error', reject);
        }),
    );
    clients.push(...(await Promise.all(batch)));
  }
  return clients;
}

/** Sends `RATE` requests a second for `DURATION` seconds; `send(k)` makes request k. */
async function steady(send) {
  const total = RATE * DURATION;
  const started = Date.now();
  const inflight = [];
  let errors = 0;
  for (let k = 0; k < total; k++) {
    const due = started + (k * 1000) / RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(send(k).catch(() => errors++));
  }
  await Promise.all(inflight);
  return { total, errors, seconds: (Date.now() - started) / 1000 };
}

async function settle(latencies, expected) {
  const until = Date.now() + 15_000;
  while (latencies.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
}

function report(label, latencies, sent) {
  const xs = [...latencies].sort((a, b) => a - b);
  return `${label.padEnd(34)} delivered ${String(xs.length).padStart(6)}/${sent.total}  p50 ${String(pct(xs, 50)).padStart(4)} ms  p99 ${String(pct(xs, 99)).padStart(5)} ms  max ${String(xs.at(-1)).padStart(5)} ms  (${(sent.total / sent.seconds).toFixed(0)} sent/s, ${sent.errors} errors)`;
}

// --- baseline: bare socket.io --------------------------------------------------------------------
const echo = spawn(process.execPath, [fileURLToPath(new URL('./lib/socket-echo-server.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const echoPort = await new Promise((r) => echo.stdout.once('data', (d) => r(Number(String(d).trim()))));
const echoUrl = `http://127.0.0.1:${echoPort}`;
const baseLat = [];
const baseClients = await connect(
  echoUrl,
  Array.from({ length: SOCKETS }, (_, i) => `b${i}`),
  baseLat,
);
const baseSent = await steady(async (k) => {
  const r = await request(`${echoUrl}/send`, { method: 'POST', body: JSON.stringify({ to: `b${k % SOCKETS}`, payload: { sentAt: Date.now() } }) });
  await r.body.dump();
});
await settle(baseLat, baseSent.total);
for (const c of baseClients) c.close();
echo.kill('SIGINT');

// --- svc dev ----------------------------------------------------------------------------------
const dev = await startDev();
const me = await api(dev, 'GET', '/v1/environments/me');
await api(dev, 'POST', '/v2/workflows', {
  name: 'Bench inbox',
  workflowId: 'bench-inbox',
  active: true,
  steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Note {{ payload.k }}' } }],
});
const tokens = [];
for (let i = 0; i < SOCKETS; i += 50) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(50, SOCKETS - i) }, async (_, j) => {
      const r = await fetch(`${dev.baseUrl}/v1/inbox/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ applicationIdentifier: me.data.identifier, subscriberId: `s${i + j}` }),
      });
      return (await r.json()).data.token;
    }),
  );
  tokens.push(...batch);
}
const svcLat = [];
const svcClients = await connect(dev.baseUrl, tokens, svcLat);
const auth = { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json' };
const svcSent = await steady(async (k) => {
  const r = await request(`${dev.baseUrl}/v1/events/trigger`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'bench-inbox', to: `s${k % SOCKETS}`, payload: { k, sentAt: Date.now() } }),
  });
  await r.body.dump();
  if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}`);
});
await settle(svcLat, svcSent.total);
for (const c of svcClients) c.close();
await dev.stop();

console.log(`trigger → notification_received, ${SOCKETS} connected sockets, ${RATE} triggers/s for ${DURATION} s`);
console.log(report('bare socket.io (HTTP in, emit out)', baseLat, baseSent));
console.log(report('svc dev (trigger → engine → socket)', svcLat, svcSent));
process.exit(0);

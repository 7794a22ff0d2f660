// Code-first workflows through a bridge: notifications/s of a two-step workflow (in_app then email)
// whose steps svc dev executes by calling the app that serves them (@novu/framework behind node:http,
// bench/bridge-app.mjs, in its own process, signatures checked), beside the same two steps defined in
// svc dev itself (Liquid controls), in the same run, on a file store as `svc dev` uses by default.
// Each measurement: N recipients (triggers of 100 through the HTTP routes, in process), timed from the
// first trigger until every job is terminal, on a fresh store. The bridge costs one loopback HTTP round
// trip per step (two per notification), and the framework's own work (validation, rendering, logging).
// The app runs in two modes (bench/bridge-app.mjs): `strict` (signatures checked, no log: production
// settings) and `dev` (the framework's defaults without NODE_ENV: no signature check, a log line per
// step). Beside the throughput: CPU µs per notification of each process (from /proc), the bound that
// gives on 2 cores (in-house µs / the busier side's µs: the ratio if each process had a core), and the
// framework's own floor: its handler called in-process with the very bodies svc dev sends, no HTTP.
// Each figure is the best of 3 rounds (--rounds N).
// --baseline-src DIR: svc dev built from another source tree (e.g. main's: `git archive main src | tar
// -x -C DIR`, with DIR/node_modules linked to this checkout's) runs the same bridge workflows in the same
// run, its rounds alternating with this tree's, so that a change of svc dev's side is measured against
// what it replaces under the same load.
// Run: node bench/bridge-throughput.mjs [--sizes 500,2000] [--modes strict,dev] [--rounds 3] [--baseline-src DIR] [--profile-bridge]
// (--profile-bridge: only the runs through the bridge, for a --cpu-prof of svc dev's side)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadServer } from './lib/server-bundle.mjs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = String(arg('sizes', '500,2000')).split(',').map(Number);
const KEY = 'sk_bench_bridge_0123456789';
const dir = mkdtempSync(fileURLToPath(new URL('./.tmp-bridge-throughput-', import.meta.url)));
const { createLocalService, bridgeSignature } = await loadServer(undefined, [['bridgeSignature', 'server/bridge/client.ts']]);
const baselineSrc = arg('baseline-src', undefined);
const baseline = baselineSrc ? (await loadServer(baselineSrc)).createLocalService : undefined;

const modes = String(arg('modes', 'strict,dev')).split(',');
const profileBridge = process.argv.includes('--profile-bridge');
const rounds = Number(arg('rounds', profileBridge ? 1 : 3));
const appPath = fileURLToPath(new URL('./bridge-app.mjs', import.meta.url));

/** One app process per mode; its output (the framework's per-step log in dev mode) goes to /dev/null. */
async function startApp(mode) {
  const proc = spawn(process.execPath, [appPath], {
    env: { ...process.env, NOVU_SECRET_KEY: KEY, BRIDGE_APP_MODE: mode },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m.url));
    proc.once('exit', (code) => reject(new Error(`the bridge app (${mode}) exited (${code})`)));
  });
  const connections = () =>
    new Promise((resolve) => {
      proc.once('message', (m) => resolve(m.connections));
      proc.send('connections');
    });
  return { mode, proc, url, connections };
}

const inService = {
  workflowId: 'bench-two-step',
  name: 'Bench two-step',
  active: true,
  steps: [
    {
      name: 'Inbox',
      type: 'in_app',
      controlValues: {
        subject: 'Hi {{ subscriber.firstName }}',
        body: '{{ payload.actor }} commented on {{ payload.post.title }}: {{ payload.comment | truncate: 80 }}',
        primaryAction: { label: 'Open', redirect: { url: '/posts/{{ payload.post.id }}' } },
      },
    },
    {
      name: 'Email',
      type: 'email',
      controlValues: {
        subject: '{{ payload.actor }} commented on {{ payload.post.title }}',
        body: '<p>Hello {{ subscriber.firstName }},</p><p>{{ payload.comment }}</p><p><a href="https://example.com/posts/{{ payload.post.id }}">Open the post</a></p>',
        editorType: 'html',
      },
    },
  ],
};
const payload = { actor: 'Ada', comment: 'Looks great, ship it! '.repeat(3), post: { id: 7, title: 'Release notes' } };

/** The app process's CPU time (user + system) so far, in µs, from /proc (Linux); 0 elsewhere. */
function appCpu(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
  } catch {
    return 0;
  }
}

let runs = 0;
async function measure(recipients, mode, app, create = createLocalService) {
  const data = join(dir, `${mode}-${recipients}-${++runs}.sqlite`);
  const svc = create({
    data,
    apiKey: KEY,
    empty: true,
    seed: {
      workflows: mode === 'service' ? [inService] : [],
      integrations: [{ identifier: 'sendgrid', providerId: 'sendgrid', channel: 'email', active: true, primary: true }],
      subscribers: [],
      contexts: [],
      tenants: [],
      topics: [],
      environments: [],
    },
  });
  const inject = (url, body) =>
    svc.app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' } });
  const name = mode === 'service' ? 'bench-two-step' : 'bench-bridge';
  if (mode === 'bridge') {
    const r = await inject('/v1/bridge/sync?source=cli', { bridgeUrl: app.url });
    if (r.statusCode !== 201) throw new Error(`sync answered ${r.statusCode}: ${r.body}`);
  }
  const cpu0 = process.cpuUsage();
  const app0 = app ? appCpu(app.proc.pid) : 0;
  const started = performance.now();
  for (let t = 0; t < recipients / 100; t++) {
    const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `u-${t}-${i}`, firstName: `User ${i}`, email: `u${t}.${i}@example.com` }));
    const r = await inject('/v1/events/trigger', { name, to, payload });
    if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}: ${r.body}`);
  }
  await svc.runner.idle();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  const appUsed = app ? appCpu(app.proc.pid) - app0 : 0;
  const open = svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'skipped', 'merged', 'canceled')").get().n;
  const sent = svc.store.db.prepare("SELECT count(*) AS n FROM messages WHERE status = 'sent'").get().n;
  const content = svc.store.db.prepare("SELECT json_extract(doc, '$.content') AS c FROM messages WHERE channel = 'in_app' LIMIT 1").get()?.c;
  await svc.close();
  if (open !== 0 || sent !== 2 * recipients) throw new Error(`${mode}: ${open} jobs not terminal, ${sent} of ${2 * recipients} messages sent`);
  if (!String(content).startsWith('Ada commented on Release notes')) throw new Error(`${mode}: unexpected content ${content}`);
  return { elapsed, cpu: (used.user + used.system) / recipients, appCpu: appUsed / recipients };
}

/**
 * The framework's floor: CPU µs per notification of its handler alone (in-process, no HTTP, no svc
 * dev), given the two execute requests svc dev sends for a notification (in-app, then email with the
 * in-app step's result in state), signed. Best of 3 rounds.
 */
async function frameworkFloor(mode) {
  const { bridgeHandler } = await import(pathToFileURL(appPath).href);
  const handle = bridgeHandler(mode, KEY, (req) => ({
    body: () => req.body,
    headers: (key) => req.headers[key],
    method: () => 'POST',
    url: () => new URL(req.url, 'http://localhost'),
    transformResponse: (r) => r,
  }));
  // The framework logs through console.info in dev mode: silenced here, as /dev/null takes it in the app.
  const info = console.info;
  console.info = () => {};
  const trigger = { stepId: 'trigger', outputs: payload, state: { status: 'completed' } };
  const inbox = { stepId: 'inbox', outputs: { seen: false, read: false, lastSeenDate: null, lastReadDate: null }, state: { status: 'completed' } };
  const call = async (stepId, i, state) => {
    const body = { payload, controls: {}, subscriber: { subscriberId: `u-${i}`, firstName: `User ${i}`, email: `u${i}@example.com` }, state };
    const signature = bridgeSignature(KEY, body, Date.now());
    const answer = await handle({ url: `/api/novu?action=execute&workflowId=bench-bridge&stepId=${stepId}`, headers: { 'novu-signature': signature }, body });
    if (answer.status !== 200) throw new Error(`framework floor: ${answer.status} ${answer.body}`);
  };
  let best = Number.POSITIVE_INFINITY;
  try {
    for (let round = 0; round < 4; round++) {
      // 16 notifications at a time, as the runner keeps jobs in flight (the framework checks
      // signatures with WebCrypto, whose work goes through the thread pool: one at a time, each
      // request would pay a thread's wake-up).
      const n = 1600;
      const c0 = process.cpuUsage();
      await Promise.all(
        Array.from({ length: 16 }, async (_, lane) => {
          for (let i = lane; i < n; i += 16) {
            await call('inbox', i, [trigger]);
            await call('mail', i, [trigger, inbox]);
          }
        }),
      );
      const c = process.cpuUsage(c0);
      if (round > 0) best = Math.min(best, (c.user + c.system) / n);
    }
  } finally {
    console.info = info;
  }
  return best;
}

const rate = (n, ms) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
const floors = {};
for (const mode of modes) floors[mode] = profileBridge ? 0 : await frameworkFloor(mode);
const apps = [];
for (const mode of modes) apps.push(await startApp(mode));
console.log('two-step workflow (in_app then email), file store, triggers of 100 recipients, until every job is terminal');
console.log(
  `framework floor (its handler in-process, the two execute requests of a notification, no HTTP): ${modes.map((m) => `${m} ${floors[m].toFixed(0)} µs/notif`).join(', ')}`,
);
const cols = ['recipients', 'path', 'notif/s', 'bridge/svc dev', 'svc dev µs/notif', 'app µs/notif', '2-core bound'];
const widths = [10, 22, 16, 14, 16, 12, 12];
const line = (cells) => console.log(cells.map((c, i) => String(c).padStart(widths[i])).join('  '));
line(cols);
try {
  // Warm-up of every path (module loading, JIT, the app's first discovery).
  for (const app of apps) await measure(200, 'bridge', app);
  if (baseline) for (const app of apps) await measure(200, 'bridge', app, baseline);
  if (!profileBridge) await measure(200, 'service');
  // Best of `rounds` of each path, the paths taking turns (the machine is shared: a round slowed
  // by someone else's work is not the one reported); each figure is its own best.
  const min = (b, m) => (b ? { elapsed: Math.min(b.elapsed, m.elapsed), cpu: Math.min(b.cpu, m.cpu), appCpu: Math.min(b.appCpu, m.appCpu) } : m);
  const best = async (n, mode, app) => {
    let b;
    for (let r = 0; r < rounds; r++) b = min(b, await measure(n, mode, app));
    return b;
  };
  /** This tree and the baseline's, round by round. */
  const bestOfBoth = async (n, app) => {
    let b;
    let base;
    // Which goes first changes every round: the app process warms up (JIT, sockets) as it runs.
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 1) base = min(base, await measure(n, 'bridge', app, baseline));
      b = min(b, await measure(n, 'bridge', app));
      if (r % 2 === 0) base = min(base, await measure(n, 'bridge', app, baseline));
    }
    return [b, base];
  };
  for (const n of sizes) {
    const service = profileBridge ? { elapsed: 1, cpu: 1 } : await best(n, 'service');
    line([n, 'defined in svc dev', `${rate(n, service.elapsed)} (${(service.elapsed / 1000).toFixed(2)} s)`, '', service.cpu.toFixed(0), '', '']);
    for (const app of apps) {
      const [bridge, base] = baseline ? await bestOfBoth(n, app) : [await best(n, 'bridge', app)];
      const row = (label, r) =>
        line([
          n,
          label,
          `${rate(n, r.elapsed)} (${(r.elapsed / 1000).toFixed(2)} s)`,
          `${(service.elapsed / r.elapsed).toFixed(2)}x`,
          r.cpu.toFixed(0),
          r.appCpu.toFixed(0),
          `${(service.cpu / Math.max(r.cpu, r.appCpu)).toFixed(2)}x`,
        ]);
      row(`bridge, app ${app.mode}`, bridge);
      if (base) row(`baseline, app ${app.mode}`, base);
    }
  }
  const conns = [];
  for (const app of apps) conns.push(`${app.mode} ${await app.connections()}`);
  console.log(`connections each app accepted over the whole run: ${conns.join(', ')}`);
} finally {
  for (const app of apps) app.proc.kill();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `notif/s = notifications (recipients) per second, each two jobs and two messages; bridge/svc dev = throughput through the bridge over the same steps defined in svc dev (goal ≥ 0.5x); µs/notif = CPU (user + system) of each process per notification; 2-core bound = svc dev µs (defined in svc dev) / the busier side's µs through the bridge: the ratio when each process has a core to itself${baseline ? `; baseline = the same runs through svc dev built from ${baselineSrc}, its rounds alternating with this tree's` : ''}`,
);

// Code-first workflows through a bridge: notifications/s of a two-step workflow (in_app then email)
// whose steps svc dev executes by calling the app that serves them (@novu/framework behind node:http,
// bench/bridge-app.mjs, in its own process, signatures checked), beside the same two steps defined in
// svc dev itself (Liquid controls), in the same run, on a file store as `svc dev` uses by default.
// Each measurement: N recipients (triggers of 100 through the HTTP routes, in process), timed from the
// first trigger until every job is terminal, on a fresh store. The bridge costs one loopback HTTP round
// trip per step (two per notification), and the framework's own work (validation, rendering, logging).
// Run: node bench/bridge-throughput.mjs [--sizes 500,2000]
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = String(arg('sizes', '500,2000')).split(',').map(Number);
const KEY = 'sk_bench_bridge_0123456789';
const src = (p) => fileURLToPath(new URL(`../src/server/${p}`, import.meta.url));

const dir = mkdtempSync(fileURLToPath(new URL('./.tmp-bridge-throughput-', import.meta.url)));
const entry = join(dir, 'entry.ts');
writeFileSync(entry, `export { createLocalService } from ${JSON.stringify(src('index.ts'))};\n`);
const outfile = join(dir, 'server.mjs');
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'error',
  external: ['better-sqlite3', 'fastify'],
  define: { __SVC_VERSION__: '"bench"' },
  banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
});
const { createLocalService } = await import(pathToFileURL(outfile).href);

// The app: its own process (as a team's app is), its console output (the framework logs every step) discarded.
const app = spawn(process.execPath, [fileURLToPath(new URL('./bridge-app.mjs', import.meta.url))], {
  env: { ...process.env, NOVU_SECRET_KEY: KEY },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const bridgeUrl = await new Promise((resolve, reject) => {
  let out = '';
  const first = (d) => {
    out += d;
    const nl = out.indexOf('\n');
    if (nl < 0) return;
    // Then the framework's own log lines: read and dropped.
    app.stdout.off('data', first);
    app.stdout.resume();
    resolve(JSON.parse(out.slice(0, nl)).url);
  };
  app.stdout.on('data', first);
  app.on('exit', (code) => reject(new Error(`the bridge app exited (${code})`)));
});

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
function appCpu() {
  try {
    const f = readFileSync(`/proc/${app.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
  } catch {
    return 0;
  }
}

let runs = 0;
async function measure(recipients, mode) {
  const data = join(dir, `${mode}-${recipients}-${++runs}.sqlite`);
  const svc = createLocalService({
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
    const r = await inject('/v1/bridge/sync?source=cli', { bridgeUrl });
    if (r.statusCode !== 201) throw new Error(`sync answered ${r.statusCode}: ${r.body}`);
  }
  const cpu0 = process.cpuUsage();
  const app0 = appCpu();
  const started = performance.now();
  for (let t = 0; t < recipients / 100; t++) {
    const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `u-${t}-${i}`, firstName: `User ${i}`, email: `u${t}.${i}@example.com` }));
    const r = await inject('/v1/events/trigger', { name, to, payload });
    if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}: ${r.body}`);
  }
  await svc.runner.idle();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  const appUsed = appCpu() - app0;
  const open = svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'skipped', 'merged', 'canceled')").get().n;
  const sent = svc.store.db.prepare("SELECT count(*) AS n FROM messages WHERE status = 'sent'").get().n;
  const content = svc.store.db.prepare("SELECT json_extract(doc, '$.content') AS c FROM messages WHERE channel = 'in_app' LIMIT 1").get()?.c;
  await svc.close();
  if (open !== 0 || sent !== 2 * recipients) throw new Error(`${mode}: ${open} jobs not terminal, ${sent} of ${2 * recipients} messages sent`);
  if (!String(content).startsWith('Ada commented on Release notes')) throw new Error(`${mode}: unexpected content ${content}`);
  return { elapsed, cpu: (used.user + used.system) / recipients, appCpu: appUsed / recipients };
}

const rate = (n, ms) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
console.log(`two-step workflow (in_app then email), file store, triggers of 100 recipients, until every job is terminal; bridge ${bridgeUrl}`);
console.log(`${'recipients'.padStart(10)}  ${'through the bridge'.padStart(26)}  ${'defined in svc dev'.padStart(26)}  bridge/svc dev`);
try {
  // Warm-up of both paths (module loading, JIT, the app's first discovery).
  await measure(200, 'bridge');
  await measure(200, 'service');
  for (const n of sizes) {
    const bridge = await measure(n, 'bridge');
    const service = await measure(n, 'service');
    console.log(
      `${String(n).padStart(10)}  ${`${rate(n, bridge.elapsed)} notif/s (${(bridge.elapsed / 1000).toFixed(2)} s)`.padStart(26)}  ${`${rate(n, service.elapsed)} notif/s (${(service.elapsed / 1000).toFixed(2)} s)`.padStart(26)}  ${(service.elapsed / bridge.elapsed).toFixed(2)}x   cpu µs/notif: svc dev ${bridge.cpu.toFixed(0)} + app ${bridge.appCpu.toFixed(0)} vs svc dev ${service.cpu.toFixed(0)}`,
    );
  }
} finally {
  app.kill();
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  'notif/s = notifications (recipients) per second, each two jobs and two messages; bridge/svc dev = throughput through the bridge over the same steps defined in svc dev (goal ≥ 0.5x)',
);

// Trigger throughput of `svc dev` beside a bare fastify answering a constant, on the same machine in
// the same run (autocannon, same connections and duration). Run after `npm run build`:
//   node bench/server-trigger.mjs [--duration 10] [--connections 10] [--memory] [--runs 3]
//     [--baseline-bin .tmp-base-full/bin/svc.js] [--drivers better-sqlite3,node:sqlite]
// `svc dev` uses a file store (WAL) unless --memory; its job runner delivers in the background while
// the triggers come in, as it would in use. --baseline-bin measures another build of svc (e.g. the
// commit before a change, unpacked with `git archive <ref> | tar -x -C .tmp-base-full` and built) in
// the same run; `label=/path/to/node+/path/to/bin/svc.js` runs that build on another Node (e.g. an
// older build on the Node it supported). --drivers also runs the service from a bundle of src/ on
// each store driver named (bench/lib/serve-bundle.mjs; node:sqlite is Node's built-in). Each figure is the median of --runs; `cpu/req` is the svc process's own CPU time
// (user + system, from /proc) per answered request, including the delivery of its jobs (the runner's
// backlog after the load is waited for and counted), less sensitive than req/s to other load on the
// machine.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', 10));
const connections = Number(arg('connections', 10));
const memory = process.argv.includes('--memory');
const runs = Number(arg('runs', 1));
const baselineBin = arg('baseline-bin');
const drivers = (arg('drivers') ?? '').split(',').filter(Boolean);
const SERVE_BUNDLE = fileURLToPath(new URL('./lib/serve-bundle.mjs', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const KEY = 'sk_bench_0123456789abcdef';

/** Starts a child process and resolves with the first line it prints on stdout. */
function start(args, env = {}, exec = process.execPath) {
  const child = spawn(exec, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl) });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

/** CPU time (ms, user + system) the process has used so far; Linux only, else NaN. */
function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

function load(title, url, opts, pid) {
  const c0 = cpuMs(pid);
  const own0 = process.cpuUsage();
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...opts }, (err, r) => {
      if (err) return reject(err);
      const cpu = (cpuMs(pid) - c0) / r.requests.total;
      // autocannon runs in this process: its CPU per request is the load generator's share of the 2 cores.
      const own = process.cpuUsage(own0);
      const client = (own.user + own.system) / 1000 / r.requests.total;
      resolve({ title, rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpu, client, total: r.requests.total });
    });
  });
}

/** Waits until the runner has finished every job (the backlog left by the load); seconds. */
async function drain(baseUrl) {
  const started = performance.now();
  for (;;) {
    const r = await fetch(`${baseUrl}/v1/notifications?limit=1`, { headers: { authorization: `ApiKey ${KEY}` } });
    const n = (await r.json()).data[0];
    if (!n || n.jobs.every((j) => !['pending', 'queued', 'running'].includes(j.status))) return (performance.now() - started) / 1000;
    await new Promise((res) => setTimeout(res, 100));
  }
}

const baselineCode = `
  import Fastify from 'fastify';
  const app = Fastify();
  app.post('/v1/events/trigger', async (req, reply) => reply.code(201).send({ data: { acknowledged: true, status: 'processed' } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(JSON.stringify({ baseUrl: 'http://127.0.0.1:' + app.server.address().port }) + '\\n');
  process.on('SIGINT', () => app.close().then(() => process.exit(0)));
`;

const body = JSON.stringify({ name: 'otp', to: 'ada', payload: { code: '123456' } });
const request = { method: 'POST', headers: { 'content-type': 'application/json', authorization: `ApiKey ${KEY}` }, body };

const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// --baseline-bin a/bin/svc.js or label=a/bin/svc.js,label2=b/bin/svc.js: other builds, same run.
const others = (baselineBin ?? '')
  .split(',')
  .filter(Boolean)
  .map((e, i) => (e.includes('=') ? e.split('=') : [i ? `baseline ${i + 1}` : 'baseline', e]));
const targets = [['bare', null], ['svc', BIN], ...drivers.map((d) => [`bundle, ${d}`, `driver:${d}`]), ...others];
const all = new Map(targets.map(([k]) => [k, []]));
let n = 0;
try {
  for (let run = 0; run < runs; run++) {
    for (const [kind, bin] of targets) {
      if (kind === 'bare') {
        const base = await start(['--input-type=module', '-e', baselineCode], { NODE_PATH: '' });
        all.get(kind).push(await load('bare fastify (constant)', `${JSON.parse(base.line).baseUrl}/v1/events/trigger`, request, base.child.pid));
        await stop(base.child);
        continue;
      }
      const store = memory ? ['--in-memory'] : ['--data', join(dir, `bench-${++n}.sqlite`)];
      const [exec, script] = bin.includes('+') ? bin.split('+') : [process.execPath, bin];
      const dev = bin.startsWith('driver:')
        ? await start([SERVE_BUNDLE, '--data', memory ? ':memory:' : store[1], '--api-key', KEY, '--driver', bin.slice('driver:'.length)])
        : await start([script, 'dev', '--port', '0', ...store, '--api-key', KEY, '--no-save-profile', '--quiet', '-o', 'json'], { SVC_CONFIG_DIR: dir }, exec);
      const { baseUrl } = JSON.parse(dev.line);
      const title = `${kind === 'svc' ? 'svc dev' : kind} (${memory ? 'in-memory' : 'file'} store)`;
      const c0 = cpuMs(dev.child.pid);
      const r = await load(title, `${baseUrl}/v1/events/trigger`, request, dev.child.pid);
      r.drain = await drain(baseUrl);
      // CPU per trigger including the runner's backlog: a build that defers delivery is not cheaper.
      r.cpu = (cpuMs(dev.child.pid) - c0) / r.total;
      all.get(kind).push(r);
      await stop(dev.child);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`autocannon: ${connections} connections, ${duration} s each, POST /v1/events/trigger; median of ${runs} run(s)`);
for (const [kind] of targets) {
  const rs = all.get(kind);
  const m = (f) => median(rs.map(f));
  // Delivered per second: every trigger of the load with its job run, over the load's duration plus
  // the backlog the runner still had when it ended (a build that defers delivery does not win here).
  const drain =
    kind === 'bare'
      ? ''
      : `   runner backlog done ${m((r) => r.drain).toFixed(1)} s after   delivered ${m((r) => r.total / (duration + r.drain)).toFixed(0)}/s`;
  console.log(
    `${rs[0].title.padEnd(34)} ${m((r) => r.rps)
      .toFixed(0)
      .padStart(
        7,
      )} req/s   p99 ${String(m((r) => r.p99)).padStart(4)} ms   cpu/req ${(m((r) => r.cpu) * 1000).toFixed(0).padStart(4)} µs   client cpu/req ${(m((r) => r.client) * 1000).toFixed(0).padStart(3)} µs   non-2xx ${m((r) => r.non2xx)}   errors ${m((r) => r.errors)}${drain}`,
  );
}

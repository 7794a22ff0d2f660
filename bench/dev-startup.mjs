// `svc dev --in-memory` from spawn to its first answer, and its RSS once idle, beside a bare CommonJS
// node:http server answering the same request (bench/lib/bare-server.cjs), measured in the same run, in
// turn (floor, svc, [before], floor, svc, ...: load from other processes falls on all alike):
//   spawn -> the address on stdout -> GET /v1/integrations/active with the key -> its 200: milliseconds
//   (goal: at most 4x the floor's);
//   the CPU time the process used until then (/proc/PID/stat; moved less by load than the wall time);
//   VmRSS of the process that serves (bin/svc.js hands a too-old Node's run to a child node: that child),
//   read from /proc once the answer is in and the service has been idle IDLE_MS (goal: at most 90 MB).
// Medians of `runs` after 2 warm-up runs, which also write each build's compile cache (its own folder per
// build and Node line).
//
//   node bench/dev-startup.mjs [runs]     after `npm run build` (default 11 runs)
//   SVC_BENCH_NODES=/path/node22,/path/node24,/path/node26   the Node binaries to run on (default: this one)
//   SVC_BENCH_BEFORE=/path/to/another/built/checkout          adds that build's svc dev beside (before/after)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 11);
const WARMUP = 2;
const IDLE_MS = 500;
const KEY = 'sk_test_x';
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const builds = [['svc dev', here('../bin/svc.js')]];
if (process.env.SVC_BENCH_BEFORE) builds.push(['before', join(process.env.SVC_BENCH_BEFORE, 'bin/svc.js')]);
const nodes = (process.env.SVC_BENCH_NODES ?? process.execPath).split(',').filter(Boolean);
const GOAL_RATIO = 4;
const GOAL_RSS_MB = 90;

const scratch = mkdtempSync(join(tmpdir(), 'svc-dev-startup-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const baseEnv = { ...process.env, SVC_CONFIG_DIR: scratch, NO_COLOR: '1' };
delete baseEnv.NODE_OPTIONS;
delete baseEnv.NODE_COMPILE_CACHE;

/** The process that serves: the spawned one, or the node it handed the run to. */
function servingPid(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.length > 0 ? Number(children[0]) : pid;
  } catch {
    return pid;
  }
}

function rssMb(pid) {
  const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** CPU time (user + system) the process has used so far, in ms: a figure load on the machine moves less. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `ApiKey ${KEY}` }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
  });
}

/** One start: spawn → first line (the address) → the request's 200; then RSS once idle; then stop. */
function once(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let asked = false;
    let stopping = false;
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code, signal) => {
      if (!stopping) reject(new Error(`${cmd} ${args.join(' ')} exited ${code ?? signal}: ${err}`));
    });
    p.stdout.on('data', async (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0 || asked) return;
      asked = true;
      try {
        const { baseUrl } = JSON.parse(out.slice(0, nl));
        const status = await get(`${baseUrl}/v1/integrations/active`);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        const cpu = cpuMs(servingPid(p.pid));
        if (status !== 200) throw new Error(`GET /v1/integrations/active answered ${status}`);
        await sleep(IDLE_MS);
        const rss = rssMb(servingPid(p.pid));
        stopping = true;
        p.once('exit', () => resolve({ ms, rssMb: rss, cpu }));
        p.kill('SIGTERM');
      } catch (e) {
        p.kill('SIGKILL');
        reject(e);
      }
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function version(node) {
  return new Promise((resolve) => {
    const p = spawn(node, ['--version']);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', () => resolve(out.trim()));
  });
}

console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0].toFixed(1)}; median of ${runs} starts each, in turn with the floor\n`,
);
for (const node of nodes) {
  const entries = [
    { label: 'floor (CommonJS node:http server)', cmd: node, args: [here('./lib/bare-server.cjs'), KEY], env: baseEnv },
    ...builds.map(([label, bin]) => ({
      label,
      cmd: node,
      args: [bin, 'dev', '--in-memory', '--port', '0', '--no-save-profile', '--api-key', KEY, '-o', 'json', '--no-log'],
      env: { ...baseEnv, SVC_CACHE_DIR: mkdtempSync(join(scratch, 'cache-')) },
    })),
  ];
  const samples = entries.map(() => []);
  for (let i = 0; i < WARMUP + runs; i++) {
    for (const [j, e] of entries.entries()) {
      const s = await once(e.cmd, e.args, e.env);
      if (i >= WARMUP) samples[j].push(s);
    }
  }
  const results = entries.map((e, j) => ({
    label: e.label,
    ms: median(samples[j].map((s) => s.ms)),
    rssMb: median(samples[j].map((s) => s.rssMb)),
    cpu: median(samples[j].map((s) => s.cpu)),
  }));
  const [floor, ...svcs] = results;
  console.log(`${await version(node)} svc dev --in-memory: spawn to first 200, idle RSS`);
  const line = (r) => `  ${r.label.padEnd(36)} ${r.ms.toFixed(1)} ms, ${r.rssMb.toFixed(1)} MB  (CPU ${r.cpu.toFixed(0)} ms to the answer)`;
  console.log(line(floor));
  for (const r of svcs) {
    const ratio = r.ms / floor.ms;
    console.log(line(r));
    console.log(`    ${ratio.toFixed(2)}x the floor's time  [goal ≤ ${GOAL_RATIO}x: ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}]`);
    console.log(`    ${r.rssMb.toFixed(1)} MB idle RSS     [goal ≤ ${GOAL_RSS_MB} MB: ${r.rssMb <= GOAL_RSS_MB ? 'met' : 'NOT met'}]`);
  }
}

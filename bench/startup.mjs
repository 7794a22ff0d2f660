// Start-up cost of svc on each supported Node line, each figure beside its baseline measured in the same
// run, in turn (baseline, svc, svc before, baseline, ...: load from other processes falls on all alike):
//   svc --version                  beside  node -e 0                   (goal: at most 1.2x)
//   three one-request commands     beside  the node:http floor: a bare script sending the same request
//                                          with node:http, parsing and printing the answer
//                                          (goal: at most 1.3x its wall time, 1.2x its peak RSS), and
//                                          the same script taking node:http from process.getBuiltinModule
//                                          ("lean floor": an ES import of node:http loads Node's undici)
// against a local server answering constants. Medians of `runs` after 2 warm-up runs, which also write
// each build's compile cache (its own cache folder per build and line).
//
//   node bench/startup.mjs [runs]        after `npm run build`
//   SVC_BENCH_NODES=/path/node22,/path/node24,/path/node26   the Node binaries to run on (default: this one)
//   SVC_BENCH_BEFORE=/path/to/another/built/checkout          adds that build's svc beside (before/after)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareInTurn } from './lib/one-shot.mjs';

const runs = Number(process.argv[2] ?? 15);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const builds = [['svc', here('../bin/svc.js')]];
if (process.env.SVC_BENCH_BEFORE) builds.push(['before', join(process.env.SVC_BENCH_BEFORE, 'bin/svc.js')]);
const nodes = (process.env.SVC_BENCH_NODES ?? process.execPath).split(',').filter(Boolean);

const server = spawn(process.execPath, [here('./lib/constant-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill('SIGTERM'));
const url = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
const env = { ...process.env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench_0123456789abcdef', NO_COLOR: '1' };
delete env.NODE_COMPILE_CACHE;

const EVENT_ID = '6b0574efc82488abb79e6d27';
const floor = here('./lib/floor-http.mjs');
const leanFloor = here('./lib/floor-http-builtin.mjs');
const oneShot = [
  ['integrations active', ['integrations', 'active', '-o', 'json'], ['integrations']],
  ['trigger --to x', ['trigger', 'bench-note', '--to', 'x', '-o', 'json'], ['trigger', 'bench-note', 'x']],
  ['events get ID', ['events', 'get', EVENT_ID, '-o', 'json'], ['event', EVENT_ID]],
];

console.log(`${cpus().length} cores (${cpus()[0]?.model ?? '?'}), median of ${runs} runs each, in turn with the baseline\n`);
const fmt = (r) => `${r.ms.toFixed(0)} ms, ${r.rssMb.toFixed(0)} MB, CPU ${r.cpuMs.toFixed(0)} ms`;
const ratio = (s, b) => `${(s.ms / b.ms).toFixed(2)}x time, ${(s.rssMb / b.rssMb).toFixed(2)}x RSS, ${(s.cpuMs / b.cpuMs).toFixed(2)}x CPU`;
for (const node of nodes) {
  const { stdout: version } = await new Promise((resolve) => {
    const p = spawn(node, ['--version']);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', () => resolve({ stdout: out.trim() }));
  });
  // Each build its own cache folder on each line: a first run writes it, the warm-up runs fill it.
  const envs = builds.map(() => ({ ...env, SVC_CACHE_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-cache-')) }));
  const cases = [['--version', ['--version'], [{ label: 'node -e 0', cmd: node, args: ['-e', '0'] }]]];
  for (const [label, argv, floorArgs] of oneShot) {
    const floors = [
      { label: 'floor', cmd: node, args: [floor, ...floorArgs] },
      { label: 'lean floor', cmd: node, args: [leanFloor, ...floorArgs] },
    ];
    cases.push([label, argv, floors]);
  }
  for (const [label, argv, baselines] of cases) {
    const svcs = builds.map(([name, bin], i) => ({ label: name, cmd: node, args: [bin, ...argv], env: envs[i] }));
    const results = await compareInTurn([...baselines, ...svcs], { runs, env });
    const bs = results.slice(0, baselines.length);
    console.log(`${version.padEnd(9)} svc ${label.padEnd(20)} ${bs.map((b) => `${b.label} ${fmt(b)}`).join(', ')}`);
    for (const r of results.slice(baselines.length)) {
      console.log(`${''.padEnd(14)}${r.label.padEnd(7)} ${fmt(r).padEnd(28)} ${bs.map((b) => `${ratio(r, b)} ${b.label}`).join('; ')}`);
    }
  }
}
server.kill('SIGTERM');

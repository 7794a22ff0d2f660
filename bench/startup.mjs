// Start-up cost of svc on each supported Node line, each figure beside its baseline measured in the same
// run, in turn (baseline, svc, svc before, baseline, ...: load from other processes falls on all alike):
//   svc --version                  beside  node -e 0                       (goal: at most 1.2x its time)
//   three one-request commands     beside  the floor: a CommonJS script sending the same request with
//                                          require('node:http'), parsing and printing the answer
//                                          (bench/lib/floor-http.cjs; goal for integrations active: at
//                                          most 1.3x its wall time and 1.2x its peak RSS), and the lean
//                                          floor, an ES module taking node:http from
//                                          process.getBuiltinModule (bench/lib/floor-http-builtin.mjs)
// against a local server answering constants. Medians of `runs` after 2 warm-up runs, which also write
// each build's compile cache (its own cache folder per build and line). Peak RSS is /usr/bin/time's.
//
//   node bench/startup.mjs [runs]        after `npm run build`
//   SVC_BENCH_NODES=/path/node22,/path/node24,/path/node26   the Node binaries to run on (default: this one)
//   SVC_BENCH_BEFORE=/path/to/another/built/checkout          adds that build's svc beside (before/after)
//   SVC_BENCH_ONLY=version,integrations                       only these cases
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareInTurn } from './lib/one-shot.mjs';

const runs = Number(process.argv[2] ?? 15);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const builds = [['svc', here('../bin/svc.js')]];
if (process.env.SVC_BENCH_BEFORE) builds.push(['before', join(process.env.SVC_BENCH_BEFORE, 'bin/svc.js')]);
const nodes = (process.env.SVC_BENCH_NODES ?? process.execPath).split(',').filter(Boolean);
const only = process.env.SVC_BENCH_ONLY?.split(',');

const server = spawn(process.execPath, [here('./lib/constant-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill('SIGTERM'));
const url = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
const env = { ...process.env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench_0123456789abcdef', NO_COLOR: '1' };
delete env.NODE_COMPILE_CACHE;
delete env.NODE_OPTIONS;

const EVENT_ID = '6b0574efc82488abb79e6d27';
const floor = here('./lib/floor-http.cjs');
const leanFloor = here('./lib/floor-http-builtin.mjs');
// [key, label, svc's argv, the floors' argv, goal: [max time ratio, max RSS ratio] against the first baseline]
const cases = [
  ['version', '--version', ['--version'], null, [1.2, null]],
  ['integrations', 'integrations active', ['integrations', 'active', '-o', 'json'], ['integrations'], [1.3, 1.2]],
  ['trigger', 'trigger --to x', ['trigger', 'bench-note', '--to', 'x', '-o', 'json'], ['trigger', 'bench-note', 'x'], null],
  ['event', 'events get ID', ['events', 'get', EVENT_ID, '-o', 'json'], ['event', EVENT_ID], null],
].filter(([key]) => !only || only.includes(key));

console.log(
  `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg()[0].toFixed(1)}; median of ${runs} runs each, in turn with the baselines\n`,
);
const fmt = (r) => `${r.ms.toFixed(1)} ms, ${r.rssMb.toFixed(1)} MB, CPU ${r.cpuMs.toFixed(0)} ms`;
const ratio = (s, b) => `${(s.ms / b.ms).toFixed(2)}x time, ${(s.rssMb / b.rssMb).toFixed(2)}x RSS`;
const verdict = (s, b, goal) => {
  if (!goal) return '';
  const [t, m] = goal;
  const ok = s.ms / b.ms <= t && (m === null || s.rssMb / b.rssMb <= m);
  return `  [goal ≤ ${t}x time${m ? `, ≤ ${m}x RSS` : ''}: ${ok ? 'met' : 'NOT met'}]`;
};
for (const node of nodes) {
  const version = await new Promise((resolve) => {
    const p = spawn(node, ['--version']);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', () => resolve(out.trim()));
  });
  // Each build its own cache folder on each line: a first run writes it, the warm-up runs fill it.
  const envs = builds.map(() => ({ ...env, SVC_CACHE_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-cache-')) }));
  for (const [, label, argv, floorArgs, goal] of cases) {
    const baselines = floorArgs
      ? [
          { label: 'floor (CommonJS, require node:http)', cmd: node, args: [floor, ...floorArgs] },
          { label: 'lean floor (ESM, getBuiltinModule)', cmd: node, args: [leanFloor, ...floorArgs] },
        ]
      : [{ label: 'node -e 0', cmd: node, args: ['-e', '0'] }];
    const svcs = builds.map(([name, bin], i) => ({ label: name, cmd: node, args: [bin, ...argv], env: envs[i] }));
    const results = await compareInTurn([...baselines, ...svcs], { runs, env });
    const bs = results.slice(0, baselines.length);
    console.log(`${version} svc ${label}`);
    for (const b of bs) console.log(`  ${b.label.padEnd(36)} ${fmt(b)}`);
    for (const r of results.slice(baselines.length)) {
      console.log(`  ${r.label.padEnd(36)} ${fmt(r)}`);
      for (const [i, b] of bs.entries()) console.log(`    ${ratio(r, b)} ${b.label}${i === 0 ? verdict(r, b, goal) : ''}`);
    }
  }
}
server.kill('SIGTERM');

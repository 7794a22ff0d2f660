// Start-up cost of svc, each figure beside a baseline measured in the same run:
//   svc --version and svc events list --help  beside  node -e 0
//   svc integrations active -o json            beside  a bare script that loads undici and sends the same request
//   three one-request commands                 beside  the node:http floor: a bare script sending the same
//                                              request with node:http, parsing and printing the answer
//                                              (issue 11, goal 1: at most 1.5x its wall time and peak RSS)
// against a local server answering constants. Run after `npm run build`: node bench/startup.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeCommand, row } from './lib/measure.mjs';
import { compareInTurn } from './lib/one-shot.mjs';

const runs = Number(process.argv[2] ?? 30);
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const server = spawn(process.execPath, [here('./lib/constant-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));
const env = { ...process.env, SVC_BASE_URL: url, SVC_API_KEY: 'sk_bench_0123456789abcdef', NO_COLOR: '1' };

console.log(`node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${runs} runs each\n`);
const node0 = timeCommand(process.execPath, ['-e', '0'], { runs });
console.log(row('baseline: node -e 0', node0));
console.log(row('svc --version', timeCommand(process.execPath, [bin, '--version'], { runs }), node0));
console.log(row('svc events list --help', timeCommand(process.execPath, [bin, 'events', 'list', '--help'], { runs }), node0));
console.log(
  row(
    'svc events list --limit 0 (usage error, exit 2)',
    timeCommand(process.execPath, [bin, 'events', 'list', '--limit', '0'], { runs, expectCode: 2 }),
    node0,
  ),
);
console.log('');
const bare = timeCommand(process.execPath, [here('./lib/bare-undici.mjs')], { runs, env });
console.log(row('baseline: bare undici script, same request', bare));
const svc = timeCommand(process.execPath, [bin, 'integrations', 'active', '-o', 'json'], { runs, env });
console.log(row('svc integrations active -o json', svc, bare));
console.log(`\nrequest command overhead vs bare undici: ${(((svc.mean - bare.mean) / bare.mean) * 100).toFixed(1)}% (goal: at most +15%)`);

// One-request commands beside the node:http floor. Medians of 9 runs taken in turn with the floor; "output"
// is the first byte on stdout, "exit" the wall time to exit; the gap between them is time the process
// stays up after its work is done. svc's code cache (src/core/code-cache.ts) is made by a run before.
const EVENT_ID = '6b0574efc82488abb79e6d27';
const floor = here('./lib/floor-http.mjs');
const oneShot = [
  ['integrations active', ['integrations', 'active', '-o', 'json'], ['integrations']],
  ['trigger --to x', ['trigger', 'bench-note', '--to', 'x', '-o', 'json'], ['trigger', 'bench-note', 'x']],
  ['events get ID', ['events', 'get', EVENT_ID, '-o', 'json'], ['event', EVENT_ID]],
];
// SVC_BENCH_BEFORE=<another built checkout> adds that build's svc to the same turns (before/after figures).
const before = process.env.SVC_BENCH_BEFORE ? join(process.env.SVC_BENCH_BEFORE, 'bin/svc.js') : undefined;
// Its own code cache directory: two builds' hot-path files (dist/hot-<hash>.cjs) have different hashes, and
// each build removes the other's cache when it writes its own, so sharing one directory would compile both
// from source on every run.
const beforeEnv = before ? { ...env, SVC_CACHE_DIR: mkdtempSync(join(tmpdir(), 'svc-bench-before-cache-')) } : undefined;
const cell = (r) => `${r.firstMs.toFixed(0).padStart(4)} ms output, ${r.ms.toFixed(0).padStart(4)} ms exit, ${r.rssMb.toFixed(0).padStart(3)} MB`;
const ratio = (s, f) => `time ${(s.ms / f.ms).toFixed(2)}x, peak RSS ${(s.rssMb / f.rssMb).toFixed(2)}x`;
console.log(`\none-request commands beside the node:http floor (median of 9, in turn; goal: svc at most 1.5x the floor)`);
for (const [label, argv, floorArgs] of oneShot) {
  const [f, s, b] = await compareInTurn(
    [
      { label: 'floor', cmd: process.execPath, args: [floor, ...floorArgs] },
      { label: 'svc', cmd: process.execPath, args: [bin, ...argv] },
      ...(before ? [{ label: 'before', cmd: process.execPath, args: [before, ...argv], env: beforeEnv }] : []),
    ],
    { runs: 9, env },
  );
  console.log(`  ${label.padEnd(20)} floor ${cell(f)}   svc ${cell(s)}   svc/floor: ${ratio(s, f)}`);
  if (b) console.log(`  ${''.padEnd(20)} ${''.padEnd(40)}before ${cell(b)}   before/floor: ${ratio(b, f)}`);
}
server.kill('SIGTERM');

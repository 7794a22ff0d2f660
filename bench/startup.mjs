// Start-up cost of svc, each figure beside a baseline measured in the same run:
//   svc --version and svc events list --help  beside  node -e 0
//   svc integrations active -o json            beside  a bare script that loads undici and sends the same request
// against a local server answering a constant. Run after `npm run build`: node bench/startup.mjs [runs]
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { timeCommand, row } from './lib/measure.mjs';

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
console.log(row('svc events list --limit 0 (usage error, exit 2)', timeCommand(process.execPath, [bin, 'events', 'list', '--limit', '0'], { runs, expectCode: 2 }), node0));
console.log('');
const bare = timeCommand(process.execPath, [here('./lib/bare-undici.mjs')], { runs, env });
console.log(row('baseline: bare undici script, same request', bare));
const svc = timeCommand(process.execPath, [bin, 'integrations', 'active', '-o', 'json'], { runs, env });
console.log(row('svc integrations active -o json', svc, bare));
console.log(`\nrequest command overhead vs bare undici: ${(((svc.mean - bare.mean) / bare.mean) * 100).toFixed(1)}% (goal: at most +15%)`);
server.kill('SIGTERM');


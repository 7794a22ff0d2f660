// Trigger throughput of `svc dev` beside a bare fastify answering a constant, on the same machine in
// the same run (autocannon, same connections and duration). Run after `npm run build`:
//   node bench/server-trigger.mjs [--duration 10] [--connections 10] [--memory]
// `svc dev` uses a file store (WAL) unless --memory; its job runner delivers in the background while
// the triggers come in, as it would in use.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const KEY = 'sk_bench_0123456789abcdef';

/** Starts a child process and resolves with the first line it prints on stdout. */
function start(args, env = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
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

function load(title, url, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ title, rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    });
  });
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
const results = [];
try {
  const base = await start(['--input-type=module', '-e', baselineCode], { NODE_PATH: '' });
  results.push(await load('bare fastify (constant)', `${JSON.parse(base.line).baseUrl}/v1/events/trigger`, request));
  await stop(base.child);

  const store = memory ? ['--in-memory'] : ['--data', join(dir, 'bench.sqlite')];
  const dev = await start([BIN, 'dev', '--port', '0', ...store, '--api-key', KEY, '--no-save-profile', '--quiet'], {
    SVC_CONFIG_DIR: dir,
  });
  results.push(await load(`svc dev trigger (${memory ? 'in-memory' : 'file'} store)`, `${JSON.parse(dev.line).baseUrl}/v1/events/trigger`, request));
  await stop(dev.child);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`autocannon: ${connections} connections, ${duration} s each, POST /v1/events/trigger`);
for (const r of results) {
  console.log(`${r.title.padEnd(36)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`);
}

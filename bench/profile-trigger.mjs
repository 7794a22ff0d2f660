// CPU profile of `svc dev` (file store) under the trigger load of bench/server-trigger.mjs, and a
// summary of where its time goes (self time by function and by module). Run after `npm run build`:
//   node bench/profile-trigger.mjs [--duration 8] [--connections 10] [--out /tmp/prof] [--bin bin/svc.js]
// Prints the top functions by self time and the share per module group; the .cpuprofile file stays in
// --out for Chrome DevTools.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const duration = Number(arg('duration', 8));
const connections = Number(arg('connections', 10));
const out = resolve(arg('out', join(tmpdir(), 'svc-prof')));
const bin = resolve(arg('bin', fileURLToPath(new URL('../bin/svc.js', import.meta.url))));
const top = Number(arg('top', 40));
const KEY = 'sk_bench_0123456789abcdef';
mkdirSync(out, { recursive: true });
// --analyze FILE: only summarise an existing profile (e.g. of bench/engine-throughput.mjs), per --count units.
const analyze = arg('analyze');
let r = { requests: { total: Number(arg('count', 1)) } };
let file = analyze ? resolve(analyze) : undefined;
if (!analyze) {
  const before = new Set(readdirSync(out));
  const dir = mkdtempSync(join(tmpdir(), 'svc-prof-'));

  const child = spawn(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${out}`,
      bin,
      'dev',
      '--port',
      '0',
      '--data',
      join(dir, 'p.sqlite'),
      '--api-key',
      KEY,
      '--no-save-profile',
      '--quiet',
      '-o',
      'json',
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SVC_CONFIG_DIR: dir },
    },
  );
  const line = await new Promise((res) => {
    let s = '';
    child.stdout.on('data', (d) => {
      s += d;
      if (s.includes('\n')) res(s.slice(0, s.indexOf('\n')));
    });
  });
  const { baseUrl } = JSON.parse(line);
  const body = JSON.stringify({ name: 'otp', to: 'ada', payload: { code: '123456' } });
  r = await autocannon({
    url: `${baseUrl}/v1/events/trigger`,
    connections,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `ApiKey ${KEY}` },
    body,
  });
  console.log(`${r.requests.average} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
  await new Promise((res) => setTimeout(res, 1500)); // the runner's backlog
  await new Promise((res) => {
    child.once('exit', res);
    child.kill('SIGINT');
  });
  rmSync(dir, { recursive: true, force: true });
  file = join(
    out,
    readdirSync(out).find((f) => f.endsWith('.cpuprofile') && !before.has(f)),
  );
  console.log(`profile: ${file}`);
}
const prof = JSON.parse(readFileSync(file, 'utf8'));
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
const byFn = new Map();
const byMod = new Map();
let total = 0;
let idle = 0;
// Bundled chunks are mapped back to their source file and line through the build's source maps.
const maps = new Map();
const original = (f) => {
  if (!f.url.includes('/dist/')) return undefined;
  const path = fileURLToPath(f.url);
  if (!maps.has(path)) {
    try {
      maps.set(path, new SourceMapConsumer(JSON.parse(readFileSync(`${path}.map`, 'utf8'))));
    } catch {
      maps.set(path, null);
    }
  }
  const p = maps.get(path)?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
  return p?.source ? { src: p.source.replace(/^(\.\.\/)+/, ''), line: p.line } : undefined;
};
const group = (url) => {
  if (!url) return '(native/vm)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return url;
  return url.replace(/^.*\/(dist|src)\//, '');
};
for (const n of prof.nodes) {
  const t = dt.get(n.id) ?? 0;
  const f = n.callFrame;
  if (f.functionName === '(idle)') {
    idle += t;
    continue;
  }
  total += t;
  const o = original(f);
  const g = o ? (o.src.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? o.src) : group(f.url);
  const key = `${f.functionName || '(anon)'} ${g}:${o ? o.line : f.lineNumber + 1}`;
  byFn.set(key, (byFn.get(key) ?? 0) + t);
  byMod.set(g, (byMod.get(g) ?? 0) + t);
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`busy ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s; busy per request ${(total / r.requests.total) | 0} µs`);
console.log('\nby module:');
for (const [k, t] of [...byMod].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${pct(t)}  ${k}`);
console.log('\nby function (self):');
for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`);

// Inclusive time of a few entry points (--incl name,name): a node under another of the same name is
// not counted twice.
const incl = (
  arg(
    'incl',
    'handler,trigger,flush,look,runDue,route.handle,runHere,settle,startAttempt,dueIds,due,recordOutcome,upsertSubscriber,resolveRecipients,validate,parseJson,authenticate,checkPayload,createNotification,createJob,findByTrigger,forChannel,markTriggered,contextKeysOf,sqliteTransaction,exec',
  ) || ''
)
  .split(',')
  .filter(Boolean);
if (incl.length) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map();
  const inclusive = (id) => {
    if (memo.has(id)) return memo.get(id);
    const n = byId.get(id);
    let t = dt.get(id) ?? 0;
    for (const c of n.children ?? []) t += inclusive(c);
    memo.set(id, t);
    return t;
  };
  console.log('\ninclusive:');
  for (const name of incl) {
    let t = 0;
    for (const n of prof.nodes) {
      if (n.callFrame.functionName !== name) continue;
      let p = parent.get(n.id);
      let nested = false;
      while (p !== undefined) {
        if (byId.get(p).callFrame.functionName === name) {
          nested = true;
          break;
        }
        p = parent.get(p);
      }
      if (!nested) t += inclusive(n.id);
    }
    console.log(`${pct(t)}  ${((t / r.requests.total) | 0).toString().padStart(4)} µs/req  ${name}`);
  }
}

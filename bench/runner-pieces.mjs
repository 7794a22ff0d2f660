// What each piece of src/server/throughput.ts buys: the same loads run on svc dev with all of them,
// with none (the plain loop: every look and every request committed on its own), and with one taken
// away at a time, in one process, the variants alternating round by round (median of --rounds), so
// that other load on the machine falls on all of them alike. Beside them, --baseline-src runs another
// source tree (e.g. main's: `git archive main src | tar -x -C DIR`, with DIR/node_modules linked to this
// checkout's) with its own defaults.
// Loads, on a file store as `svc dev` uses by default, each from a fresh store:
// - engine: a two-step workflow (in_app then email, Liquid in both), triggers of 100 recipients
//   through the HTTP routes in process, until every job is terminal (bench/engine-throughput.mjs's);
// - triggers: one-step triggers (otp: one SMS step) of one recipient, 10 per group-commit batch as 10
//   connections' requests are, with their delivery (bench/trigger-inprocess.mjs's);
// - code-first: the two steps served by a team's app (bench/bridge-app.mjs in its own process, strict
//   mode), every step a call to it (bench/bridge-throughput.mjs's); CPU of svc dev's process only.
// Each figure: the process's CPU time (user + system) per notification, median of the rounds; and
// notifications per second of wall time.
// Run: node bench/runner-pieces.mjs [--rounds 5] [--engine 2000] [--triggers 10000] [--code-first 500] [--variants a,b] [--baseline-src DIR]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, loadServer } from './lib/server-bundle.mjs';

const rounds = Number(arg('rounds', 5));
const ENGINE_N = Number(arg('engine', 2000));
const TRIGGERS_N = Number(arg('triggers', 10000));
const CODE_FIRST_N = Number(arg('code-first', 500));
const baselineSrc = arg('baseline-src');
const only = arg('variants')?.split(',');
const KEY = 'sk_bench_pieces_0123456789';
const extra = [
  ['trigger', 'server/trigger.ts'],
  ['operations', 'api/operations.ts'],
];
const current = await loadServer(undefined, [...extra, ['PLAIN', 'server/throughput.ts'], ['THROUGHPUT', 'server/throughput.ts']]);
const { PLAIN, THROUGHPUT } = current;

/** [name, module, pace (undefined: the module's own), what to set on the store's group commit] */
const variants = [
  ...(baselineSrc ? [['baseline', await loadServer(baselineSrc, extra), undefined, {}]] : []),
  ['all pieces (svc dev)', current, THROUGHPUT, {}],
  ['plain (no piece)', current, PLAIN, { maxBatch: 1 }],
  ['- group commit: a COMMIT per request', current, THROUGHPUT, { maxBatch: 1 }],
  ['- group commit: the runner commits on its own', current, { ...THROUGHPUT, write: PLAIN.write }, {}],
  ['- together: a savepoint per job', current, { ...THROUGHPUT, runReady: PLAIN.runReady }, {}],
  ['- chaining', current, { ...THROUGHPUT, chain: false }, {}],
  ['- app slots: code-first jobs in the 16 shared', current, { ...THROUGHPUT, appSlots: 0 }, {}],
  ['look limit 16 (not 64)', current, { ...THROUGHPUT, lookLimit: 16 }, {}],
  ['look limit 256 (not 64)', current, { ...THROUGHPUT, lookLimit: 256 }, {}],
].filter(([name]) => !only || only.some((o) => name.includes(o)));

const workflow = {
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
        subject: 'New comment on {{ payload.post.title }}',
        body: '<p>Hi {{ subscriber.firstName }},</p><p>{{ payload.actor }} wrote:</p><blockquote>{{ payload.comment }}</blockquote>',
      },
    },
  ],
};
const payload = { actor: 'Ada', comment: 'Looks great, ship it! '.repeat(3), post: { id: 7, title: 'Release notes' } };
const seed = {
  workflows: [workflow],
  integrations: [{ identifier: 'sendgrid', providerId: 'sendgrid', channel: 'email', active: true, primary: true }],
  subscribers: [],
  contexts: [],
  tenants: [],
  topics: [],
  environments: [],
};

const dir = mkdtempSync(join(tmpdir(), 'svc-pieces-'));
let stores = 0;

function service(mod, pace, commit, opts = {}) {
  const svc = mod.createLocalService({ data: join(dir, `s${++stores}.sqlite`), apiKey: KEY, ...(pace && { pace }), ...opts });
  Object.assign(svc.store.groupCommit ?? {}, commit);
  return svc;
}

async function engine(mod, pace, commit) {
  const svc = service(mod, pace, commit, { empty: true, seed });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let t = 0; t < ENGINE_N / 100; t++) {
    const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `u-${t}-${i}`, firstName: `User ${i}`, email: `u${t}.${i}@example.com` }));
    const r = await svc.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      payload: JSON.stringify({ name: 'bench-two-step', to, payload }),
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
    });
    if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}: ${r.body}`);
  }
  await svc.runner.idle();
  return finish(svc, c0, t0, ENGINE_N, 2 * ENGINE_N);
}

async function triggers(mod, pace, commit) {
  const svc = service(mod, pace, commit);
  const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
  const schema = mod.operations.triggerEvent.body;
  const body = { name: 'otp', to: 'ada', payload: { code: '123456' } };
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < TRIGGERS_N; i += 10) {
    const waits = [];
    for (let j = 0; j < 10; j++) {
      const { committed } = svc.store.grouped(() => mod.trigger(deps, svc.environment, schema.parse(body), 'http://x', true));
      waits.push(committed);
    }
    await Promise.all(waits);
  }
  await svc.runner.idle();
  return finish(svc, c0, t0, TRIGGERS_N, TRIGGERS_N);
}

/** The team's app (bench/bridge-app.mjs, strict mode) in its own process; resolves with its URL. */
async function startApp() {
  const proc = spawn(process.execPath, [new URL('./bridge-app.mjs', import.meta.url).pathname], {
    env: { ...process.env, NOVU_SECRET_KEY: KEY, BRIDGE_APP_MODE: 'strict' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m.url));
    proc.once('exit', (code) => reject(new Error(`the bridge app exited (${code})`)));
  });
  return { proc, url };
}
const app = CODE_FIRST_N > 0 ? await startApp() : undefined;

async function codeFirst(mod, pace, commit) {
  const svc = service(mod, pace, commit, { empty: true, seed: { ...seed, workflows: [] } });
  const inject = (url, body) =>
    svc.app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' } });
  const synced = await inject('/v1/bridge/sync?source=cli', { bridgeUrl: app.url });
  if (synced.statusCode !== 201) throw new Error(`sync answered ${synced.statusCode}: ${synced.body}`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let t = 0; t < CODE_FIRST_N / 100; t++) {
    const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `u-${t}-${i}`, firstName: `User ${i}`, email: `u${t}.${i}@example.com` }));
    const r = await inject('/v1/events/trigger', { name: 'bench-bridge', to, payload });
    if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}: ${r.body}`);
  }
  await svc.runner.idle();
  return finish(svc, c0, t0, CODE_FIRST_N, 2 * CODE_FIRST_N);
}

async function finish(svc, c0, t0, n, messages) {
  const elapsed = performance.now() - t0;
  const used = process.cpuUsage(c0);
  const db = svc.store.db;
  const open = db.prepare("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'skipped', 'merged', 'canceled')").get().n;
  const sent = db.prepare("SELECT count(*) AS n FROM messages WHERE status = 'sent'").get().n;
  await svc.close();
  if (open !== 0 || sent !== messages) throw new Error(`${open} jobs not terminal, ${sent} of ${messages} messages sent`);
  return { cpu: (used.user + used.system) / n, rate: n / (elapsed / 1000) };
}

const loads = [...(ENGINE_N > 0 ? [['engine', engine]] : []), ...(TRIGGERS_N > 0 ? [['triggers', triggers]] : []), ...(app ? [['code-first', codeFirst]] : [])];
const results = new Map(variants.map(([name]) => [name, new Map(loads.map(([l]) => [l, []]))]));
try {
  // Warm-up: module loading and the JIT, for every variant's code paths.
  for (const [, mod, pace, commit] of variants) for (const [, load] of loads) await load(mod, pace, commit);
  for (let r = 0; r < rounds; r++) {
    for (const [name, mod, pace, commit] of variants) {
      for (const [l, load] of loads)
        results
          .get(name)
          .get(l)
          .push(await load(mod, pace, commit));
    }
    process.stderr.write(`round ${r + 1} of ${rounds}\n`);
  }
} finally {
  app?.proc.kill();
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = variants.find(([name]) => name.startsWith('all'))?.[0];
console.log(
  `CPU µs per notification, median (fewest) of ${rounds} rounds, the variants alternating, and notifications/s (median); engine: ${ENGINE_N} recipients of a two-step workflow; triggers: ${TRIGGERS_N} one-step triggers; code-first: ${CODE_FIRST_N} recipients through the app`,
);
console.log(`${'variant'.padEnd(46)}${loads.map(([l]) => `${l} µs`.padStart(16) + ' vs all'.padStart(9) + `${l}/s`.padStart(12)).join('')}`);
for (const [name] of variants) {
  const cells = loads.map(([l]) => {
    const rs = results.get(name).get(l);
    const cpu = median(rs.map((x) => x.cpu));
    const least = Math.min(...rs.map((x) => x.cpu));
    const base = first
      ? median(
          results
            .get(first)
            .get(l)
            .map((x) => x.cpu),
        )
      : cpu;
    const rel = `${cpu >= base ? '+' : ''}${(((cpu - base) / base) * 100).toFixed(0)}%`;
    return `${`${cpu.toFixed(0)} (${least.toFixed(0)})`.padStart(16)}${rel.padStart(9)}${median(rs.map((x) => x.rate))
      .toFixed(0)
      .padStart(12)}`;
  });
  console.log(`${name.padEnd(46)}${cells.join('')}`);
}

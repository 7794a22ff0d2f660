// Workflow-engine throughput of the local service: a two-step workflow (in_app then email, Liquid in
// both) triggered for N recipients (triggers of 100 recipients each, through the HTTP routes, in
// process), timed from the first trigger until every job is terminal, on a file store as `svc dev`
// uses by default. Beside it, in the same run and on the same kind of store, a baseline: the same
// notifications with the channel steps' rendering disabled (handlers that store the raw control
// values, as the runner did before the engine). Each measurement gets a fresh store.
// Run: node bench/engine-throughput.mjs [--sizes 100,1000,5000] [--driver better-sqlite3|node:sqlite]
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { driverOptions } from './lib/server-bundle.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = String(arg('sizes', '100,1000,5000')).split(',').map(Number);
const KEY = 'sk_bench_engine_0123456789';
const src = (p) => fileURLToPath(new URL(`../src/server/${p}`, import.meta.url));

// The bundle lives beside this script so that its external packages (better-sqlite3, fastify)
// resolve from the project's node_modules; it is removed at the end.
const dir = mkdtempSync(fileURLToPath(new URL('./.tmp-engine-throughput-', import.meta.url)));
const entry = join(dir, 'entry.ts');
writeFileSync(
  entry,
  [`export { createLocalService } from ${JSON.stringify(src('index.ts'))};`, `export { defaultRegistry } from ${JSON.stringify(src('runner/index.ts'))};`].join(
    '\n',
  ),
);
const outfile = join(dir, 'server.mjs');
await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'error',
  ...driverOptions(arg('driver')),
  define: { __SVC_VERSION__: '"bench"' },
  banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
});
const { createLocalService, defaultRegistry } = await import(pathToFileURL(outfile).href);

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
        body: '<p>Hi {{ subscriber.firstName }},</p><p>{{ payload.actor }} wrote:</p><blockquote>{{ payload.comment }}</blockquote><p><a href="https://app.example.com/posts/{{ payload.post.id }}">Reply</a></p>',
      },
    },
  ],
};
const payload = { actor: 'Ada', comment: 'Looks great, ship it! '.repeat(3), post: { id: 7, title: 'Release notes' } };

/** The pre-engine channel step: the message holds the control values as written, nothing rendered. */
function rawChannel(channel) {
  return {
    run(ctx) {
      const { job, notification: n, subscriber, workflow: wf } = ctx;
      const c = job.step.controlValues;
      const now = new Date(ctx.clock.now()).toISOString();
      const providerId = channel === 'in_app' ? 'svc' : 'sendgrid';
      ctx.setProviderId(providerId);
      ctx.detail({ status: 'Pending', detail: 'Message created', source: 'Internal', providerId });
      ctx.store.messages.create(job.id, {
        _id: ctx.store.messages.newMessageId(),
        _templateId: wf._id,
        _environmentId: n.envId,
        _messageTemplateId: job.step._id,
        _organizationId: n.orgId,
        _notificationId: n.id,
        _subscriberId: subscriber._id,
        _jobId: job.id,
        templateIdentifier: wf.workflowId,
        createdAt: now,
        updatedAt: now,
        deliveredAt: [now],
        transactionId: n.transactionId,
        channel,
        read: false,
        seen: false,
        cta: {},
        _feedId: null,
        status: 'sent',
        providerId,
        payload: n.doc.payload,
        subject: c.subject,
        content: typeof c.body === 'string' ? c.body : '',
        ...(channel === 'email' && { email: subscriber.email }),
      });
      ctx.detail({ status: 'Success', detail: 'Message sent', source: 'Internal', providerId });
      return { status: 'completed' };
    },
  };
}

let runs = 0;
async function measure(recipients, mode) {
  const data = join(dir, `${mode}-${recipients}-${++runs}.sqlite`);
  const registry = defaultRegistry();
  if (mode === 'baseline') registry.register('in_app', rawChannel('in_app')).register('email', rawChannel('email'));
  const svc = createLocalService({
    data,
    apiKey: KEY,
    registry,
    empty: true,
    seed: {
      workflows: [workflow],
      integrations: [{ identifier: 'sendgrid', providerId: 'sendgrid', channel: 'email', active: true, primary: true }],
      subscribers: [],
      contexts: [],
      tenants: [],
      topics: [],
      environments: [],
    },
  });
  const inject = (body) =>
    svc.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      payload: JSON.stringify(body),
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
    });
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let t = 0; t < recipients / 100; t++) {
    const to = Array.from({ length: 100 }, (_, i) => ({ subscriberId: `u-${t}-${i}`, firstName: `User ${i}`, email: `u${t}.${i}@example.com` }));
    const r = await inject({ name: 'bench-two-step', to, payload });
    if (r.statusCode !== 201) throw new Error(`trigger answered ${r.statusCode}: ${r.body}`);
  }
  const acknowledged = performance.now() - started;
  await svc.runner.idle();
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / recipients;
  const open = svc.store.db.prepare("SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'skipped', 'merged', 'canceled')").get().n;
  const sent = svc.store.db.prepare("SELECT count(*) AS n FROM messages WHERE status = 'sent'").get().n;
  const rendered = svc.store.db.prepare("SELECT json_extract(doc, '$.content') AS content FROM messages WHERE channel = 'in_app' LIMIT 1").get().content;
  await svc.close();
  if (open !== 0 || sent !== 2 * recipients) throw new Error(`${mode}: ${open} jobs not terminal, ${sent} of ${2 * recipients} messages sent`);
  return { elapsed, acknowledged, rendered, cpu };
}

const rate = (n, ms) => Math.round(n / (ms / 1000)).toLocaleString('en-US');
console.log('two-step workflow (in_app then email), file store, triggers of 100 recipients; until every job is terminal');
console.log(`${'recipients'.padStart(10)}  ${'engine'.padStart(22)}  ${'baseline (no rendering)'.padStart(24)}  engine/baseline`);
const rows = [];
try {
  // Warm-up: module loading, parse caches and the JIT. 100 recipients were too few for V8 to optimise
  // the hot paths: the first measured size then ran at ~60% of the same size measured again.
  await measure(1000, 'engine');
  await measure(1000, 'baseline');
  for (const n of sizes) {
    const engine = await measure(n, 'engine');
    const baseline = await measure(n, 'baseline');
    if (!engine.rendered.includes('Ada commented on Release notes')) throw new Error(`engine did not render: ${engine.rendered}`);
    rows.push({ n, engine, baseline });
    console.log(
      `${String(n).padStart(10)}  ${`${rate(n, engine.elapsed)} notif/s (${(engine.elapsed / 1000).toFixed(2)} s)`.padStart(22)}  ${`${rate(n, baseline.elapsed)} notif/s (${(baseline.elapsed / 1000).toFixed(2)} s)`.padStart(24)}  ${((baseline.elapsed / engine.elapsed) * 100).toFixed(0)}%   cpu ${engine.cpu.toFixed(0)} µs/notif (${Math.round(1e6 / engine.cpu).toLocaleString('en-US')} notif/s of CPU), baseline ${baseline.cpu.toFixed(0)} µs`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  "notif/s = notifications (recipients) per second, each two jobs and two messages; 100% = as fast as without rendering; cpu = the process's CPU time (user + system) per notification, steadier than wall time on a shared machine",
);

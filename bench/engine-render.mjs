// How many recipients per second the engine renders for a two-step workflow (in-app then email), the
// part of a trigger's cost that is the engine's own, beside liquidjs rendering the same templates
// bare (no analysis, no sanitization, no layout) as a baseline.
// Run: node bench/engine-render.mjs [recipients=1000]
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const recipients = Number(process.argv[2] ?? 1000);
const dir = mkdtempSync(join(tmpdir(), 'svc-engine-bench-'));
const outfile = join(dir, 'engine.mjs');
await build({
  entryPoints: [new URL('../src/server/engine/index.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  logLevel: 'error',
  banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
});
const engine = await import(pathToFileURL(outfile).href);
const { Liquid } = await import('liquidjs');

const inApp = {
  subject: 'Hi {{ subscriber.firstName }}',
  body: '{{ payload.actor }} commented on {{ payload.post.title }}: {{ payload.comment | truncate: 80 }}',
  primaryAction: { label: 'Open', redirect: { url: '/posts/{{ payload.post.id }}' } },
};
const email = {
  subject: 'New comment on {{ payload.post.title }}',
  body: '<p>Hi {{ subscriber.firstName }},</p><p>{{ payload.actor }} wrote:</p><blockquote>{{ payload.comment }}</blockquote><p><a href="https://app.example.com/posts/{{ payload.post.id }}">Reply</a></p>',
};
const scopes = Array.from({ length: recipients }, (_, i) => ({
  subscriber: { subscriberId: `user-${i}`, firstName: `User ${i}`, email: `user${i}@example.com` },
  payload: { actor: 'Ada', comment: 'Looks great, ship it! '.repeat(3), post: { id: i, title: 'Release notes' } },
}));

function timeIt(fn) {
  fn(scopes.slice(0, Math.min(50, scopes.length))); // warm-up: parse caches, JIT
  const start = performance.now();
  fn(scopes);
  return performance.now() - start;
}

const engineMs = timeIt((list) => {
  for (const scope of list) {
    const a = engine.renderStep('in_app', inApp, scope);
    const b = engine.renderStep('email', email, scope);
    if (!a.ok || !b.ok) throw new Error('render failed');
  }
});

const bare = new Liquid();
const bareMs = timeIt((list) => {
  for (const scope of list) {
    for (const source of [inApp.subject, inApp.body, inApp.primaryAction.redirect.url, email.subject, email.body]) bare.parseAndRenderSync(source, scope);
  }
});

const wf = {
  workflowId: 'comments',
  name: 'Comments',
  active: true,
  steps: [
    { name: 'Inbox', type: 'in_app', controlValues: inApp },
    { name: 'Email', type: 'email', controlValues: email },
  ],
};
const viewStart = performance.now();
for (let i = 0; i < 100; i += 1) engine.toWorkflowResponse(wf, { environmentId: 'e', activeIntegrations: [], createdAt: 'c', updatedAt: 'u' });
const viewMs = (performance.now() - viewStart) / 100;

const rate = (ms) => Math.round(recipients / (ms / 1000)).toLocaleString('en-US');
console.log(`two-step render (in_app + email), ${recipients} recipients`);
console.log(`  engine (templates, analysis, sanitization, layout): ${engineMs.toFixed(0)} ms  ${rate(engineMs)} recipients/s`);
console.log(`  baseline (bare liquidjs parseAndRender, same templates): ${bareMs.toFixed(0)} ms  ${rate(bareMs)} recipients/s`);
console.log(`toWorkflowResponse (issues, schemas, example) for that workflow: ${viewMs.toFixed(2)} ms`);
rmSync(dir, { recursive: true, force: true });

// `svc environments diff` and `publish`, the built binary against the real `svc dev`: the diff one line
// per changed resource (`+`, `~`, `-`; coloured when colour is on) or JSON for scripts; publish refused
// without --yes when there is no terminal (exit 2, nothing published), then with --yes the workflow
// is the target's, triggered with the target's own key and delivered with the target's values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin as spawnSvc } from '../helpers/bin.js';
import { api, type DevProcess, startDev } from '../helpers/dev.js';

let dev: DevProcess;
let feature: { id: string; key: string };
let staging: { id: string; key: string };

const as = (key: string, env: Record<string, string | undefined> = {}) => ({ env: { SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: key, ...env } });
async function svc(args: string[], opts: { env: Record<string, string | undefined> }) {
  const r = await spawnSvc(args, opts);
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}
const call = (key: string, method: string, path: string, body?: unknown) => api({ baseUrl: dev.baseUrl, apiKey: key }, method, path, body);

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  const f = (await call(dev.apiKey, 'POST', '/v1/environments', { name: 'feature', color: '#33aa66' })).body.data;
  feature = { id: f._id, key: f.apiKeys[0].key };
  // Made from the feature environment: its key reaches it.
  const s = (await call(dev.apiKey, 'POST', '/v1/environments', { name: 'staging', color: '#3366ff', parentId: feature.id })).body.data;
  staging = { id: s._id, key: s.apiKeys[0].key };
  await call(feature.key, 'POST', '/v1/environment-variables', {
    key: 'SIGN_OFF',
    values: [
      { _environmentId: feature.id, value: 'the feature team' },
      { _environmentId: staging.id, value: 'the staging team' },
    ],
  });
  const made = await call(feature.key, 'POST', '/v2/workflows', {
    workflowId: 'cli-welcome',
    name: 'CLI welcome',
    active: true,
    steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Welcome, from {{env.SIGN_OFF}}' } }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
});
afterAll(async () => {
  await dev?.stop();
});

describe('svc environments diff', () => {
  it('one line per changed resource, by name; JSON for scripts', async () => {
    const lines = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { NO_COLOR: '1' }));
    expect(lines.exitCode, lines.stderr).toBe(0);
    expect(lines.stdout).toBe('feature → staging: 1 change(s) in 1 resource(s)\n  + workflow cli-welcome (CLI welcome)');

    const json = await svc(['environments', 'diff', staging.id, '-o', 'json'], as(feature.key));
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ sourceEnvironmentId: feature.id, targetEnvironmentId: staging.id, summary: { totalChanges: 1 } });

    const coloured = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { FORCE_COLOR: '1', NO_COLOR: undefined }));
    expect(coloured.stdout).toContain('\u001b[32m+\u001b[39m workflow cli-welcome');

    const unknown = await svc(['environments', 'diff', 'nowhere'], as(feature.key));
    expect(unknown.exitCode).toBe(5);
    expect(unknown.stderr).toContain('no environment is named nowhere');
  });
});

describe('svc environments publish', () => {
  it('needs --yes without a terminal (exit 2, nothing published); with it the target triggers the workflow', async () => {
    const refused = await svc(['environments', 'publish', 'staging'], as(feature.key));
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('needs --yes');
    expect((await call(staging.key, 'GET', '/v2/workflows/cli-welcome')).status).toBe(404);

    const done = await svc(['environments', 'publish', 'staging', '--yes', '-o', 'json'], as(feature.key));
    expect(done.exitCode, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      results: [
        { resourceType: 'workflow', successful: [{ resourceId: 'cli-welcome', action: 'created' }] },
        { resourceType: 'layout' },
        { resourceType: 'localization_group' },
      ],
      summary: { successful: 1, failed: 0 },
    });

    const since = new Date().toISOString();
    const t = await call(staging.key, 'POST', '/v1/events/trigger', { name: 'cli-welcome', to: 'cli-sub' });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const msg = await call(staging.key, 'GET', `/v1/svc-dev/messages/wait?transactionId=${t.body.data.transactionId}&since=${since}&holdMs=15000`);
    expect(msg.body.data?.content).toBe('Welcome, from the staging team');

    // Nothing left to publish: the diff says so.
    const after = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { NO_COLOR: '1' }));
    expect(after.stdout).toBe('feature → staging: no changes');
  });

  it('a change in the source is a ~ line, published as an update', async () => {
    await call(feature.key, 'PATCH', '/v2/workflows/cli-welcome', { name: 'CLI welcome v2', tags: ['beta'] });
    const lines = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { NO_COLOR: '1' }));
    expect(lines.stdout).toContain('\n  ~ workflow cli-welcome (CLI welcome v2): name, tags');
    const done = await svc(['environments', 'publish', 'staging', '--yes', '-o', 'table'], as(feature.key));
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe('updated workflow cli-welcome');
    expect((await call(staging.key, 'GET', '/v2/workflows/cli-welcome')).body.data.name).toBe('CLI welcome v2');
  });

  it('layouts and translations have lines of their own, in the diff and in what publish did', async () => {
    await call(feature.key, 'POST', '/v2/layouts', { layoutId: 'welcome-frame', name: 'Welcome frame' });
    await call(feature.key, 'POST', '/v2/translations', { resourceId: 'cli-welcome', resourceType: 'workflow', locale: 'de_DE', content: { title: 'Hallo' } });
    const lines = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { NO_COLOR: '1' }));
    expect(lines.stdout).toBe(
      'feature → staging: 3 change(s) in 3 resource(s)\n  + layout welcome-frame (Welcome frame)\n  ~ workflow cli-welcome (CLI welcome v2): isTranslationEnabled\n  + translation cli-welcome de_DE',
    );
    const done = await svc(['environments', 'publish', 'staging', '--yes', '-o', 'table'], as(feature.key));
    expect(done.exitCode, done.stderr).toBe(0);
    expect(done.stdout).toBe('updated workflow cli-welcome\ncreated layout welcome-frame\ncreated translation cli-welcome:de_DE');

    await call(feature.key, 'POST', '/v2/translations', { resourceId: 'cli-welcome', resourceType: 'workflow', locale: 'de_DE', content: { title: 'Hallo!' } });
    const changed = await svc(['environments', 'diff', 'staging', '-o', 'table'], as(feature.key, { NO_COLOR: '1' }));
    expect(changed.stdout).toContain('\n  ~ translation cli-welcome de_DE: title');
  });
});

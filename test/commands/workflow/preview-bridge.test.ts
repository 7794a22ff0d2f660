// svc workflow preview of a code-first step whose bridge call fails, against a real local service and
// a real @novu/framework app: a non-zero exit and one line naming the step, the bridge URL and the
// reason at a terminal; the bridge's whole answer (the app's stack) only in -o json.
import { workflow } from '@novu/framework';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSvc, tempConfigDir } from '../../helpers/run.js';
import { testService, TEST_KEY, type TestService } from '../../helpers/service.js';
import { startBridgeApp, type BridgeApp } from '../../server/bridge/app.js';

const throws = workflow('throws-code', async ({ step }) => {
  await step.email('boom', async () => {
    throw new Error('template exploded');
  });
});

let svc: TestService;
let app: BridgeApp;
let env: Record<string, string>;

beforeAll(async () => {
  // The framework logs every execution (and the error) to the console.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  svc = testService();
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.app.server.address() as { port: number };
  app = await startBridgeApp([throws], TEST_KEY);
  const synced = await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } });
  expect(synced.status).toBe(201);
  env = { SVC_BASE_URL: `http://127.0.0.1:${port}`, SVC_API_KEY: TEST_KEY, SVC_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
});
afterAll(async () => {
  await app?.close();
  await svc?.runner.stop();
  await svc?.app.close();
  svc?.close();
  vi.restoreAllMocks();
});

describe('a bridge preview that fails', () => {
  it('the app throws: exit 1, one line with the step, the bridge URL and the reason, no stack', async () => {
    const r = await runSvc(['workflow', 'preview', 'throws-code', 'boom', '-o', 'table'], { env, tty: true });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('step boom of throws-code');
    expect(lines[0]).toContain(app.url);
    expect(lines[0]).toMatch(/HTTP 502: StepExecutionFailedError/);
    expect(r.stderr).not.toContain('"stack"');
    expect(r.stderr.length).toBeLessThan(600);
  });

  it('-o json keeps the bridge answer under the result error, and still exits 1', async () => {
    const r = await runSvc(['workflow', 'preview', 'throws-code', 'boom', '-o', 'json'], { env });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.result.error.title).toBe('Bridge preview failed');
    expect(JSON.parse(out.result.error.hint)).toMatchObject({ statusCode: 502, body: { data: { stack: expect.stringContaining('template exploded') } } });
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'bridge_preview_failed' });
  });

  it('the bridge does not answer: exit 4, naming the URL and why', async () => {
    await app.close();
    const r = await runSvc(['workflow', 'preview', 'throws-code', 'boom', '-o', 'table'], { env, tty: true });
    expect(r.code).toBe(4);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('step boom of throws-code');
    expect(lines[0]).toContain(app.url);
    expect(lines[0]).toContain('ECONNREFUSED');
  });
});

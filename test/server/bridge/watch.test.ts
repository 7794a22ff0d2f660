// svc dev --bridge-url's watch: the app's workflows are registered at start, again when the app
// restarts with other workflows (a health check notices, a discover stores them), and an app that was
// not up yet is registered once it answers.
import { workflow } from '@novu/framework';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchBridge, type BridgeWatch } from '../../../src/server/bridge/watch.js';
import { testService, TEST_KEY, type TestService } from '../../helpers/service.js';
import { startBridgeApp, type BridgeApp } from './app.js';

const first = workflow('first-code', async ({ step }) => {
  await step.inApp('note', async () => ({ body: 'one' }));
});
const second = workflow('second-code', async ({ step }) => {
  await step.sms('text', async () => ({ body: 'two' }));
});

let svc: TestService;
let app: BridgeApp | undefined;
let watch: BridgeWatch | undefined;
const lines: string[] = [];

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  svc = testService();
  lines.length = 0;
});
afterEach(async () => {
  watch?.stop();
  await app?.close();
  svc.close();
  vi.restoreAllMocks();
});

const ids = async () =>
  ((await svc.request('GET', '/v2/workflows?limit=50')).body.data.workflows as any[])
    .filter((w) => w.origin === 'external')
    .map((w) => w.workflowId)
    .sort();

describe('svc dev --bridge-url', () => {
  it('registers at start, and again when the app restarts declaring other workflows (the gone one removed)', async () => {
    app = await startBridgeApp([first], TEST_KEY);
    const port = Number(new URL(app.url).port);
    watch = watchBridge({ store: svc.store, environment: svc.environment, bridgeUrl: app.url, intervalMs: 20, log: (l) => lines.push(l) });
    await watch.ready;
    expect(await ids()).toEqual(['first-code']);
    expect(lines[0]).toBe(`bridge: 1 workflow from ${app.url} (first-code)`);
    await app.close();
    await vi.waitFor(() => expect(lines.some((l) => l.includes('is not answering'))).toBe(true), { timeout: 10_000 });
    app = await startBridgeApp([second], TEST_KEY, '/api/novu', port);
    await vi.waitFor(async () => expect(await ids()).toEqual(['second-code']), { timeout: 10_000 });
    expect(lines.at(-1)).toBe(`bridge: 1 workflow from ${app.url} (second-code); removed first-code`);
  });

  it('an app not up yet is registered as soon as it answers', async () => {
    const probe = await startBridgeApp([], TEST_KEY);
    const port = Number(new URL(probe.url).port);
    await probe.close();
    watch = watchBridge({ store: svc.store, environment: svc.environment, bridgeUrl: probe.url, intervalMs: 20, log: (l) => lines.push(l) });
    await watch.ready;
    expect(watch.syncs).toBe(0);
    expect(lines[0]).toMatch(/is not answering \(ECONNREFUSED\); waiting for it/);
    app = await startBridgeApp([first, second], TEST_KEY, '/api/novu', port);
    await vi.waitFor(async () => expect(await ids()).toEqual(['first-code', 'second-code']), { timeout: 10_000 });
  });
});

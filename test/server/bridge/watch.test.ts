// svc dev --bridge-url's watch: the app's workflows are registered at start, again whenever what it
// declares changes (a discover's answer hashed every interval: other workflows after a restart, or a
// payload schema changed with the same steps and no time down), and an app that was not up yet is
// registered once it answers.
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

  it('a change of what the app declares with the same steps, and no moment down, is stored at once', async () => {
    const schema = (field: string) =>
      ({ type: 'object', properties: { [field]: { type: 'string' } }, required: [field], additionalProperties: false }) as const;
    const version = (field: string) =>
      workflow('schema-code', async ({ step }) => void (await step.inApp('note', async () => ({ body: 'hi' }))), { payloadSchema: schema(field) });
    app = await startBridgeApp([version('name')], TEST_KEY);
    watch = watchBridge({ store: svc.store, environment: svc.environment, bridgeUrl: app.url, intervalMs: 20, log: (l) => lines.push(l) });
    await watch.ready;
    const stored = async () => (await svc.request('GET', '/v2/workflows/schema-code')).body.data.payloadSchema;
    expect((await stored()).required).toEqual(['name']);
    // The same workflow and step count, another payload schema: what a `node --watch` restart serves.
    app.serve([version('orderId')]);
    await vi.waitFor(async () => expect((await stored()).required, lines.join('\n')).toEqual(['orderId']), { timeout: 10_000 });
    expect(watch.syncs).toBe(2);
    expect(lines.filter((l) => l.includes('is not answering'))).toEqual([]);
    // Nothing changed: asked again and again, stored no more.
    const asked = app.received.filter((r) => r.action === 'discover').length;
    await vi.waitFor(() => expect(app!.received.filter((r) => r.action === 'discover').length).toBeGreaterThan(asked + 3), { timeout: 10_000 });
    expect(watch.syncs).toBe(2);
  });
});

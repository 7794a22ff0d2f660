// A code-first step that the subscriber turned off is skipped, and its timeline says why, as for a
// step defined in svc dev (the reason is recorded before the job is settled).
import { workflow } from '@novu/framework';
import { afterEach, expect, it, vi } from 'vitest';
import { TEST_KEY, testService } from '../../helpers/service.js';
import { type BridgeApp, startBridgeApp } from './app.js';

const wf = workflow('pref-code', async ({ step }) => {
  await step.inApp('hello', async () => ({ body: 'Hi' }));
});
let app: BridgeApp | undefined;
afterEach(async () => {
  await app?.close();
  vi.restoreAllMocks();
});

it('a code-first in-app step turned off by the subscriber is skipped, and says why in its timeline', async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  const svc = testService();
  app = await startBridgeApp([wf], TEST_KEY);
  expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
  const p = await svc.request('PATCH', '/v2/subscribers/ada/preferences', { body: { workflowId: 'pref-code', channels: { in_app: false } } });
  expect(p.status, JSON.stringify(p.body)).toBeLessThan(300);
  const t = await svc.request('POST', '/v1/events/trigger', { body: { name: 'pref-code', to: 'ada', payload: {} } });
  await svc.runner.idle();
  const [ev] = (await svc.request('GET', `/v1/notifications?transactionId=${t.body.data.transactionId}`)).body.data;
  const details = (ev.jobs[0].executionDetails as { detail: string }[]).map((x) => x.detail);
  expect(ev.jobs[0].status).toBe('skipped');
  expect(
    details.some((x) => x.startsWith('Step filtered by subscriber preferences')),
    JSON.stringify(details),
  ).toBe(true);
  await svc.close();
});

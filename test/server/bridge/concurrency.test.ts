// How svc dev keeps a team's app busy: the jobs of code-first workflows have slots of their own beside
// the runner's shared ones (more calls in flight than the 16 shared slots), and an event's next step
// is queued when the one before settles and called in a slot as any job.
import { workflow } from '@novu/framework';
import { afterEach, expect, it, vi } from 'vitest';
import { testService, TEST_KEY, type TestService } from '../../helpers/service.js';
import { startBridgeApp, type BridgeApp } from './app.js';

let svc: TestService | undefined;
let app: BridgeApp | undefined;
let release: () => void = () => {};
afterEach(async () => {
  release();
  await svc?.runner.stop();
  svc?.close();
  await app?.close();
  vi.restoreAllMocks();
});

it('30 events of a code-first workflow: all 30 first steps are in the app at once, beyond the 16 shared slots', async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  const gate = new Promise<void>((r) => (release = r));
  let inApp = 0;
  const held = workflow('held-code', async ({ step }) => {
    await step.inApp('first', async () => {
      inApp++;
      await gate;
      return { body: 'one' };
    });
    await step.inApp('second', async () => ({ body: 'two' }));
  });
  svc = testService();
  app = await startBridgeApp([held], TEST_KEY);
  expect((await svc.request('POST', '/v1/bridge/sync?source=cli', { body: { bridgeUrl: app.url } })).status).toBe(201);
  for (let i = 0; i < 30; i++) await svc.request('POST', '/v1/events/trigger', { body: { name: 'held-code', to: `u${i}`, payload: {} } });
  await vi.waitFor(() => expect(inApp).toBe(30), { timeout: 10_000 });
  release();
  await svc.runner.idle();
  const feed = (await svc.request('GET', '/v1/notifications?limit=50')).body.data as any[];
  expect(feed).toHaveLength(30);
  for (const n of feed) {
    expect(n.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
    // The second step was queued when the first settled, then running, then its outcome.
    const second = n.jobs[1].executionDetails.map((d: any) => d.detail);
    expect(second.slice(0, 2)).toEqual(['Step queued', 'Step running']);
    expect(second.join('\n')).toMatch(/Step executed by the bridge/);
  }
});

// Asynchronous jobs (a bridge call, a webhook) beyond the runner's slots wait without holding back the
// synchronous jobs due behind them, and each runs once a slot frees.
import { afterEach, expect, it, vi } from 'vitest';
import { defaultRegistry, type StepHandler } from '../../../src/server/runner/index.js';
import { testService, type TestService } from '../../helpers/service.js';

let svc: TestService | undefined;
let release: () => void = () => {};
afterEach(() => {
  release();
  svc?.close();
});

it('20 asynchronous jobs for 16 slots: a synchronous job due behind them runs meanwhile, then all of them do', async () => {
  const gate = new Promise<void>((r) => (release = r));
  let prepared = 0;
  const custom: StepHandler = {
    prepare: async () => {
      prepared++;
      await gate;
    },
    run: () => ({ status: 'completed' }),
  };
  svc = testService({ registry: defaultRegistry().register('custom', custom) });
  const s = svc;
  await s.request('POST', '/v2/workflows', {
    body: { name: 'slow', workflowId: 'slow', active: true, steps: [{ name: 'Hook', type: 'custom', controlValues: {} }] },
  });
  await s.request('POST', '/v2/workflows', {
    body: { name: 'fast', workflowId: 'fast', active: true, steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'hi' } }] },
  });
  for (let i = 0; i < 20; i++) await s.request('POST', '/v1/events/trigger', { body: { name: 'slow', to: 'ada', transactionId: `slow-${i}` } });
  const status = async (tx: string) => (await s.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs[0].status;
  // Jobs waiting for a slot stay due, so idle() would wait for them: wait for what must happen instead.
  await vi.waitFor(() => expect(prepared).toBe(16), { timeout: 10_000 });
  await s.request('POST', '/v1/events/trigger', { body: { name: 'fast', to: 'ada', transactionId: 'fast-1' } });
  await vi.waitFor(async () => expect(await status('fast-1')).toBe('completed'), { timeout: 10_000 });
  expect(prepared).toBe(16);
  expect(await status('slow-19')).toBe('queued');
  release();
  await s.runner.idle();
  expect(prepared).toBe(20);
  for (let i = 0; i < 20; i++) expect(await status(`slow-${i}`)).toBe('completed');
});

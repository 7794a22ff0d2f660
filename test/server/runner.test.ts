// The runner as the workflow engine will use it: custom handlers, delays on the Clock, async
// prepare, failures, and stop-on-fail.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS } from '../../src/server/clock.js';
import { defaultRegistry, type StepHandler } from '../../src/server/runner/index.js';
import { testService, type TestService } from '../helpers/service.js';

let svc: TestService | undefined;
afterEach(() => svc?.close());

async function run(handlers: Partial<Record<'delay' | 'custom', StepHandler>>, steps: unknown[]) {
  const registry = defaultRegistry();
  for (const [type, h] of Object.entries(handlers)) registry.register(type as 'delay', h);
  svc = testService({ registry });
  await svc.request('POST', '/v2/workflows', { body: { name: 'W', workflowId: 'w', active: true, steps } });
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'w', to: 'ada' } });
  await svc.runner.idle();
  return svc;
}
const jobs = async (s: TestService) => (await s.request('GET', '/v1/notifications')).body.data[0].jobs;

describe('job runner', () => {
  it('a delayed job sleeps on the Clock and runs again with its state', async () => {
    const delay: StepHandler = {
      run(ctx) {
        const until = (ctx.job.state.until as number | undefined) ?? ctx.clock.now() + 60_000;
        if (ctx.clock.now() < until) {
          ctx.setState({ until });
          ctx.detail({ status: 'Pending', detail: 'Step delayed' });
          return { status: 'delayed', until };
        }
        return { status: 'completed' };
      },
    };
    const s = await run({ delay }, [
      { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'minutes' } },
      { name: 'Note', type: 'in_app', controlValues: { body: 'hi' } },
    ]);
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['delayed', 'pending']);
    s.clock.advance(59_000);
    await s.runner.idle();
    expect((await jobs(s))[0].status).toBe('delayed');
    s.clock.advance(1_000);
    await s.runner.idle();
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['completed', 'completed']);
  });

  it('prepare runs asynchronously before run, and a throw fails the job with its message', async () => {
    const seen: unknown[] = [];
    const custom: StepHandler = {
      prepare: async () => {
        await new Promise((r) => setTimeout(r, 5));
        return { fetched: 42 };
      },
      run(ctx, prepared) {
        seen.push(prepared);
        if ((ctx.job.step.controlValues as { boom?: boolean }).boom) throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const s = await run({ custom }, [
      { name: 'Fetch', type: 'custom', controlValues: {} },
      { name: 'Boom', type: 'custom', controlValues: { boom: true } },
    ]);
    expect(seen).toEqual([{ fetched: 42 }, { fetched: 42 }]);
    const [ok, boom] = await jobs(s);
    expect(ok.status).toBe('completed');
    expect(boom.status).toBe('failed');
    expect(boom.executionDetails.at(-1)).toMatchObject({ status: 'Failed', detail: 'Step failed: kaboom' });
  });

  it('merged/canceled end the run: the remaining steps take the same status', async () => {
    const custom: StepHandler = { run: () => ({ status: 'canceled' }) };
    const s = await run({ custom }, [
      { name: 'Gate', type: 'custom', controlValues: {} },
      { name: 'Note', type: 'in_app', controlValues: { body: 'hi' } },
    ]);
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['canceled', 'canceled']);
  });

  it('a delay comes due on time while an asynchronous step is still in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const custom: StepHandler = { prepare: () => gate, run: () => ({ status: 'completed' }) };
    const registry = defaultRegistry().register('custom', custom);
    svc = testService({ registry });
    const s = svc;
    await s.request('POST', '/v2/workflows', {
      body: { name: 'Slow', workflowId: 'slow', active: true, steps: [{ name: 'Hook', type: 'custom', controlValues: {} }] },
    });
    await s.request('POST', '/v2/workflows', {
      body: {
        name: 'Soon',
        workflowId: 'soon',
        active: true,
        steps: [
          { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'seconds' } },
          { name: 'Note', type: 'in_app', controlValues: { body: 'hi' } },
        ],
      },
    });
    await s.request('POST', '/v1/events/trigger', { body: { name: 'slow', to: 'ada', transactionId: 'slow-1' } });
    await s.request('POST', '/v1/events/trigger', { body: { name: 'soon', to: 'ada', transactionId: 'soon-1' } });
    const status = async (tx: string) => (await s.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs.map((j: any) => j.status);
    // Everything but the job held in flight has run (no wall-clock wait).
    const settle = () => s.runner.idle({ inflight: false });
    try {
      await settle();
      expect(await status('slow-1')).toEqual(['running']);
      expect(await status('soon-1')).toEqual(['delayed', 'pending']);
      s.clock.advance(1_000);
      await settle();
      // Before the fix the runner armed no timer while the hook ran: the delay waited for it.
      expect(await status('soon-1')).toEqual(['completed', 'completed']);
      expect(await status('slow-1')).toEqual(['running']);
    } finally {
      release();
    }
    await s.runner.idle();
    expect(await status('slow-1')).toEqual(['completed']);
  });

  it('a failure that escapes a step run in line leaves no next step stranded: a step in flight still queues its own', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const custom: StepHandler = { prepare: () => gate, run: () => ({ status: 'completed' }) };
    // Throws, once, something even the failure path cannot describe: it escapes the batch (as a store
    // error would), which is rolled back and tried again a second later.
    let thrown = false;
    const delay: StepHandler = {
      run() {
        if (thrown) return { status: 'completed' };
        thrown = true;
        throw Object.create(null);
      },
    };
    svc = testService({ registry: defaultRegistry().register('custom', custom).register('delay', delay) });
    const s = svc;
    const workflow = (workflowId: string, steps: unknown[]) =>
      s.request('POST', '/v2/workflows', { body: { name: workflowId, workflowId, active: true, steps } });
    await workflow('slow', [
      { name: 'Hook', type: 'custom', controlValues: {} },
      { name: 'Note', type: 'in_app', controlValues: { body: 'hi' } },
    ]);
    await workflow('once', [{ name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'seconds' } }]);
    const status = async (tx: string) => (await s.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs.map((j: any) => j.status);
    await s.request('POST', '/v1/events/trigger', { body: { name: 'slow', to: 'ada', transactionId: 'slow-2' } });
    await s.runner.idle({ inflight: false });
    expect(await status('slow-2')).toEqual(['running', 'pending']);
    await s.request('POST', '/v1/events/trigger', { body: { name: 'once', to: 'ada', transactionId: 'once-1' } });
    // The batch that threw is rolled back and tried again a second later, on the clock.
    await vi.waitFor(() => expect(thrown).toBe(true), { timeout: 10_000 });
    release();
    s.clock.advance(2_000);
    await s.runner.idle();
    expect(await status('once-1')).toEqual(['completed']);
    expect(await status('slow-2')).toEqual(['completed', 'completed']);
  });

  it('a delay longer than setTimeout allows (30 days) waits the whole time, re-arming its timer', async () => {
    svc = testService();
    const s = svc;
    await s.request('POST', '/v2/workflows', {
      body: {
        name: 'Month',
        workflowId: 'month',
        active: true,
        steps: [
          { name: 'Wait', type: 'delay', controlValues: { amount: 30, unit: 'days' } },
          { name: 'Note', type: 'in_app', controlValues: { body: 'hi' } },
        ],
      },
    });
    await s.request('POST', '/v1/events/trigger', { body: { name: 'month', to: 'ada' } });
    await s.runner.idle();
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['delayed', 'pending']);
    // The manual clock refuses a raw timer beyond MAX_TIMER_MS, as setTimeout cannot honour one.
    const before = s.clock.rawTimers;
    s.clock.advance(MAX_TIMER_MS + 1);
    await s.runner.idle();
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['delayed', 'pending']);
    expect(s.clock.rawTimers).toBeGreaterThan(before);
    s.clock.advance(30 * 86_400_000 - MAX_TIMER_MS - 2);
    await s.runner.idle();
    expect((await jobs(s))[0].status).toBe('delayed');
    s.clock.advance(1);
    await s.runner.idle();
    expect((await jobs(s)).map((j: any) => j.status)).toEqual(['completed', 'completed']);
  });
});

// The runner as the workflow engine will use it: custom handlers, delays on the Clock, async
// prepare, failures, and stop-on-fail.
import { afterEach, describe, expect, it } from 'vitest';
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
});

// What a job's prepare phase records (timeline details, the provider it chose) stays when its outcome
// is written: alone, and beside a job of the same turn whose run throws.
import { expect, it } from 'vitest';
import type { StepHandler } from '../../../src/server/runner/index.js';
import { customStepService, eventsByName, nameOf } from './custom-step.js';

function handler(gate?: Promise<void>): StepHandler {
  return {
    needsPrepare(ctx) {
      ctx.setProviderId('prov-x');
      ctx.detail({ status: 'Pending', detail: 'planned in needsPrepare' });
      return true;
    },
    async prepare(ctx) {
      ctx.detail({ status: 'Pending', detail: 'set in prepare' });
      await gate;
      return 'v';
    },
    run(ctx, prepared) {
      ctx.detail({ status: 'Success', detail: `ran with ${prepared}` });
      if (nameOf(ctx) === 'bad') throw new Error('kaboom');
      return { status: 'completed' };
    },
  };
}

const trigger = (svc: Awaited<ReturnType<typeof customStepService>>, name: string) =>
  svc.request('POST', '/v1/events/trigger', { body: { name: 'w', to: 'ada', payload: { name }, transactionId: name } });

it('a lone asynchronous job keeps the details and provider id set before and in its prepare phase', async () => {
  const svc = await customStepService(handler());
  await trigger(svc, 'one');
  await svc.runner.idle();
  const { job } = (await eventsByName(svc)).one!;
  const details = job.executionDetails.map((d) => d.detail);
  expect(details).toContain('planned in needsPrepare');
  expect(details).toContain('set in prepare');
  expect(details).toContain('ran with v');
  expect(job.providerId).toBe('prov-x');
  await svc.close();
});

it('calls that end together, one run throwing: the others keep what their prepare recorded, once', async () => {
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  const svc = await customStepService(handler(gate));
  for (const n of ['one', 'bad', 'two']) await trigger(svc, n);
  // All three wait in prepare, then finish in one turn.
  await svc.runner.idle({ inflight: false });
  open();
  await svc.runner.idle();
  const events = await eventsByName(svc);
  for (const name of ['one', 'two']) {
    const { job } = events[name]!;
    const details = job.executionDetails.map((d) => d.detail);
    expect(
      details.filter((d) => d === 'set in prepare'),
      name,
    ).toHaveLength(1);
    expect(
      details.filter((d) => d === 'ran with v'),
      name,
    ).toHaveLength(1);
    expect(job.providerId).toBe('prov-x');
    expect(job.status).toBe('completed');
  }
  expect(events.bad!.job.status).toBe('failed');
  await svc.close();
});

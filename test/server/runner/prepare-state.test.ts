// What an asynchronous job's prepare phase records (timeline details, the provider it chose) stays
// when the job is settled: alone, and when its batch is rolled back and settled again job by job.
import { expect, it } from 'vitest';
import { defaultRegistry, type StepHandler } from '../../../src/server/runner/index.js';
import { testService } from '../../helpers/service.js';

function handler(gate?: Promise<void>): StepHandler {
  const name = (ctx: Parameters<StepHandler['run']>[0]) => (ctx.notification.doc.payload as { name: string }).name;
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
      if (name(ctx) === 'bad') throw new Error('kaboom');
      return { status: 'completed' };
    },
  };
}

async function setUp(custom: StepHandler) {
  const svc = testService({ registry: defaultRegistry().register('custom', custom), onInternalError: () => {} });
  await svc.request('POST', '/v2/workflows', {
    body: { name: 'W', workflowId: 'w', active: true, steps: [{ name: 'C', type: 'custom', controlValues: {} }] },
  });
  const job = async (tx: string) => (await svc.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0].jobs[0];
  return { svc, job };
}

it('a lone asynchronous job keeps the details and provider id set before and in its prepare phase', async () => {
  const { svc, job } = await setUp(handler());
  await svc.request('POST', '/v1/events/trigger', { body: { name: 'w', to: 'ada', payload: { name: 'one' }, transactionId: 'one' } });
  await svc.runner.idle();
  const j = await job('one');
  const details = (j.executionDetails as { detail: string }[]).map((d) => d.detail);
  expect(details).toContain('planned in needsPrepare');
  expect(details).toContain('set in prepare');
  expect(details).toContain('ran with v');
  expect(j.providerId).toBe('prov-x');
  await svc.close();
});

it('a batch rolled back by one job: the others settle again with what their prepare recorded, once', async () => {
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  const { svc, job } = await setUp(handler(gate));
  for (const n of ['one', 'bad', 'two']) {
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'w', to: 'ada', payload: { name: n }, transactionId: n } });
  }
  await svc.runner.idle({ inflight: false });
  open();
  await svc.runner.idle();
  for (const tx of ['one', 'two']) {
    const j = await job(tx);
    const details = (j.executionDetails as { detail: string }[]).map((d) => d.detail);
    expect(
      details.filter((d) => d === 'set in prepare'),
      tx,
    ).toHaveLength(1);
    expect(
      details.filter((d) => d === 'ran with v'),
      tx,
    ).toHaveLength(1);
    expect(j.providerId).toBe('prov-x');
    expect(j.status).toBe('completed');
  }
  expect((await job('bad')).status).toBe('failed');
  await svc.close();
});

// Jobs whose network calls end in the same turn of the event loop: a run that throws and a call that
// rejects each fail their own job alone, the others' writes stay once, and every error is reported once.
import { expect, it } from 'vitest';
import type { StepHandler } from '../../../src/server/runner/index.js';
import { customStepService } from './custom-step.js';

it('four answers settled together, one run throwing and one prepare rejecting: each fails alone, the others complete once', async () => {
  let open = () => {};
  const gate = new Promise<void>((r) => (open = r));
  let waiting = 0;
  const runs: string[] = [];
  const name = (ctx: Parameters<StepHandler['run']>[0]) => (ctx.notification.doc.payload as { name: string }).name;
  const custom: StepHandler = {
    async prepare(ctx) {
      waiting++;
      await gate;
      if (name(ctx) === 'reject') throw new Error('no answer');
      return { answer: name(ctx) };
    },
    run(ctx, prepared) {
      const n = name(ctx);
      runs.push(n);
      ctx.store.activity.setDigested(ctx.notification.id, `ran-${n}`);
      ctx.detail({ status: 'Success', detail: `ran ${n} with ${(prepared as { answer: string }).answer}` });
      if (n === 'bad') throw new Error('kaboom');
      return { status: 'completed' };
    },
  };
  const thrown: unknown[] = [];
  const svc = await customStepService(custom, thrown);
  for (const n of ['one', 'bad', 'reject', 'two']) {
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'w', to: 'ada', payload: { name: n }, transactionId: n } });
  }
  await svc.runner.idle({ inflight: false });
  expect(waiting).toBe(4);
  open();
  await svc.runner.idle();

  const job = async (tx: string) => (await svc.request('GET', `/v1/notifications?transactionId=${tx}`)).body.data[0];
  const detailsOf = async (tx: string) => ((await job(tx)).jobs[0].executionDetails as { detail: string }[]).map((d) => d.detail);
  expect(await detailsOf('one')).toEqual(['Step queued', 'Step running', 'ran one with one']);
  expect(await detailsOf('two')).toEqual(['Step queued', 'Step running', 'ran two with two']);
  expect(await detailsOf('bad')).toEqual(['Step queued', 'Step running', 'Step failed: kaboom']);
  expect(await detailsOf('reject')).toEqual(['Step queued', 'Step running', 'Step failed: no answer']);
  expect((await job('one')).jobs[0].status).toBe('completed');
  expect((await job('bad')).jobs[0].status).toBe('failed');
  const digested = async (tx: string) => svc.store.activity.notificationById((await job(tx))._id)?.doc.digestedNotificationId;
  expect([await digested('one'), await digested('bad'), await digested('two')]).toEqual(['ran-one', undefined, 'ran-two']);
  expect(thrown.map((e) => (e as Error).message).sort()).toEqual(['kaboom', 'no answer']);
  expect(runs.filter((r) => r === 'one')).toHaveLength(1);
  expect(runs.filter((r) => r === 'reject')).toHaveLength(0);
  await svc.close();
});

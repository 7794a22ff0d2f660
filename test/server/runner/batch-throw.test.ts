// Jobs run together in one look each run in a transaction of their own: a handler that throws rolls
// back its own writes only, so that only that job fails, the others' writes stay, and each runs once.
import { describe, expect, it } from 'vitest';
import type { StepHandler } from '../../../src/server/runner/index.js';
import { customStepService, eventsByName, nameOf, triggerTogether } from './custom-step.js';

describe('runner batch', () => {
  it('a handler that throws fails its job alone; the other jobs of its batch complete with their writes', async () => {
    const runs: string[] = [];
    const custom: StepHandler = {
      run(ctx) {
        const name = nameOf(ctx);
        runs.push(name);
        // A write of the handler's own, which must be rolled back with a throw.
        ctx.store.activity.setDigested(ctx.notification.id, `ran-${name}`);
        ctx.detail({ status: 'Success', detail: `ran ${name}` });
        if (name === 'bad') throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const errors: unknown[] = [];
    const svc = await customStepService(custom, errors);
    await triggerTogether(svc, ['one', 'bad', 'two']);
    await svc.runner.idle();
    const events = await eventsByName(svc);
    expect(events.one!.job.status).toBe('completed');
    expect(events.two!.job.status).toBe('completed');
    expect(events.bad!.job.status).toBe('failed');
    expect(events.bad!.job.executionDetails.at(-1)).toMatchObject({ detail: 'Step failed: kaboom' });
    expect(events.bad!.job.executionDetails.map((d) => d.detail)).not.toContain('ran bad');
    expect(events.one!.job.executionDetails.filter((d) => d.detail === 'ran one')).toHaveLength(1);
    const digested = (name: string) => svc.store.activity.notificationById(events[name]!._id)?.doc.digestedNotificationId;
    expect([digested('one'), digested('bad'), digested('two')]).toEqual(['ran-one', undefined, 'ran-two']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['kaboom']);
    expect(runs.filter((r) => r === 'two')).toHaveLength(1);
    await svc.close();
  });

  it('a job that fails before it runs (needsPrepare throws) beside one whose run throws: each error is logged once', async () => {
    const custom: StepHandler = {
      needsPrepare(ctx) {
        if (nameOf(ctx) === 'early') throw new Error('early failure');
        return false;
      },
      prepare: async () => undefined,
      run(ctx) {
        if (nameOf(ctx) === 'bad') throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const errors: unknown[] = [];
    const svc = await customStepService(custom, errors);
    await triggerTogether(svc, ['early', 'bad', 'fine']);
    await svc.runner.idle();
    const events = await eventsByName(svc);
    expect([events.early!.job.status, events.bad!.job.status, events.fine!.job.status]).toEqual(['failed', 'failed', 'completed']);
    expect(events.early!.job.executionDetails.filter((d) => d.detail === 'Step failed: early failure')).toHaveLength(1);
    expect(errors.map((e) => (e as Error).message)).toEqual(['early failure', 'kaboom']);
    await svc.close();
  });
});

// Synchronous jobs of one pump run in one savepoint, without one each: a handler that throws rolls
// the batch back, and the batch runs again with a savepoint per job, so that only that job fails and
// the others' writes stay, once.
import { describe, expect, it } from 'vitest';
import { defaultRegistry, type StepHandler } from '../../../src/server/runner/index.js';
import { trigger } from '../../../src/server/trigger.js';
import { testService } from '../../helpers/service.js';

describe('runner batch', () => {
  it('a handler that throws fails its job alone; the other jobs of its batch complete with their writes', async () => {
    const runs: string[] = [];
    const custom: StepHandler = {
      run(ctx) {
        const name = (ctx.notification.doc.payload as { name: string }).name;
        runs.push(name);
        // A write of the handler's own, which must be rolled back with a throw.
        ctx.store.activity.setDigested(ctx.notification.id, `ran-${name}`);
        ctx.detail({ status: 'Success', detail: `ran ${name}` });
        if (name === 'bad') throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const errors: unknown[] = [];
    const svc = testService({ registry: defaultRegistry().register('custom', custom), onInternalError: (e: unknown) => errors.push(e) });
    await svc.request('POST', '/v2/workflows', {
      body: { name: 'W', workflowId: 'w', active: true, steps: [{ name: 'C', type: 'custom', controlValues: {} }] },
    });
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const { committed } = svc.store.grouped(() =>
      ['one', 'bad', 'two'].map((name) => trigger(deps, svc.environment, { name: 'w', to: 'ada', payload: { name } }, 'http://x', true)),
    );
    await committed;
    await svc.runner.idle();
    const events = (await svc.request('GET', '/v1/notifications?limit=10')).body.data as {
      payload: { name: string };
      jobs: { status: string; executionDetails: { detail: string }[] }[];
    }[];
    const byName = Object.fromEntries(events.map((e) => [e.payload.name, e.jobs[0]!]));
    expect(byName.one!.status).toBe('completed');
    expect(byName.two!.status).toBe('completed');
    expect(byName.bad!.status).toBe('failed');
    expect(byName.bad!.executionDetails.at(-1)).toMatchObject({ detail: 'Step failed: kaboom' });
    expect(byName.bad!.executionDetails.map((d) => d.detail)).not.toContain('ran bad');
    expect(byName.one!.executionDetails.filter((d) => d.detail === 'ran one')).toHaveLength(1);
    const digested = (name: string) => {
      const id = events.find((e) => e.payload.name === name) as unknown as { _id: string };
      return svc.store.activity.notificationById(id._id)?.doc.digestedNotificationId;
    };
    expect([digested('one'), digested('bad'), digested('two')]).toEqual(['ran-one', undefined, 'ran-two']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['kaboom']);
    // The batch ran once whole and rolled back, then again job by job.
    expect(runs).toEqual(['one', 'bad', 'one', 'bad', 'two']);
    await svc.close();
  });

  it('a job that fails before it runs (needsPrepare throws) in a batch that is run again job by job: its error is logged once', async () => {
    const custom: StepHandler = {
      needsPrepare(ctx) {
        if ((ctx.notification.doc.payload as { name: string }).name === 'early') throw new Error('early failure');
        return false;
      },
      prepare: async () => undefined,
      run(ctx) {
        if ((ctx.notification.doc.payload as { name: string }).name === 'bad') throw new Error('kaboom');
        return { status: 'completed' };
      },
    };
    const errors: unknown[] = [];
    const svc = testService({ registry: defaultRegistry().register('custom', custom), onInternalError: (e: unknown) => errors.push(e) });
    await svc.request('POST', '/v2/workflows', {
      body: { name: 'W', workflowId: 'w', active: true, steps: [{ name: 'C', type: 'custom', controlValues: {} }] },
    });
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const { committed } = svc.store.grouped(() =>
      ['early', 'bad', 'fine'].map((name) => trigger(deps, svc.environment, { name: 'w', to: 'ada', payload: { name } }, 'http://x', true)),
    );
    await committed;
    await svc.runner.idle();
    const events = (await svc.request('GET', '/v1/notifications?limit=10')).body.data as {
      payload: { name: string };
      jobs: { status: string; executionDetails: { detail: string }[] }[];
    }[];
    const byName = Object.fromEntries(events.map((e) => [e.payload.name, e.jobs[0]!]));
    expect([byName.early!.status, byName.bad!.status, byName.fine!.status]).toEqual(['failed', 'failed', 'completed']);
    expect(byName.early!.executionDetails.filter((d) => d.detail === 'Step failed: early failure')).toHaveLength(1);
    // The first pass (rolled back by 'bad') failed 'early' too: only the pass that committed reports it.
    expect(errors.map((e) => (e as Error).message)).toEqual(['early failure', 'kaboom']);
    await svc.close();
  });
});

// The runner takes a just-triggered job's event and subscriber from what its trigger had in memory
// (a hint) instead of reading them back, but only while they are still what the store holds.
import { describe, expect, it } from 'vitest';
import { trigger } from '../../../src/server/trigger.js';
import { testService } from '../../helpers/service.js';

function setup() {
  const svc = testService();
  const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
  const fire = () => trigger(deps, svc.environment, { name: 'otp', to: 'ada', payload: { code: '4242' } }, 'http://x', true);
  const sms = () => svc.store.messages.list(svc.environment.id, { channel: 'sms' }, 0, 10).rows.map((r) => ({ phone: r.doc.phone, content: r.doc.content }));
  return { svc, fire, sms };
}

describe('trigger hints', () => {
  it('a fresh job comes due with its hint; a write to the job drops it', async () => {
    const { svc, fire } = setup();
    const { committed } = svc.store.grouped(fire);
    await committed;
    const due = svc.store.jobs.dueWithHints(svc.clock.now(), 10);
    expect(due).toHaveLength(1);
    expect(due[0]!.hint?.notification.doc.payload).toEqual({ code: '4242' });
    expect(due[0]!.hint?.subscriber.subscriberId).toBe('ada');
    // The hint stands for the row as created: the job as the store reads it back is the same.
    const { hint: _hint, job } = due[0]!;
    expect(JSON.parse(JSON.stringify(job))).toEqual(JSON.parse(JSON.stringify(svc.store.jobs.job(job.id))));
    svc.store.tx(() => svc.store.jobs.updateJob(job.id, { status: 'queued', runAt: svc.clock.now() }));
    const again = svc.store.jobs.dueWithHints(svc.clock.now(), 10);
    expect(again.map((d) => d.job.id)).toEqual([job.id]);
    expect(again[0]!.hint).toBeUndefined();
    await svc.runner.idle();
    await svc.close();
  });

  it('a large payload leaves no hint (a backlog of them would hold it all in memory), and is still delivered', async () => {
    const { svc } = setup();
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const big = 'x'.repeat(20_000);
    const { committed } = svc.store.grouped(() => trigger(deps, svc.environment, { name: 'otp', to: 'ada', payload: { code: big } }, 'http://x', true));
    await committed;
    const due = svc.store.jobs.dueWithHints(svc.clock.now(), 10);
    expect(due).toHaveLength(1);
    expect(due[0]!.hint).toBeUndefined();
    await svc.runner.idle();
    const sms = svc.store.messages.list(svc.environment.id, { channel: 'sms' }, 0, 10).rows;
    expect(sms).toHaveLength(1);
    expect(sms[0]!.doc.content).toContain(big);
    await svc.close();
  });

  it('a subscriber changed after the trigger, before its job ran: the message goes to the new phone', async () => {
    const { svc, fire, sms } = setup();
    const { committed } = svc.store.grouped(() => {
      const r = fire();
      // A request of the same batch (a PATCH of the subscriber) runs before the runner looks.
      svc.store.subscribers.upsert(svc.environment, 'ada', { phone: '+15550009999' });
      return r;
    });
    await committed;
    await svc.runner.idle();
    expect(sms()).toEqual([{ phone: '+15550009999', content: 'Your Acme code is 4242. It expires in 10 minutes.' }]);
    await svc.close();
  });

  it('a trigger rolled back leaves no hint behind, and the next one is delivered as usual', async () => {
    const { svc, fire, sms } = setup();
    expect(() =>
      svc.store.grouped(() => {
        fire();
        throw new Error('the request failed after its writes');
      }),
    ).toThrow('the request failed');
    const { committed } = svc.store.grouped(fire);
    await committed;
    expect(svc.store.jobs.dueWithHints(svc.clock.now(), 10).map((d) => d.hint !== undefined)).toEqual([true]);
    await svc.runner.idle();
    expect(sms()).toHaveLength(1);
    await svc.close();
  });

  it('a subscriber changed between two triggers: the second one reads the change', async () => {
    const { svc, fire, sms } = setup();
    await svc.store.grouped(fire).committed;
    await svc.runner.idle();
    await svc.store.grouped(() => svc.store.subscribers.upsert(svc.environment, 'ada', { phone: '+15550001111' })).committed;
    await svc.store.grouped(fire).committed;
    await svc.runner.idle();
    expect(sms().map((m) => m.phone)).toEqual(['+15550001111', '+15550100001']);
    await svc.close();
  });

  it('a subscriber read in a transaction that rolls back is not kept', async () => {
    const { svc } = setup();
    const deps = { store: svc.store, now: () => svc.clock.now(), kick: () => svc.runner.kick() };
    const toNeo = () => trigger(deps, svc.environment, { name: 'otp', to: 'neo' }, 'http://x', true);
    expect(() =>
      svc.store.grouped(() => {
        svc.store.subscribers.upsert(svc.environment, 'neo', { phone: '+15550002222' });
        toNeo();
        throw new Error('the request failed after its writes');
      }),
    ).toThrow('the request failed');
    const result = svc.store.grouped(toNeo);
    await result.committed;
    await svc.runner.idle();
    const neo = svc.store.subscribers.find(svc.environment.id, 'neo');
    expect(neo).toBeDefined();
    expect(neo!.phone).toBeNull();
    const event = (await svc.request('GET', `/v1/notifications?transactionId=${result.value.transactionId}`)).body.data[0];
    expect(event._subscriberId).toBe(neo!._id);
    await svc.close();
  });

  it('a damaged store: the subscriber row of a just-triggered job is gone, and the job fails as it did', async () => {
    const { svc, fire, sms } = setup();
    const { value, committed } = svc.store.grouped(fire);
    await committed;
    const ada = svc.store.subscribers.find(svc.environment.id, 'ada')!;
    // Behind the repositories' back, as damage would: no write count moves.
    svc.store.db.pragma('foreign_keys = OFF');
    svc.store.db.prepare('DELETE FROM subscribers WHERE id = ?').run(ada._id);
    await svc.runner.idle();
    const event = (await svc.request('GET', `/v1/notifications?transactionId=${value.transactionId}`)).body.data[0];
    expect(event.jobs[0].status).toBe('failed');
    expect(sms()).toEqual([]);
    await svc.close();
  });
});

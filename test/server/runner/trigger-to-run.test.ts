// What a job runs with is what the store holds when it runs, not what its trigger saw: a subscriber
// changed in between, a trigger or a subscriber rolled back, a row gone from a damaged store.
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

describe('from trigger to run', () => {
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

  it('a trigger rolled back leaves nothing behind, and the next one is delivered as usual', async () => {
    const { svc, fire, sms } = setup();
    expect(() =>
      svc.store.grouped(() => {
        fire();
        throw new Error('the request failed after its writes');
      }),
    ).toThrow('the request failed');
    const { committed } = svc.store.grouped(fire);
    await committed;
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

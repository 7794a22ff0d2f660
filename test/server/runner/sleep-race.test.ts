// The runner's sleep after a look is set from the look's own instant. Service time runs on between the
// two (600 ms per real ms at --time-scale 600, more on a loaded machine): a job that comes due in
// between is then still ahead of the look, and gets its timer. Set from a later reading of the clock,
// that job was neither run nor given a timer, and waited for whatever kicked the runner next.
// A clock that moves a second on every reading makes that gap happen every time.
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/server/clock.js';
import { type TestService, testService } from '../../helpers/service.js';

/** Service time that stands still, or moves `step` ms on every reading once told to; real timers. */
class RunningClock implements Clock {
  step = 0;
  constructor(public t: number) {}
  now(): number {
    const now = this.t;
    this.t += this.step;
    return now;
  }
  setTimer(fn: () => void, ms: number): () => void {
    const timer = setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    timer.unref();
    return () => clearTimeout(timer);
  }
}

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

describe('the runner sleeps from the instant it looked', () => {
  it('a delay that comes due between a look and its sleep still ends, with no other kick', async () => {
    const clock = new RunningClock(Date.parse('2026-01-01T00:00:00.000Z'));
    // (The service's own `clock` property is the helper's manual clock, unused here: this one drives it.)
    svc = testService({ clock });
    const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => svc!.request(method, url, body === undefined ? {} : { body });
    const steps = [
      { name: 'Wait', type: 'delay', controlValues: { amount: 1, unit: 'hours' } },
      { name: 'Inbox', type: 'in_app', controlValues: { body: 'after the wait' } },
    ];
    expect((await call('POST', '/v2/workflows', { name: 'later', workflowId: 'later', active: true, steps })).status).toBe(201);
    const t = await call('POST', '/v1/events/trigger', { name: 'later', to: 'ada' });
    expect(t.status).toBe(201);
    await svc.runner.idle();
    const jobs = async () =>
      (await call('GET', `/v1/notifications?transactionId=${t.body.data.transactionId}`)).body.data[0].jobs.map((j: { status: string }) => j.status);
    expect(await jobs()).toEqual(['delayed', 'pending']);

    // The next look reads the clock half a second before the delay ends, its sleep a second later.
    const due = svc.store.jobs.nextRunAt()!;
    clock.t = due - 500;
    clock.step = 1000;
    svc.runner.kick();
    const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 5_000).unref());
    expect(await Promise.race([svc.runner.idle().then(() => 'idle'), stuck])).toBe('idle');
    clock.step = 0;
    expect(await jobs()).toEqual(['completed', 'completed']);
  });
});

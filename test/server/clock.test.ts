// Service time: --time-scale runs it faster, and a reopened store never sees it go back.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clockMode, isMovable, ManualClock, MAX_TIMER_MS, ServiceClock, systemClock } from '../../src/server/clock.js';
import { createLocalService } from '../../src/server/index.js';
import { TEST_KEY, testService } from '../helpers/service.js';

describe('ServiceClock', () => {
  it('runs `scale` times faster than its base, timers included', () => {
    const base = new ManualClock(1_000_000);
    const clock = new ServiceClock(600, base);
    base.advance(1_000);
    expect(clock.now()).toBe(1_000_000 + 600_000);
    let fired = false;
    clock.setTimer(() => (fired = true), 3_600_000);
    base.advance(5_999);
    expect(fired).toBe(false);
    base.advance(1);
    expect(fired).toBe(true);
  });

  it('resumes from a later instant, never an earlier one', () => {
    const base = new ManualClock(1_000_000);
    const clock = new ServiceClock(2, base);
    clock.resumeFrom(500);
    expect(clock.now()).toBe(1_000_000);
    clock.resumeFrom(5_000_000);
    expect(clock.now()).toBe(5_000_000);
    base.advance(10);
    expect(clock.now()).toBe(5_000_020);
    expect(() => new ServiceClock(0)).toThrow(RangeError);
  });

  it('a store written at a high time scale and reopened at 1× continues from its latest record', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-clock-')), 'store.sqlite');
    const fast = createLocalService({ data: file, apiKey: TEST_KEY, timeScale: 100_000 });
    await new Promise((r) => setTimeout(r, 30));
    const r = await fast.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'otp', to: 'ada', payload: { code: '1' } }),
    });
    expect(r.statusCode).toBe(201);
    const written = fast.store.lastActivityAt()!;
    // 30 ms at 100,000× is most of an hour ahead of the wall clock.
    expect(written - Date.now()).toBeGreaterThan(2_000_000);
    await fast.close();
    const again = createLocalService({ data: file, apiKey: TEST_KEY });
    expect(again.clock.now()).toBeGreaterThanOrEqual(written);
    await again.close();
  });
});

describe("timers beyond setTimeout's limit (2^31-1 ms)", () => {
  it('the system clock neither fires early nor warns: it sleeps the limit and re-arms', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    let fired = 0;
    const cancel = systemClock.setTimer(() => fired++, 30 * 86_400_000);
    // A timer of 20 ms set after it: a long timer that overflowed would fire (at 1 ms) before this one.
    await new Promise((r) => systemClock.setTimer(() => r(undefined), 20));
    cancel();
    process.off('warning', onWarning);
    expect(fired).toBe(0);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('the manual clock has the same limit: a long timer fires at its time, through re-armed raw timers', () => {
    const clock = new ManualClock(0);
    let firedAt: number | undefined;
    clock.setTimer(() => (firedAt = clock.now()), 30 * 86_400_000);
    clock.advance(MAX_TIMER_MS + 10);
    expect(firedAt).toBeUndefined();
    expect(clock.rawTimers).toBe(2);
    clock.advance(30 * 86_400_000);
    expect(firedAt).toBe(30 * 86_400_000);
    // A service clock at --time-scale 1 goes through the same limit.
    const scaled = new ServiceClock(1, clock);
    let done = false;
    scaled.setTimer(() => (done = true), 60 * 86_400_000);
    clock.advance(60 * 86_400_000);
    expect(done).toBe(true);
  });
});

describe('JobRunner.advanceTo: time that a caller moves', () => {
  it('runs each job when it comes due, in time order, within one call', async () => {
    const svc = testService();
    try {
      const MIN = 60_000;
      const inbox = (body: string) => ({ name: 'Inbox', type: 'in_app', controlValues: { body } });
      const create = (workflowId: string, steps: unknown[]) =>
        svc.request('POST', '/v2/workflows', { body: { name: workflowId, workflowId, active: true, steps } });
      await create('later', [{ name: 'Wait', type: 'delay', controlValues: { amount: 30, unit: 'minutes' } }, inbox('after the delay')]);
      await create('batched', [
        { name: 'Batch', type: 'digest', controlValues: { amount: 10, unit: 'minutes' } },
        inbox('{{ steps.batch.eventCount }} events'),
      ]);
      const start = svc.clock.now();
      const fire = async (name: string) =>
        expect((await svc.request('POST', '/v1/events/trigger', { body: { name, to: 'ada', payload: {} } })).status).toBe(201);
      await fire('later');
      await fire('batched');
      await svc.runner.idle();
      svc.clock.advance(MIN);
      await fire('batched');
      await svc.runner.idle();

      await svc.runner.advanceTo(svc.clock, start + 2 * 60 * MIN);
      expect(svc.clock.now()).toBe(start + 2 * 60 * MIN);
      const sent = (await svc.request('GET', '/v1/messages?channel=in_app&limit=10')).body.data as { content: string; createdAt: string }[];
      // The digest's window closed first (at 10 minutes), then the delay (at 30): each at its own time.
      expect(sent.map((m) => [m.content, m.createdAt]).reverse()).toEqual([
        ['2 events', new Date(start + 10 * MIN).toISOString()],
        ['after the delay', new Date(start + 30 * MIN).toISOString()],
      ]);
      await svc.runner.stop();
      await expect(svc.runner.advanceTo(svc.clock, start + 3 * 60 * MIN)).rejects.toThrow(/not running/);
    } finally {
      await svc.close();
    }
  });

  it('ServiceClock.moveTo jumps service time ahead and runs on from there, never back', () => {
    const base = new ManualClock(1_000_000);
    const clock = new ServiceClock(1, base);
    clock.moveTo(5_000_000);
    expect(clock.now()).toBe(5_000_000);
    base.advance(10);
    expect(clock.now()).toBe(5_000_010);
    clock.moveTo(1_000);
    expect(clock.now()).toBe(5_000_010);
  });
});

describe('svc dev clock: modes and advancing', () => {
  it('names its mode: real at scale 1, scaled otherwise, manual when it moves only when told', () => {
    expect(clockMode(new ServiceClock(1))).toBe('real');
    expect(clockMode(new ServiceClock(60))).toBe('scaled');
    expect(clockMode(new ManualClock())).toBe('manual');
    expect(clockMode(systemClock)).toBe('real');
    expect(isMovable(new ServiceClock(1))).toBe(true);
    expect(isMovable(systemClock)).toBe(false);
  });

  it('advancing the real clock adds an offset: time runs on from there at its own pace', () => {
    const base = new ManualClock(1_000_000);
    const clock = new ServiceClock(1, base);
    clock.moveTo(clock.now() + 3_600_000);
    expect(clock.now()).toBe(1_000_000 + 3_600_000);
    base.advance(250);
    expect(clock.now()).toBe(1_000_000 + 3_600_000 + 250);
    // Never back.
    clock.moveTo(0);
    expect(clock.now()).toBe(1_000_000 + 3_600_000 + 250);
  });

  it('a scaled clock advanced keeps its scale after the jump', () => {
    const base = new ManualClock(0);
    const clock = new ServiceClock(10, base);
    base.advance(100);
    expect(clock.now()).toBe(1_000);
    clock.moveTo(60_000);
    base.advance(100);
    expect(clock.now()).toBe(61_000);
  });

  it("a manual clock resumes from the store's latest record only when that is ahead", () => {
    const clock = new ManualClock(5_000);
    clock.resumeFrom(1_000);
    expect(clock.now()).toBe(5_000);
    clock.resumeFrom(null);
    expect(clock.now()).toBe(5_000);
    clock.resumeFrom(9_000);
    expect(clock.now()).toBe(9_000);
  });
});

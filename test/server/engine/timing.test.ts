import { describe, expect, it } from 'vitest';
import {
  addDuration,
  cronProblem,
  delayUntil,
  digestGroupKey,
  digestKeyValue,
  digestOutput,
  digestWindow,
  nextCronTime,
  parseDuration,
  readPath,
  throttleDecision,
  throttleGroupKey,
} from '../../../src/server/engine/timing.js';

const T = (iso: string) => Date.parse(iso);
const now = T('2025-01-31T10:00:00Z');
const MIN = 60_000;

describe('durations', () => {
  it('adds fixed units and calendar months', () => {
    expect(addDuration(now, 90, 'seconds')).toBe(now + 90_000);
    expect(addDuration(now, 2, 'weeks')).toBe(now + 14 * 86_400_000);
    expect(new Date(addDuration(now, 1, 'months')).toISOString()).toBe('2025-02-28T10:00:00.000Z');
    expect(new Date(addDuration(T('2024-01-31T00:00:00Z'), 1, 'months')).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(new Date(addDuration(now, 12, 'months')).toISOString()).toBe('2026-01-31T10:00:00.000Z');
  });

  it('parses {amount, unit} and ISO-8601 durations', () => {
    const iso = parseDuration('P1DT2H30M');
    expect(iso && 'iso' in iso && iso.ms(now)).toBe(26.5 * 3_600_000);
    expect(parseDuration({ amount: 5, unit: 'minutes' })).toEqual({ amount: 5, unit: 'minutes' });
    expect(parseDuration({ amount: '5', unit: 'minutes' })).toEqual({ amount: 5, unit: 'minutes' });
    for (const bad of ['P', 'PT', '5 minutes', { amount: 0, unit: 'minutes' }, { amount: 1, unit: 'fortnights' }, 7]) {
      expect(parseDuration(bad)).toBeNull();
    }
  });
});

describe('cron', () => {
  it('finds the next time, in a timezone when given', () => {
    expect(nextCronTime('0 9 * * *', now)).toEqual({ ok: true, at: T('2025-02-01T09:00:00Z') });
    expect(nextCronTime('0 9 * * *', now, 'America/New_York')).toEqual({ ok: true, at: T('2025-01-31T14:00:00Z') });
    expect(nextCronTime('0 9 * * *', now, 'Not/AZone')).toEqual({ ok: true, at: T('2025-02-01T09:00:00Z') });
  });

  it('reports invalid expressions', () => {
    expect(cronProblem('61 * * * *')).toMatch(/invalid cron expression/);
    expect(cronProblem('*/5 * * * *')).toBeNull();
  });
});

describe('readPath', () => {
  const scope = { payload: { sendAt: '2025-02-01T00:00:00Z', items: [{ at: 1 }] }, subscriber: { data: { tz: 'x' } } };
  it('reads rooted, templated, bare (payload-relative) and indexed paths', () => {
    expect(readPath('payload.sendAt', scope)).toMatchObject({ found: true, value: '2025-02-01T00:00:00Z' });
    expect(readPath('{{ payload.sendAt }}', scope)).toMatchObject({ found: true });
    expect(readPath('sendAt', scope)).toMatchObject({ found: true, path: 'payload.sendAt' });
    expect(readPath('payload.items[0].at', scope)).toMatchObject({ found: true, value: 1 });
    expect(readPath('subscriber.data.tz', scope)).toMatchObject({ found: true, value: 'x' });
    expect(readPath('payload.nope', scope)).toEqual({ found: false, path: 'payload.nope' });
  });
});

describe('delayUntil', () => {
  it('regular: amount × unit', () => {
    expect(delayUntil({ type: 'regular', amount: 5, unit: 'minutes' }, {}, now)).toEqual({
      ok: true,
      type: 'regular',
      until: now + 5 * MIN,
      durationMs: 5 * MIN,
    });
    expect(delayUntil({ amount: 5 }, {}, now)).toMatchObject({ ok: false, error: expect.stringMatching(/amount and a unit/) });
  });

  it('timed: the next cron time in the subscriber timezone', () => {
    const d = delayUntil({ type: 'timed', cron: '0 9 * * *' }, { subscriber: { timezone: 'Europe/Paris' } }, now);
    expect(d).toMatchObject({ ok: true, type: 'timed', until: T('2025-02-01T08:00:00Z') });
  });

  it('dynamic: a date, a duration, or a clear error', () => {
    const scope = { payload: { at: '2025-02-01T10:00:00Z', wait: { amount: 2, unit: 'hours' }, iso: 'PT30M', past: '2020-01-01T00:00:00Z', bad: 'soon' } };
    expect(delayUntil({ type: 'dynamic', dynamicKey: 'payload.at' }, scope, now)).toMatchObject({ ok: true, until: T('2025-02-01T10:00:00Z') });
    expect(delayUntil({ type: 'dynamic', dynamicKey: 'payload.wait' }, scope, now)).toMatchObject({ ok: true, until: now + 120 * MIN });
    expect(delayUntil({ type: 'scheduled', delayPath: 'iso' }, scope, now)).toMatchObject({ ok: true, until: now + 30 * MIN });
    expect(delayUntil({ type: 'dynamic', dynamicKey: 'payload.past' }, scope, now)).toMatchObject({ ok: true, until: now, durationMs: 0 });
    expect(delayUntil({ type: 'dynamic', dynamicKey: 'payload.missing' }, scope, now)).toEqual({
      ok: false,
      error: 'dynamic delay: nothing at payload.missing; send an ISO date or a duration there',
    });
    expect(delayUntil({ type: 'dynamic', dynamicKey: 'payload.bad' }, scope, now)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/"soon", not an ISO date/),
    });
    expect(delayUntil({ type: 'dynamic' }, scope, now)).toMatchObject({ ok: false });
  });
});

describe('digest', () => {
  it('regular collects for amount × unit', () => {
    expect(digestWindow({ controls: { amount: 10, unit: 'minutes' }, now })).toEqual({ ok: true, type: 'regular', mode: 'digest', until: now + 10 * MIN });
  });

  it('backoff sends the first event at once unless one came within the look-back window', () => {
    const controls = { amount: 10, unit: 'minutes', lookBackWindow: { amount: 5, unit: 'minutes' } };
    expect(digestWindow({ controls, now, lastEventAt: null })).toMatchObject({ type: 'backoff', mode: 'immediate', until: now });
    expect(digestWindow({ controls, now, lastEventAt: now - 6 * MIN })).toMatchObject({ mode: 'immediate' });
    expect(digestWindow({ controls, now, lastEventAt: now - 2 * MIN })).toMatchObject({ type: 'backoff', mode: 'digest', until: now + 10 * MIN });
  });

  it('timed collects until the next cron time', () => {
    expect(digestWindow({ controls: { type: 'timed', cron: '0 * * * *' }, now: now + 1 })).toMatchObject({ type: 'timed', until: T('2025-01-31T11:00:00Z') });
    expect(digestWindow({ controls: { cron: '0 * * * *' }, now })).toMatchObject({ type: 'timed' });
    expect(digestWindow({ controls: { type: 'timed' }, now })).toMatchObject({ ok: false });
  });

  it('groups by the rendered or read digest key', () => {
    const scope = { payload: { postId: 'p1' } };
    expect(digestKeyValue({ digestKey: '{{ payload.postId }}' }, scope)).toEqual({ ok: true, value: 'p1', missing: false });
    expect(digestKeyValue({ digestKey: 'postId' }, scope)).toEqual({ ok: true, value: 'p1', missing: false });
    expect(digestKeyValue({ digestKey: 'payload.other' }, scope)).toEqual({ ok: true, value: '', missing: true });
    expect(digestKeyValue({}, scope)).toEqual({ ok: true, value: '', missing: false });
    const a = digestGroupKey({ workflowId: 'w', stepId: 's', subscriberId: 'u', keyValue: 'p1' });
    expect(a).not.toBe(digestGroupKey({ workflowId: 'w', stepId: 's', subscriberId: 'u2', keyValue: 'p1' }));
  });

  it('outputs events in time order with a count', () => {
    const out = digestOutput([
      { id: 'b', time: now + 1000, payload: { n: 2 } },
      { id: 'a', time: '2025-01-31T10:00:00.000Z', payload: { n: 1 } },
    ]);
    expect(out).toEqual({
      eventCount: 2,
      events: [
        { id: 'a', time: '2025-01-31T10:00:00.000Z', payload: { n: 1 } },
        { id: 'b', time: '2025-01-31T10:00:01.000Z', payload: { n: 2 } },
      ],
    });
  });

  it('puts events of the same millisecond in the order their ids were issued, whichever is the leader', () => {
    const at = '2025-01-31T10:00:00.000Z';
    const out = digestOutput([
      { id: '679c9f60aaaaaaaaaa000003', time: at, payload: { item: 'Bulb' } },
      { id: '679c9f60aaaaaaaaaa000001', time: at, payload: { item: 'Lamp' } },
    ]);
    expect(out.events.map((e) => e.payload.item)).toEqual(['Lamp', 'Bulb']);
  });
});

describe('throttle', () => {
  it('lets `threshold` executions through per fixed window', () => {
    const controls = { type: 'fixed', amount: 1, unit: 'hours', threshold: 2 };
    expect(throttleDecision([], now, controls)).toMatchObject({ ok: true, allow: true, count: 0 });
    expect(throttleDecision([now - 10 * MIN], now, controls)).toMatchObject({ allow: true, count: 1 });
    const blocked = throttleDecision([now - 50 * MIN, now - 10 * MIN], now, controls);
    expect(blocked).toEqual({ ok: true, allow: false, count: 2, threshold: 2, windowStart: now - 60 * MIN, resetAt: now + 10 * MIN });
    expect(throttleDecision([now - 70 * MIN, now - 10 * MIN], now, controls)).toMatchObject({ allow: true, count: 1 });
  });

  it('lets 2 of 5 quick triggers through with threshold 2', () => {
    const controls = { amount: 1, unit: 'minutes', threshold: 2 };
    const passed: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const t = now + i * 1000;
      const d = throttleDecision(passed, t, controls);
      if (d.ok && d.allow) passed.push(t);
    }
    expect(passed).toHaveLength(2);
  });

  it('dynamic windows come from a duration or a start date', () => {
    const scope = { payload: { window: 'PT30M', since: '2025-01-31T09:00:00Z', later: '2025-02-01T00:00:00Z' } };
    expect(throttleDecision([now - 40 * MIN], now, { type: 'dynamic', dynamicKey: 'payload.window' }, scope)).toMatchObject({ allow: true });
    expect(throttleDecision([now - 40 * MIN], now, { type: 'dynamic', dynamicKey: 'payload.since' }, scope)).toMatchObject({ allow: false, resetAt: null });
    expect(throttleDecision([], now, { type: 'dynamic', dynamicKey: 'payload.later' }, scope)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/in the future/),
    });
    expect(throttleDecision([], now, { type: 'dynamic', dynamicKey: 'payload.none' }, scope)).toMatchObject({ ok: false });
  });

  it('groups by subscriber by default, or by the throttle key', () => {
    const base = { workflowId: 'w', stepId: 't', controls: {}, scope: { payload: { org: 'acme' } } };
    const a = throttleGroupKey({ ...base, subscriberId: 'a' });
    const b = throttleGroupKey({ ...base, subscriberId: 'b' });
    expect(a).not.toEqual(b);
    const keyed = { ...base, controls: { throttleKey: '{{ payload.org }}' } };
    expect(throttleGroupKey({ ...keyed, subscriberId: 'a' })).toEqual(throttleGroupKey({ ...keyed, subscriberId: 'b' }));
    expect(throttleGroupKey({ ...base, subscriberId: 'a', controls: { throttleKey: 'payload.org' } })).toEqual(
      throttleGroupKey({ ...keyed, subscriberId: 'z' }),
    );
  });
});

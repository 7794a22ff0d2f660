// A delivery schedule's arithmetic: inside or outside, across midnight, in the subscriber's timezone
// (daylight saving included), and the next time inside.
import { describe, expect, it } from 'vitest';
import { minutesOf, nextScheduledTime, withinSchedule, type DeliverySchedule } from '../../../src/server/engine/index.js';

const at = (iso: string) => Date.parse(iso);
const weekdays = (hours: { start: string; end: string }[]): DeliverySchedule => ({
  isEnabled: true,
  weeklySchedule: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, { isEnabled: true, hours }])),
});

describe('delivery schedule', () => {
  it('reads the times of the service (12-hour with AM/PM) and 24-hour ones', () => {
    expect([minutesOf('09:00 AM'), minutesOf('12:30 AM'), minutesOf('12:00 PM'), minutesOf('5:15 PM'), minutesOf('17:15'), minutesOf('soon')]).toEqual([
      540,
      30,
      720,
      1035,
      1035,
      Number.NaN,
    ]);
  });

  it('a schedule that is off, or has no days, lets everything through', () => {
    expect(withinSchedule(undefined, at('2026-01-03T03:00:00Z'))).toBe(true);
    expect(withinSchedule({ isEnabled: false, weeklySchedule: {} }, at('2026-01-03T03:00:00Z'))).toBe(true);
    expect(withinSchedule({ isEnabled: true }, at('2026-01-03T03:00:00Z'))).toBe(true);
  });

  it('is judged on the wall clock of the subscriber’s timezone, UTC when it has none or an unknown one', () => {
    const s = weekdays([{ start: '09:00 AM', end: '05:00 PM' }]);
    // Thursday 08:30 UTC is 09:30 in Paris, 03:30 in New York.
    expect(withinSchedule(s, at('2026-01-01T08:30:00Z'), 'Europe/Paris')).toBe(true);
    expect(withinSchedule(s, at('2026-01-01T08:30:00Z'), 'America/New_York')).toBe(false);
    expect(withinSchedule(s, at('2026-01-01T08:30:00Z'))).toBe(false);
    expect(withinSchedule(s, at('2026-01-01T09:30:00Z'), 'Mars/Olympus')).toBe(true);
    // Saturday is not in it.
    expect(withinSchedule(s, at('2026-01-03T12:00:00Z'))).toBe(false);
  });

  it('a range over midnight holds late on its day and early on the next', () => {
    const s: DeliverySchedule = { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '10:00 PM', end: '02:00 AM' }] } } };
    expect(withinSchedule(s, at('2026-01-02T23:00:00Z'))).toBe(true); // Friday 23:00
    expect(withinSchedule(s, at('2026-01-03T01:30:00Z'))).toBe(true); // Saturday 01:30
    expect(withinSchedule(s, at('2026-01-03T02:30:00Z'))).toBe(false);
    expect(withinSchedule(s, at('2026-01-02T01:30:00Z'))).toBe(false); // Friday 01:30: Thursday has no range
  });

  it('the next time inside: the same day later, the next working day, across a change of daylight saving time', () => {
    const s = weekdays([{ start: '09:00 AM', end: '05:00 PM' }]);
    expect(nextScheduledTime(s, at('2026-01-01T00:00:00Z'), 'Europe/Paris')).toBe(at('2026-01-01T08:00:00Z'));
    expect(nextScheduledTime(s, at('2026-01-01T10:00:00Z'), 'Europe/Paris')).toBe(at('2026-01-01T10:00:00Z'));
    // Friday 18:00 in Paris: Monday 09:00.
    expect(nextScheduledTime(s, at('2026-01-02T17:00:00Z'), 'Europe/Paris')).toBe(at('2026-01-05T08:00:00Z'));
    // Saturday 28 March 2026, Paris moves to summer time on Sunday: Monday 09:00 is 07:00 UTC.
    expect(nextScheduledTime(s, at('2026-03-28T12:00:00Z'), 'Europe/Paris')).toBe(at('2026-03-30T07:00:00Z'));
    expect(nextScheduledTime({ isEnabled: true, weeklySchedule: {} }, at('2026-03-28T12:00:00Z'))).toBe(at('2026-03-28T12:00:00Z'));
  });
});

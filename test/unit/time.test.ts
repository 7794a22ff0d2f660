import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatTime, relativeTime, zoneLabel } from '../../src/io/time.js';

const T = '2026-11-24T11:34:41.473Z';
const NOW = Date.parse('2026-11-24T11:40:00Z');
let tz: string | undefined;
beforeEach(() => {
  tz = process.env.TZ;
  process.env.TZ = 'Europe/Paris';
});
afterEach(() => {
  if (tz === undefined) delete process.env.TZ;
  else process.env.TZ = tz;
});

describe('one time display', () => {
  it('local times carry their offset; --utc shows Z', () => {
    expect(formatTime(T)).toBe('2026-11-24 12:34:41+01:00');
    expect(formatTime(T, 'full', { utc: true })).toBe('2026-11-24 11:34:41Z');
    expect(zoneLabel({ utc: true })).toBe('UTC');
    expect(zoneLabel({}, NOW)).toBe('local (+01:00)');
  });
  it('compact forms keep the zone', () => {
    expect(formatTime(T, 'compact', { utc: true }, NOW)).toBe('11:34:41Z');
    expect(formatTime(T, 'compact', { utc: true }, Date.parse('2026-11-30T00:00:00Z'))).toBe('11-24 11:34Z');
    expect(formatTime(T, 'compact', {}, Date.parse('2027-01-02T00:00:00Z'))).toBe('2026-11-24+01:00');
    expect(formatTime(T, 'clock-ms', { utc: true })).toBe('11:34:41.473Z');
  });
  it('relative ages', () => {
    expect(formatTime(T, 'relative', {}, NOW)).toBe('5m ago');
    expect(relativeTime(new Date(NOW + 120_000), NOW)).toBe('in 2m');
    expect(relativeTime(new Date(NOW - 3 * 86_400_000), NOW)).toBe('3d ago');
  });
  it('leaves what is not a time alone', () => {
    expect(formatTime('soon')).toBe('soon');
    expect(formatTime(undefined)).toBe('');
  });
});

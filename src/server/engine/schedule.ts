// A subscriber's delivery schedule (their global preference's `schedule`: per weekday, time ranges
// such as `09:00 AM`–`05:00 PM` in their timezone) and whether an instant falls inside it. Pure: every
// function takes `now` (ms). The service skips a channel step (in-app excepted) outside the schedule,
// and holds a delay or digest that asks to be extended to it until the next time inside.
import { LRUCache } from 'lru-cache';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
type Weekday = (typeof WEEKDAYS)[number];

interface TimeRange {
  start: string;
  end: string;
}

export interface DeliverySchedule {
  isEnabled: boolean;
  weeklySchedule?: Partial<Record<Weekday, { isEnabled: boolean; hours?: TimeRange[] | undefined }>> | undefined;
}

/** `09:00 AM` → 540; `12:30 AM` → 30; `5:15 PM` → 1035; also 24-hour `17:15`. NaN when unreadable. */
export function minutesOf(time: string): number {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(AM|PM)?\s*$/i.exec(time);
  if (!m) return Number.NaN;
  let hours = Number(m[1]);
  const minutes = Number(m[2]);
  const period = m[3]?.toUpperCase();
  if (period === 'PM' && hours !== 12) hours += 12;
  if (period === 'AM' && hours === 12) hours = 0;
  return hours * 60 + minutes;
}

function validZone(tz: string | null | undefined): string {
  if (!tz) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return 'UTC';
  }
}

/** A formatter per time zone: building one is far dearer than formatting with it. */
const formats = new LRUCache<string, Intl.DateTimeFormat>({ max: 100 });
function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'long',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The wall clock of `at` in `zone`: date, weekday and minutes since midnight. */
function wallClock(at: number, zone: string) {
  const parts = Object.fromEntries(
    format(zone)
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: String(parts.weekday).toLowerCase() as Weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
    seconds: Number(parts.second),
  };
}

/** The instant at which the wall clock of `zone` shows the given local date and minute. */
function instantOf(zone: string, year: number, month: number, day: number, minutes: number): number {
  const guess = Date.UTC(year, month - 1, day, 0, minutes);
  const offsetAt = (t: number) => {
    const w = wallClock(t, zone);
    return Date.UTC(w.year, w.month - 1, w.day, 0, w.minutes, w.seconds) - Math.floor(t / 1000) * 1000;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

function ranges(schedule: DeliverySchedule, day: Weekday): { start: number; end: number }[] {
  const d = schedule.weeklySchedule?.[day];
  if (!d?.isEnabled) return [];
  return (d.hours ?? []).map((h) => ({ start: minutesOf(h.start), end: minutesOf(h.end) })).filter((r) => !Number.isNaN(r.start) && !Number.isNaN(r.end));
}

const previous = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;

/** Whether `now` is inside the schedule (a schedule not enabled, or without days, lets everything through). */
export function withinSchedule(schedule: DeliverySchedule | undefined, now: number, timezone?: string | null): boolean {
  if (!schedule?.isEnabled || !schedule.weeklySchedule) return true;
  const w = wallClock(now, validZone(timezone));
  // A range that ends before it starts runs over midnight into the next day.
  const today = ranges(schedule, w.weekday).some((r) => (r.end < r.start ? w.minutes >= r.start : w.minutes >= r.start && w.minutes <= r.end));
  const fromYesterday = ranges(schedule, previous(w.weekday)).some((r) => r.end < r.start && w.minutes <= r.end);
  return today || fromYesterday;
}

/** The first instant at or after `now` inside the schedule (`now` itself when inside; `now` when there is none). */
export function nextScheduledTime(schedule: DeliverySchedule | undefined, now: number, timezone?: string | null): number {
  if (withinSchedule(schedule, now, timezone) || !schedule) return now;
  const zone = validZone(timezone);
  const w = wallClock(now, zone);
  let best: number | undefined;
  for (let offset = 0; offset <= 7; offset++) {
    const date = new Date(Date.UTC(w.year, w.month - 1, w.day + offset));
    const day = WEEKDAYS[date.getUTCDay()]!;
    for (const r of ranges(schedule, day)) {
      const start = instantOf(zone, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), r.start);
      if (start > now && (best === undefined || start < best)) best = start;
    }
    if (best !== undefined) break;
  }
  return best ?? now;
}

/** `Saturday 10:12 in Europe/Paris`: the subscriber's wall clock at `now`, for a timeline. */
export function wallClockText(now: number, timezone?: string | null): string {
  const zone = validZone(timezone);
  const w = wallClock(now, zone);
  const hh = String(Math.floor(w.minutes / 60)).padStart(2, '0');
  const mm = String(w.minutes % 60).padStart(2, '0');
  return `${w.weekday[0]!.toUpperCase()}${w.weekday.slice(1)} ${hh}:${mm} in ${zone}`;
}

// One way of showing a time, everywhere a person reads one (tables, the timeline, watch lines, the
// browser): the local time with its offset (`2026-11-24 12:34:41+01:00`), or with `--utc` the UTC time
// with `Z` (`2026-11-24 11:34:41Z`). Never a bare time whose zone the reader has to guess. Shorter
// forms for narrow columns keep the zone; a relative age (`5m ago`) needs none. Pure.

export interface TimeOptions {
  utc?: boolean;
}

type TimeStyle = 'full' | 'compact' | 'clock' | 'clock-ms' | 'relative';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  ms: number;
  zone: string;
}

function parts(date: Date, utc: boolean): Parts {
  if (utc) {
    return {
      y: date.getUTCFullYear(),
      mo: date.getUTCMonth() + 1,
      d: date.getUTCDate(),
      h: date.getUTCHours(),
      mi: date.getUTCMinutes(),
      s: date.getUTCSeconds(),
      ms: date.getUTCMilliseconds(),
      zone: 'Z',
    };
  }
  const off = -date.getTimezoneOffset();
  const zone = off === 0 ? '+00:00' : `${off > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  return {
    y: date.getFullYear(),
    mo: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    mi: date.getMinutes(),
    s: date.getSeconds(),
    ms: date.getMilliseconds(),
    zone,
  };
}

function parseInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** `5s ago`, `12m ago`, `3h ago`, `4d ago`; `in 2m` for a future time. */
export function relativeTime(date: Date, now: number): string {
  const diff = now - date.getTime();
  const abs = Math.abs(diff) / 1000;
  const unit =
    abs < 60 ? `${Math.floor(abs)}s` : abs < 3600 ? `${Math.floor(abs / 60)}m` : abs < 86_400 ? `${Math.floor(abs / 3600)}h` : `${Math.floor(abs / 86_400)}d`;
  return diff >= 0 ? `${unit} ago` : `in ${unit}`;
}

/**
 * - full      `2026-11-24 11:34:41Z` / `2026-11-24 12:34:41+01:00`
 * - compact   `11:34:41Z` on the day of `now`, else `11-24 11:34Z` (same year) or `2025-11-24Z`
 * - clock     `11:34:41Z`;  clock-ms `11:34:41.473Z` (the timeline, whose date is in its header)
 * - relative  `5m ago`
 * A value that is not a time is returned as it is.
 */
export function formatTime(value: unknown, style: TimeStyle = 'full', opts: TimeOptions = {}, now = Date.now()): string {
  if (value === undefined || value === null) return '';
  const date = parseInstant(value);
  if (!date) return String(value);
  if (style === 'relative') return relativeTime(date, now);
  const p = parts(date, opts.utc === true);
  const clock = `${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
  const z = p.zone;
  switch (style) {
    case 'clock':
      return `${clock}${z}`;
    case 'clock-ms':
      return `${clock}.${pad(p.ms, 3)}${z}`;
    case 'compact': {
      const today = parts(new Date(now), opts.utc === true);
      if (today.y === p.y && today.mo === p.mo && today.d === p.d) return `${clock}${z}`;
      if (today.y === p.y) return `${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}${z}`;
      return `${p.y}-${pad(p.mo)}-${pad(p.d)}${z}`;
    }
    default:
      return `${p.y}-${pad(p.mo)}-${pad(p.d)} ${clock}${z}`;
  }
}

/** The zone every time is shown in, for a header or a note: `UTC` or `local (+01:00)`. */
export function zoneLabel(opts: TimeOptions, now = Date.now()): string {
  return opts.utc ? 'UTC' : `local (${parts(new Date(now), false).zone})`;
}

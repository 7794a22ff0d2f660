// Service time. Every timestamp the local service writes and every timer it sets goes through a Clock,
// so that `--time-scale N` (a scaled clock) and tests (a manual clock) can make delays and digests
// pass faster without touching the code that uses them.

export interface Clock {
  /** Milliseconds since the epoch, in service time. */
  now(): number;
  /** Calls `fn` once after `ms` of service time; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    // A pending timer must never keep a stopping process alive.
    t.unref();
    return () => clearTimeout(t);
  },
};

/**
 * Service time runs `scale` times faster than real time from the moment the clock is made, so a
 * one-hour delay passes in 36 s at scale 100. Real time and service time agree at the start.
 */
export function scaledClock(scale: number, base: Clock = systemClock): Clock {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError('time scale must be a positive number');
  if (scale === 1) return base;
  const origin = base.now();
  return {
    now: () => origin + (base.now() - origin) * scale,
    setTimer: (fn, ms) => base.setTimer(fn, ms / scale),
  };
}

/** A clock that moves only when told to; timers fire in order as time passes them. For tests. */
export class ManualClock implements Clock {
  private t: number;
  private timers: { at: number; fn: () => void; seq: number }[] = [];
  private seq = 0;

  constructor(start = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const entry = { at: this.t + Math.max(0, ms), fn, seq: this.seq++ };
    this.timers.push(entry);
    return () => {
      this.timers = this.timers.filter((e) => e !== entry);
    };
  }

  advance(ms: number): void {
    const target = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.t = next.at;
      next.fn();
    }
    this.t = target;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();

// Service time. Every timestamp the local service writes and every timer it sets goes through a Clock,
// so that `--time-scale N` (ServiceClock) and tests (ManualClock) can make delays and digests pass
// faster without touching the code that uses them; a MovableClock is moved forward by its caller.

export interface Clock {
  /** Milliseconds since the epoch, in service time. */
  now(): number;
  /** Calls `fn` once after `ms` of service time; the returned function cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/**
 * A clock a caller moves forward (tests; a service whose time its user controls). Moving it is only
 * half of "make time pass": JobRunner.advanceTo moves it job by job, so that what comes due on the
 * way runs at its own time, in time order.
 */
export interface MovableClock extends Clock {
  /** Moves service time forward to `t` (never back); timers due by then fire, in time order. */
  moveTo(t: number): void;
}

/** How service time passes (`svc dev --clock`, `--time-scale`), as `svc dev clock` shows it. */
type ClockMode = 'real' | 'scaled' | 'manual';

/** A clock's mode: a ServiceClock is real (scale 1) or scaled; a clock that moves only when told is manual. */
export function clockMode(clock: Clock): ClockMode {
  if (clock instanceof ServiceClock) return clock.scale === 1 ? 'real' : 'scaled';
  return clock instanceof ManualClock ? 'manual' : 'real';
}

export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).moveTo === 'function';
}

/**
 * The longest single timer setTimeout honours (2^31-1 ms, about 24.8 days). Longer, Node fires it
 * after 1 ms with a TimeoutOverflowWarning; a delay step of 30 days would then spin.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A timer of any length on top of one limited to MAX_TIMER_MS: it sleeps at most that long, then
 * re-arms for what is left, until the deadline (in the raw timer's own time) is reached.
 */
function longTimer(raw: { now(): number; set(fn: () => void, ms: number): () => void }, fn: () => void, ms: number): () => void {
  const deadline = raw.now() + Math.max(0, Number.isFinite(ms) ? ms : MAX_TIMER_MS);
  let cancel: () => void;
  const arm = () => {
    const left = Math.max(0, deadline - raw.now());
    cancel = left > MAX_TIMER_MS ? raw.set(arm, MAX_TIMER_MS) : raw.set(fn, left);
  };
  arm();
  return () => cancel();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    return longTimer(
      {
        now: () => Date.now(),
        set(f, ms) {
          const t = setTimeout(f, ms);
          // A pending timer must never keep a stopping process alive.
          t.unref();
          return () => clearTimeout(t);
        },
      },
      fn,
      ms,
    );
  },
};

/**
 * `svc dev`'s service time: real time running `scale` times faster (`--time-scale`), resumed by
 * resumeFrom() so that it never goes back behind what the store already recorded. Without that, a
 * store written at `--time-scale 600` and reopened would see new events dated before old ones, and
 * delayed jobs would wait again for the service time that had already passed.
 */
export class ServiceClock implements MovableClock {
  private realOrigin: number;
  private serviceOrigin: number;

  constructor(
    readonly scale = 1,
    private readonly base: Clock = systemClock,
  ) {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError('time scale must be a positive number');
    this.realOrigin = base.now();
    this.serviceOrigin = this.realOrigin;
  }

  /** Service time continues from `t` (the store's latest record) when that is ahead of now. */
  resumeFrom(t: number | null | undefined): void {
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= this.now()) return;
    this.realOrigin = this.base.now();
    this.serviceOrigin = t;
  }

  now(): number {
    return this.serviceOrigin + (this.base.now() - this.realOrigin) * this.scale;
  }

  /**
   * Service time jumps to `t` and runs on from there. Timers set before keep their real-time delay:
   * whoever moves the clock looks again at what came due (JobRunner.advanceTo does).
   */
  moveTo(t: number): void {
    if (t <= this.now()) return;
    this.realOrigin = this.base.now();
    this.serviceOrigin = t;
  }

  setTimer(fn: () => void, ms: number): () => void {
    return this.base.setTimer(fn, ms / this.scale);
  }
}

/** A clock that moves only when told to; timers fire in order as time passes them. */
export class ManualClock implements MovableClock {
  private t: number;
  private timers: { at: number; fn: () => void; seq: number }[] = [];
  private seq = 0;

  constructor(start = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.t = start;
  }

  /**
   * Time continues from `t` (the store's latest record) when that is ahead: as ServiceClock, a store
   * reopened never sees new records dated before old ones.
   */
  resumeFrom(t: number | null | undefined): void {
    if (typeof t === 'number' && Number.isFinite(t)) this.moveTo(t);
  }

  now(): number {
    return this.t;
  }

  /** Raw timers set so far, and the longest: tests check that no timer exceeded setTimeout's limit. */
  rawTimers = 0;

  setTimer(fn: () => void, ms: number): () => void {
    return longTimer({ now: () => this.t, set: (f, ms) => this.rawTimer(f, ms) }, fn, ms);
  }

  /** setTimeout's limits: a timer longer than MAX_TIMER_MS is a bug (Node would fire it at once). */
  private rawTimer(fn: () => void, ms: number): () => void {
    if (!(ms <= MAX_TIMER_MS)) throw new RangeError(`timer of ${ms} ms exceeds setTimeout's limit of ${MAX_TIMER_MS} ms`);
    this.rawTimers++;
    const entry = { at: this.t + Math.max(0, ms), fn, seq: this.seq++ };
    this.timers.push(entry);
    return () => {
      this.timers = this.timers.filter((e) => e !== entry);
    };
  }

  moveTo(t: number): void {
    if (t > this.t) this.advance(t - this.t);
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

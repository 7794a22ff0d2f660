// How many requests a bulk run keeps in flight, and when it holds back. With --concurrency the number
// is fixed; otherwise it adapts: it grows while the service's RateLimit-Remaining leaves room, halves on
// a 429, and no request is started that the remaining tokens cannot pay for (a bulk call costs 100) —
// it waits for RateLimit-Reset instead, so a rate-limited service sees no avoidable 429.

export interface RateState {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets. */
  reset?: number;
}

export interface PacerOptions {
  fixed?: number;
  initial?: number;
  max?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export class Pacer {
  concurrency: number;
  private readonly max: number;
  private readonly fixed: boolean;
  private inFlight = 0;
  private reserved = 0;
  private remaining?: number;
  private resetAt = 0;
  private blockedUntil = 0;
  private waiters: (() => void)[] = [];
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: PacerOptions = {}) {
    this.fixed = opts.fixed !== undefined;
    this.concurrency = opts.fixed ?? opts.initial ?? 8;
    this.max = opts.fixed ?? opts.max ?? 16;
    this.now = opts.now ?? (() => Date.now());
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get active(): number {
    return this.inFlight;
  }

  /** Milliseconds to wait before a request of this cost may start (0 when it may start now). */
  delayFor(cost: number): number {
    const now = this.now();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (this.remaining !== undefined && now < this.resetAt && this.remaining - this.reserved < cost) {
      return this.resetAt - now;
    }
    return 0;
  }

  /** Waits for a free slot and for the tokens to pay `cost`, then reserves them. */
  async acquire(cost: number): Promise<void> {
    for (;;) {
      if (this.inFlight >= this.concurrency) {
        await new Promise<void>((r) => this.waiters.push(r));
        continue;
      }
      const wait = this.delayFor(cost);
      if (wait > 0) {
        await this.sleep(Math.min(wait + 5, 60_000));
        // The window has passed: what we knew of the remaining tokens is stale.
        if (this.now() >= this.resetAt) this.remaining = undefined;
        continue;
      }
      this.inFlight++;
      this.reserved += cost;
      return;
    }
  }

  /** Called for every attempt's answer (429s included): learns the service's rate-limit state. */
  observe(status: number | undefined, rate: RateState, retryAfterMs?: number): void {
    const now = this.now();
    if (rate.remaining !== undefined) {
      this.remaining = rate.remaining;
      this.resetAt = now + (rate.reset ?? 1) * 1000;
    }
    if (status === 429) {
      this.blockedUntil = Math.max(this.blockedUntil, now + (retryAfterMs ?? (rate.reset ?? 1) * 1000));
      if (!this.fixed) this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
    }
  }

  /** A request finished: frees its slot and tokens; grows the window if the service has room. */
  release(cost: number, ok: boolean): void {
    this.inFlight--;
    this.reserved = Math.max(0, this.reserved - cost);
    if (ok && !this.fixed && this.concurrency < this.max) {
      const room = this.remaining === undefined || this.remaining - this.reserved > cost * (this.concurrency + 1) * 2;
      if (room) this.concurrency++;
    }
    const w = this.waiters.shift();
    if (w) w();
  }
}

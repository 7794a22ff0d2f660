// How a bulk run holds back. The service limits each category with a token bucket (ground truth, "Rate
// limits": a 5-second window of the category's rate plus a 10% burst; a bulk call costs 100, a trigger
// 1). The pacer keeps its own copy of that bucket, learned from the RateLimit-* headers of every answer
// (RateLimit-Limit per window, RateLimit-Policy's `w=` and `burst=`, RateLimit-Remaining, Retry-After),
// and starts a call only when the bucket can pay the call's cost: a rate-limited service then sees
// (almost) no 429 and the run goes as fast as the tier allows. Requests in flight are bounded too: with
// --concurrency the number is fixed; otherwise it adapts (grows while calls succeed, halves on a 429).
//
// All waiting is done with node:timers/promises and the run's signal: Ctrl-C ends a wait at once, and a
// finished wait leaves no listener behind.
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError } from '../core/errors.js';
import type { RateLimitInfo } from '../api/client.js';

const DEFAULT_WINDOW_S = 5;
const DEFAULT_BURST = 0.1;

interface PacerOptions {
  fixed?: number;
  initial?: number;
  max?: number;
  now?: () => number;
  signal?: AbortSignal;
  /** No wait may end later than this (epoch ms): acquire() throws OutOfTime instead. */
  deadline?: number;
  /** Told when the pacer starts (ms > 0) and stops (0) waiting for the rate limit. */
  onWait?: (ms: number) => void;
}

/** --max-time ran out while waiting for the rate limit. */
export class OutOfTime extends Error {
  constructor() {
    super('out of time');
  }
}

/** A call costs more than the service's bucket can ever hold: it must be made smaller. */
export class TooExpensive extends Error {
  constructor(readonly cost: number) {
    super(`a call of cost ${cost} exceeds the rate limit's bucket`);
  }
}

export class Pacer {
  concurrency: number;
  private readonly max: number;
  private readonly fixed: boolean;
  private inFlight = 0;
  /** Cost of the calls in flight (the service may not have counted them yet). */
  private inFlightCost = 0;
  /** Tokens per second, and the bucket's capacity, once an answer has told them. */
  rate?: number;
  capacity?: number;
  /** Tokens the pacer believes are left, at `at`. */
  private tokens = 0;
  private at = 0;
  private blockedUntil = 0;
  /** An answer has come (with or without RateLimit-* headers). */
  private heard = false;
  private waiters: (() => void)[] = [];
  private readonly now: () => number;
  private readonly signal: AbortSignal | undefined;
  private readonly deadline: number;
  private readonly onWait: ((ms: number) => void) | undefined;

  constructor(opts: PacerOptions = {}) {
    this.fixed = opts.fixed !== undefined;
    this.concurrency = opts.fixed ?? opts.initial ?? 8;
    this.max = opts.fixed ?? opts.max ?? 16;
    this.now = opts.now ?? (() => Date.now());
    this.signal = opts.signal;
    this.deadline = opts.deadline ?? Number.POSITIVE_INFINITY;
    this.onWait = opts.onWait;
  }

  get active(): number {
    return this.inFlight;
  }

  /** The bucket is known and cannot ever hold `cost` tokens: such a call must be made smaller. */
  tooExpensive(cost: number): boolean {
    return this.capacity !== undefined && cost > this.capacity;
  }

  private refill(now: number): void {
    if (this.rate === undefined || this.capacity === undefined) return;
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
  }

  /** Milliseconds to wait before a call of this cost may start (0: now). */
  delayFor(cost: number): number {
    const now = this.now();
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (this.rate === undefined) return 0;
    this.refill(now);
    if (this.tokens >= cost) return 0;
    return Math.ceil(((cost - this.tokens) / this.rate) * 1000);
  }

  private async wait(ms: number): Promise<void> {
    if (this.now() + ms > this.deadline) throw new OutOfTime();
    this.onWait?.(ms);
    try {
      await sleep(ms, undefined, this.signal ? { signal: this.signal } : {});
    } catch (e) {
      if (this.signal?.aborted) throw new InterruptedError();
      throw e;
    } finally {
      this.onWait?.(0);
    }
  }

  /**
   * Waits for a free slot (unless `slot` is false: a call made inside a chunk that holds one) and for
   * the tokens to pay `cost`, then takes them.
   */
  async acquire(cost: number, slot = true): Promise<void> {
    for (;;) {
      if (this.signal?.aborted) throw new InterruptedError();
      if (this.tooExpensive(cost)) throw new TooExpensive(cost);
      // Until the first answer has told the limits (or that there are none), one call at a time.
      const limit = !this.heard && this.inFlight > 0 ? 1 : this.concurrency;
      if (slot && this.inFlight >= limit) {
        await new Promise<void>((r) => this.waiters.push(r));
        continue;
      }
      const wait = this.delayFor(cost);
      if (wait > 0) {
        await this.wait(wait);
        continue;
      }
      if (this.rate !== undefined) this.tokens -= cost;
      if (slot) this.inFlight++;
      this.inFlightCost += cost;
      return;
    }
  }

  /**
   * Called for every answer (429s included): learns the service's bucket (its rate, capacity and, from
   * the first answer, its level). From then on the pacer counts the tokens itself, and a 429 (another
   * client sharing the bucket) lowers its count to what the service says is left.
   */
  observe(status: number | undefined, rl: RateLimitInfo, retryAfterMs?: number): void {
    const now = this.now();
    if (status !== undefined && !this.heard) {
      this.heard = true;
      for (const w of this.waiters.splice(0)) w();
    }
    if (rl.limit !== undefined && rl.limit > 0) {
      const w = Number(/(?:^|;)\s*w=(\d+(?:\.\d+)?)/.exec(rl.policy ?? '')?.[1] ?? DEFAULT_WINDOW_S) || DEFAULT_WINDOW_S;
      const burst = Number(/(?:^|;)\s*burst=(\d+(?:\.\d+)?)/.exec(rl.policy ?? '')?.[1]);
      const first = this.rate === undefined;
      this.rate = rl.limit / w;
      this.capacity = burst > 0 ? burst : Math.floor(rl.limit * (1 + DEFAULT_BURST));
      if (first) {
        this.tokens = rl.remaining ?? 0;
        this.at = now;
      }
    }
    if (status === 429) {
      if (this.rate === undefined) this.blockedUntil = Math.max(this.blockedUntil, now + (retryAfterMs ?? 1000));
      else this.tokens = Math.min(this.tokens, rl.remaining ?? 0);
      if (!this.fixed) this.concurrency = Math.max(1, Math.floor(this.concurrency / 2));
    }
  }

  /** Gives back tokens taken for a call that was never answered by the service's bucket. */
  refund(cost: number): void {
    if (this.rate !== undefined && this.capacity !== undefined) this.tokens = Math.min(this.capacity, this.tokens + cost);
  }

  /** A call finished: frees its slot; grows the window while calls succeed. */
  release(cost: number, ok: boolean, slot = true): void {
    this.inFlightCost = Math.max(0, this.inFlightCost - cost);
    if (!slot) return;
    this.inFlight--;
    if (ok && !this.fixed && this.concurrency < this.max) this.concurrency++;
    const w = this.waiters.shift();
    if (w) w();
  }

  /** Wakes everyone waiting for a slot (the run is ending). */
  wakeAll(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

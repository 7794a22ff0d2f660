// Rate limiting as the service does it (ground truth, "Rate limits"): a token bucket per environment
// and category, refilled continuously at the category's rate, holding one 5-second window of tokens
// plus a 10% burst; a bulk call costs 100 tokens (whatever its number of events), any other call 1.
// Every answer of an operation carries RateLimit-Limit (tokens per window), -Remaining, -Reset
// (seconds until a call of the same cost passes again) and -Policy (`w=` window, `burst=` capacity);
// a 429 adds Retry-After. Off unless `--rate-limit` asks for it, so that clients can test their
// back-off against it.
import type { RateCategory } from '../api/operations.js';
import { ServiceInputError } from './errors.js';
import type { Clock } from './clock.js';

const WINDOW_SECONDS = 5;
const BURST_ALLOWANCE = 0.1;

/** Requests per second per category: the service's free tier. */
export type RateLimits = Record<RateCategory, number>;
export const FREE_TIER: RateLimits = { trigger: 60, configuration: 20, global: 30 };
/**
 * The highest tier as svc dev plays it: ten times the free tier. The spec states only the free tier's
 * figures; this one exists so that clients can be measured far from the free tier's limits.
 */
export const TOP_TIER: RateLimits = { trigger: 600, configuration: 200, global: 300 };
const TIERS: Record<string, RateLimits> = { free: FREE_TIER, top: TOP_TIER };

/**
 * `trigger=60,configuration=20,global=30`, any subset, optionally after a tier name (`top`,
 * `free,trigger=5`); `true` or '' means the free tier.
 */
export function parseRateLimitSpec(spec: string | boolean | undefined): RateLimits | undefined {
  if (spec === undefined || spec === false) return undefined;
  let limits = { ...FREE_TIER };
  if (spec === true || spec.trim() === '') return limits;
  const parts = spec.split(',');
  const tier = TIERS[parts[0]!.trim()];
  if (tier) {
    limits = { ...tier };
    parts.shift();
  }
  for (const part of parts) {
    const m = /^\s*(trigger|configuration|global)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m || Number(m[2]) <= 0) {
      throw new ServiceInputError(
        `invalid --rate-limit '${part.trim()}'`,
        'use a tier (free, top) and/or CATEGORY=REQUESTS_PER_SECOND, comma-separated, with categories trigger, configuration and global (e.g. top or trigger=60,global=30)',
      );
    }
    limits[m[1] as RateCategory] = Number(m[2]);
  }
  return limits;
}

interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: RateLimits,
    private readonly clock: Clock,
  ) {}

  take(envId: string, category: RateCategory, cost: number): RateDecision {
    const perSecond = this.limits[category];
    const limit = Math.round(perSecond * WINDOW_SECONDS);
    const capacity = Math.round(limit * (1 + BURST_ALLOWANCE));
    const now = this.clock.now();
    const id = `${envId}\n${category}`;
    const b = this.buckets.get(id) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * perSecond);
    b.at = now;
    const allowed = b.tokens >= cost;
    if (allowed) b.tokens -= cost;
    this.buckets.set(id, b);
    // Seconds until a request of the same cost would pass again (0 while it still does).
    const reset = allowed ? Math.ceil(Math.max(0, cost - b.tokens) / perSecond) : Math.max(1, Math.ceil((cost - b.tokens) / perSecond));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, Math.floor(b.tokens))),
      'RateLimit-Reset': String(reset),
      'RateLimit-Policy': `${limit};w=${WINDOW_SECONDS};burst=${capacity};comment="token bucket";category="${category}";cost="${cost > 1 ? 'bulk' : 'single'}"`,
    };
    if (!allowed) headers['Retry-After'] = String(reset);
    return { allowed, headers };
  }
}

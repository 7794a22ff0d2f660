// Rate limiting by category: headers, 429, bulk cost, off by default, spec parsing.
import { afterAll, describe, expect, it } from 'vitest';
import { FREE_TIER, TOP_TIER, parseRateLimitSpec } from '../../src/server/rate-limit.js';
import { testService } from '../helpers/service.js';

const svc = testService({ rateLimits: { trigger: 2, configuration: 1, global: 30 } });
afterAll(() => svc.close());

describe('rate limits', () => {
  it('sends RateLimit-* headers on every response, with the category in the policy', async () => {
    const r = await svc.request('GET', '/v1/integrations/active');
    expect(r.headers['ratelimit-limit']).toBe('150');
    expect(r.headers['ratelimit-remaining']).toBe('164');
    expect(r.headers['ratelimit-policy']).toBe('150;w=5;burst=165;comment="token bucket";category="global";cost="single"');
    expect(r.headers['ratelimit-reset']).toBeDefined();
    const err = await svc.request('GET', '/v2/workflows/nope');
    expect(err.status).toBe(404);
    expect(err.headers['ratelimit-policy']).toContain('category="configuration"');
  });

  it('429 "API rate limit exceeded" with Retry-After once the bucket is empty; refills with time', async () => {
    // configuration: 1/s → 5 per window, burst 6 (one already used above).
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await svc.request('GET', '/v2/subscribers')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await svc.request('GET', '/v2/subscribers');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, message: 'API rate limit exceeded' });
    expect(limited.headers['retry-after']).toBe('1');
    svc.clock.advance(1000);
    expect((await svc.request('GET', '/v2/subscribers')).status).toBe(200);
  });

  it('bulk triggers cost 100 tokens', async () => {
    const small = testService({ rateLimits: { trigger: 30, configuration: 20, global: 30 } });
    try {
      const bulk = () => small.request('POST', '/v1/events/trigger/bulk', { body: { events: [{ name: 'otp', to: 'ada' }] } });
      const first = await bulk();
      expect(first.status).toBe(201);
      expect(first.headers['ratelimit-remaining']).toBe('65');
      expect(first.headers['ratelimit-policy']).toContain('cost="bulk"');
      expect((await bulk()).status).toBe(429);
    } finally {
      await small.close();
    }
  });

  it('a bulk call costs 100 whatever its events; Retry-After is when a call of that cost passes again', async () => {
    const small = testService({ rateLimits: { trigger: 30, configuration: 20, global: 30 } });
    try {
      const events = Array.from({ length: 50 }, (_, i) => ({ name: 'otp', to: `u${i}` }));
      const bulk = () => small.request('POST', '/v1/events/trigger/bulk', { body: { events } });
      expect((await bulk()).headers['ratelimit-remaining']).toBe('65'); // 165 - 100
      const refused = await bulk();
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('2'); // 35 tokens short at 30/s
      expect(refused.headers['ratelimit-policy']).toContain('burst=165');
      // A trigger of the same category still passes: the bucket holds 65.
      expect((await small.request('POST', '/v1/events/trigger', { body: { name: 'otp', to: 'ada' } })).headers['ratelimit-remaining']).toBe('64');
      small.clock.advance(2000);
      expect((await bulk()).status).not.toBe(429);
    } finally {
      await small.close();
    }
  });

  it('is off by default', async () => {
    const plain = testService();
    try {
      expect((await plain.request('GET', '/v1/integrations/active')).headers['ratelimit-limit']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  it('parses --rate-limit specs', () => {
    expect(parseRateLimitSpec(undefined)).toBeUndefined();
    expect(parseRateLimitSpec(true)).toEqual(FREE_TIER);
    expect(parseRateLimitSpec('trigger=5,global=1.5')).toEqual({ ...FREE_TIER, trigger: 5, global: 1.5 });
    expect(() => parseRateLimitSpec('bogus=1')).toThrow(/invalid --rate-limit 'bogus=1'/);
    expect(parseRateLimitSpec('top')).toEqual(TOP_TIER);
    expect(parseRateLimitSpec('free,trigger=2')).toEqual({ ...FREE_TIER, trigger: 2 });
    expect(() => parseRateLimitSpec('gold')).toThrow(/invalid --rate-limit 'gold'/);
  });
});

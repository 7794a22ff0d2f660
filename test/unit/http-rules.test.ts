import { describe, expect, test } from 'vitest';
import { describeErrorBody, parseRetryAfter, retryDelay, shouldRetryStatus, unwrapEnvelope } from '../../src/api/http-rules.js';
import { buildQuery, idempotencyKeyFor, joinUrl } from '../../src/api/request.js';

describe('retry decisions', () => {
  test.each([408, 429, 500, 502, 503, 504])('%i is retried', (s) => expect(shouldRetryStatus(s, {})).toBe(true));
  test.each([400, 401, 403, 404, 405, 413, 422, 501])('%i is not', (s) => expect(shouldRetryStatus(s, {})).toBe(false));
  test('409 only with Retry-After and an idempotency key (the first request is still running)', () => {
    expect(shouldRetryStatus(409, {})).toBe(false);
    expect(shouldRetryStatus(409, { idempotencyKey: 'k' })).toBe(false);
    expect(shouldRetryStatus(409, { idempotencyKey: 'k', retryAfter: 1000 })).toBe(true);
  });
  test('backoff grows exponentially with jitter inside [window/2, window], capped', () => {
    expect(retryDelay(1, () => 0)).toBe(150);
    expect(retryDelay(1, () => 1)).toBe(300);
    expect(retryDelay(3, () => 0.5)).toBe(900);
    expect(retryDelay(20, () => 1)).toBe(20_000);
  });
  test('Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('envelopes and error bodies', () => {
  test('only a body whose single key is data is unwrapped', () => {
    expect(unwrapEnvelope({ data: { a: 1 } })).toEqual({ a: 1 });
    expect(unwrapEnvelope({ data: [], next: null })).toEqual({ data: [], next: null });
    expect(unwrapEnvelope([1])).toEqual([1]);
    expect(unwrapEnvelope(undefined)).toBeUndefined();
  });
  test('validation errors name their fields', () => {
    expect(
      describeErrorBody(
        { statusCode: 422, message: 'Validation Error', errors: { general: { messages: ['id must be longer than or equal to 1 characters'] } } },
        422,
      ),
    ).toBe('Validation Error (id must be longer than or equal to 1 characters)');
    expect(
      describeErrorBody(
        { statusCode: 422, message: 'Validation failed', errors: { notificationId: { messages: ['must be a mongodb id'], value: 'abc' } } },
        422,
      ),
    ).toBe('Validation failed (notificationId: must be a mongodb id)');
    expect(
      describeErrorBody(
        { statusCode: 400, type: 'PAYLOAD_VALIDATION_ERROR', message: 'Payload validation failed', errors: [{ field: 'name', message: 'is required' }] },
        400,
      ),
    ).toBe('Payload validation failed (name: is required)');
    expect(describeErrorBody('<html>\nBad gateway\n</html>', 502)).toBe('Bad Gateway: <html> Bad gateway </html>');
    expect(describeErrorBody(undefined, 503)).toBe('Service Unavailable');
  });
});

describe('requests', () => {
  test('arrays become repeated keys; undefined is left out', () => {
    expect(buildQuery({ channels: ['email', 'sms'], page: 0, includeCursor: true, x: undefined })).toBe(
      '?channels=email&channels=sms&page=0&includeCursor=true',
    );
    expect(buildQuery({})).toBe('');
  });
  test('joinUrl keeps a base path', () => {
    expect(joinUrl('https://h.example/api/', '/v1/x')).toBe('https://h.example/api/v1/x');
  });
  test('idempotency keys for POST/PATCH/PUT only, the given one kept', () => {
    expect(idempotencyKeyFor({ method: 'GET' })).toBeUndefined();
    expect(idempotencyKeyFor({ method: 'DELETE' })).toBeUndefined();
    expect(idempotencyKeyFor({ method: 'post' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(idempotencyKeyFor({ method: 'PATCH', idempotencyKey: 'mine' })).toBe('mine');
  });
});

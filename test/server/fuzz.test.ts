// Random bodies, queries and path parameters to every route of the operation table: the answer is
// always a 2xx or a 4xx in the service's error shape, never a 500 or a stack trace.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { operationList } from '../../src/api/operations.js';
import { ErrorBody } from '../../src/api/schemas/common.js';
import { testService, TEST_KEY } from '../helpers/service.js';

const errors: unknown[] = [];
const svc = testService({ onInternalError: (e) => errors.push(e) });
afterAll(() => svc.close());

const json = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ name: fc.constantFrom('welcome', 'otp', ''), to: fc.jsonValue({ maxDepth: 2 }), payload: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ messageId: fc.jsonValue(), markAs: fc.constantFrom('read', 'seen', 'x'), type: fc.string(), id: fc.string() }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })),
);
const queryValue = fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String), fc.constantFrom('true', 'ASC', 'in_app', 'a:b', ''));
const query = fc.dictionary(
  fc.constantFrom('limit', 'page', 'after', 'before', 'includeCursor', 'orderBy', 'orderDirection', 'channels', 'contextKeys', 'email', 'x'),
  fc.oneof(queryValue, fc.array(queryValue, { maxLength: 3 })),
);
const param = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom('aaaaaaaaaaaaaaaaaaaaaaaa', 'welcome', 'ada'));

describe('fuzz', () => {
  it.each(operationList.map((op) => [op.method, op.path, op]))('%s %s never answers 5xx', async (_m, _p, op) => {
    await fc.assert(
      fc.asyncProperty(json, query, param, async (body, q, p) => {
        const url = op.path.replace(/\{\w+\}/g, () => encodeURIComponent(p));
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(q)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
        const res = await svc.app.inject({
          method: op.method,
          url: `${url}?${qs}`,
          headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(res.statusCode, `${op.method} ${url}?${qs} ${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) ErrorBody.parse(res.json());
      }),
      { numRuns: 60, seed: 42 },
    );
    expect(errors).toEqual([]);
  });
});

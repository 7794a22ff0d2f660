// Contexts after their creation: list (cursor envelope, id and search filters), retrieve, replace the
// data, delete; each unknown type/id a 404 in the service's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';

// The demo seed has tenant:acme, the oldest context.
const svc = testService();
afterAll(() => svc.close());

beforeAll(async () => {
  for (const [type, id] of [
    ['tenant', 'umbrella'],
    ['tenant', 'globex'],
    ['workspace', 'umbrella-eu'],
    ['app', 'mobile'],
  ]) {
    svc.clock.advance(1000);
    const r = await svc.request('POST', '/v2/contexts', { body: { type, id, data: { name: id } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
});

const keys = (body: { data: { type: string; id: string }[] }) => body.data.map((c) => `${c.type}:${c.id}`);

describe('list contexts', () => {
  it('answers the cursor envelope, newest first by default', async () => {
    const r = await svc.request('GET', '/v2/contexts');
    expect(r.status).toBe(200);
    const page = operations.listContexts.response.parse(r.body);
    expect(keys(page)).toEqual(['app:mobile', 'workspace:umbrella-eu', 'tenant:globex', 'tenant:umbrella', 'tenant:acme']);
    expect(page).toMatchObject({ next: null, previous: null, totalCount: 5, totalCountCapped: false });
  });

  it('pages with limit and after, in either direction', async () => {
    const first = (await svc.request('GET', '/v2/contexts?limit=2&orderDirection=ASC')).body;
    expect(keys(first)).toEqual(['tenant:acme', 'tenant:umbrella']);
    expect(first).toMatchObject({ next: expect.any(String), previous: null });
    const second = (await svc.request('GET', `/v2/contexts?limit=2&orderDirection=ASC&after=${first.next}`)).body;
    expect(keys(second)).toEqual(['tenant:globex', 'workspace:umbrella-eu']);
    const third = (await svc.request('GET', `/v2/contexts?limit=2&orderDirection=ASC&after=${second.next}`)).body;
    expect(keys(third)).toEqual(['app:mobile']);
    expect(third).toMatchObject({ next: null, previous: expect.any(String), totalCount: 5 });
    const back = (await svc.request('GET', `/v2/contexts?limit=2&orderDirection=ASC&before=${third.previous}`)).body;
    expect(keys(back)).toEqual(keys(second));
  });

  it('filters by exact id and by a part of the type or the id', async () => {
    expect(keys((await svc.request('GET', '/v2/contexts?id=umbrella')).body)).toEqual(['tenant:umbrella']);
    expect(keys((await svc.request('GET', '/v2/contexts?search=umbrella')).body)).toEqual(['workspace:umbrella-eu', 'tenant:umbrella']);
    expect(keys((await svc.request('GET', '/v2/contexts?search=ten')).body)).toEqual(['tenant:globex', 'tenant:umbrella', 'tenant:acme']);
    // LIKE wildcards in the search text are literal.
    expect((await svc.request('GET', '/v2/contexts?search=%25')).body).toMatchObject({ data: [], totalCount: 0 });
  });

  it('refuses a bad limit naming the field', async () => {
    const r = await svc.request('GET', '/v2/contexts?limit=0');
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('limit');
  });
});

describe('one context', () => {
  it('retrieves it in a data envelope', async () => {
    const r = await svc.request('GET', '/v2/contexts/tenant/umbrella');
    expect(r.status).toBe(200);
    expect(operations.getContext.response.parse(r.body.data)).toMatchObject({ type: 'tenant', id: 'umbrella', data: { name: 'umbrella' } });
  });

  it('replaces its data on PATCH and keeps createdAt', async () => {
    const before = (await svc.request('GET', '/v2/contexts/tenant/globex')).body.data;
    svc.clock.advance(5000);
    const r = await svc.request('PATCH', '/v2/contexts/tenant/globex', { body: { data: { plan: 'pro' } } });
    expect(r.status).toBe(200);
    const after = operations.updateContext.response.parse(r.body.data);
    expect(after).toMatchObject({ type: 'tenant', id: 'globex', data: { plan: 'pro' }, createdAt: before.createdAt });
    expect(after.updatedAt > before.updatedAt).toBe(true);
    expect((await svc.request('GET', '/v2/contexts/tenant/globex')).body.data.data).toEqual({ plan: 'pro' });
  });

  it('PATCH without data is a 422 naming the field', async () => {
    const r = await svc.request('PATCH', '/v2/contexts/tenant/globex', { body: {} });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toContain('data');
  });

  it('deletes it with 204; then it is gone', async () => {
    await svc.request('POST', '/v2/contexts', { body: { type: 'tmp', id: 'gone' } });
    const r = await svc.request('DELETE', '/v2/contexts/tmp/gone');
    expect(r.status).toBe(204);
    expect(r.body).toBeUndefined();
    expect((await svc.request('GET', '/v2/contexts/tmp/gone')).status).toBe(404);
    // The key is free again.
    expect((await svc.request('POST', '/v2/contexts', { body: { type: 'tmp', id: 'gone' } })).status).toBe(201);
  });

  it('an unknown type/id is a 404 in the service words, for get, update and delete', async () => {
    const message = "Context with type 'tenant' and id 'nope' not found";
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { data: {} }],
      ['DELETE', undefined],
    ] as const) {
      const r = await svc.request(method, '/v2/contexts/tenant/nope', body ? { body } : {});
      expect(r.status, method).toBe(404);
      expect(r.body, method).toMatchObject({ statusCode: 404, message });
    }
  });
});

// Idempotency keys: replay, conflicts, limits, and persistence across a restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalService } from '../../src/server/index.js';
import { testService, TEST_KEY } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

const post = (key: string, body: unknown, url = '/v2/contexts') => svc.request('POST', url, { body, headers: { 'idempotency-key': key } });

describe('idempotency keys', () => {
  it('replays the first answer with Idempotency-Key and Idempotency-Replay headers', async () => {
    const first = await post('k1', { type: 'team', id: 'red' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-key']).toBe('k1');
    expect(first.headers['idempotency-replay']).toBeUndefined();
    const again = await post('k1', { type: 'team', id: 'red' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotency-replay']).toBe('true');
    // Without the key the same body is a duplicate.
    expect((await svc.request('POST', '/v2/contexts', { body: { type: 'team', id: 'red' } })).status).toBe(409);
  });

  it('caches 4xx answers too, and a trigger is not run twice', async () => {
    const bad = await post('k2', { type: '' });
    const again = await post('k2', { type: '' });
    expect([bad.status, again.status]).toEqual([422, 422]);
    expect(again.headers['idempotency-replay']).toBe('true');
    const t1 = await post('k3', { name: 'otp', to: 'ada' }, '/v1/events/trigger');
    const t2 = await post('k3', { name: 'otp', to: 'ada' }, '/v1/events/trigger');
    expect(t2.body.data.transactionId).toBe(t1.body.data.transactionId);
    expect((await svc.request('GET', `/v1/notifications?transactionId=${t1.body.data.transactionId}`)).body.data).toHaveLength(1);
  });

  it('the same key with another body → 422', async () => {
    await post('k4', { type: 'team', id: 'blue' });
    const r = await post('k4', { type: 'team', id: 'green' });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Request with key "k4" is being reused for a different body');
  });

  it('while the first request is in progress → 409 with Retry-After: 1', async () => {
    svc.store.idempotency.begin(svc.environment.orgId, 'k5', (await import('../../src/server/idempotency.js')).bodyHash({ type: 'a', id: 'b' }));
    const r = await post('k5', { type: 'a', id: 'b' });
    expect(r.status).toBe(409);
    expect(r.headers['retry-after']).toBe('1');
  });

  it('an empty key is no key: unrelated requests that send one are each answered on their own', async () => {
    const first = await post('', { type: 'team', id: 'empty-1' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-key']).toBeUndefined();
    const other = await post('', { type: 'team', id: 'empty-2' });
    expect(other.status).toBe(201);
    expect(other.body.data.id).toBe('empty-2');
    // Nothing was kept for it: the same body again is a second request (a duplicate), not a replay.
    const again = await post('', { type: 'team', id: 'empty-1' });
    expect(again.status).toBe(409);
    expect(again.headers['idempotency-replay']).toBeUndefined();
  });

  it('a key over 255 characters → 400; GET ignores keys; keys expire after 24 h', async () => {
    expect((await post('x'.repeat(256), { type: 'a', id: 'long' })).status).toBe(400);
    const g = await svc.request('GET', '/v1/integrations/active', { headers: { 'idempotency-key': 'x'.repeat(300) } });
    expect(g.status).toBe(200);
    await post('k6', { type: 'exp', id: '1' });
    svc.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect((await post('k6', { type: 'exp', id: '1' })).status).toBe(409);
  });

  it('replays survive a restart of a file store', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-idem-')), 'store.sqlite');
    const req = {
      method: 'POST' as const,
      url: '/v2/contexts',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'idempotency-key': 'persist', 'content-type': 'application/json' },
      payload: '{"type":"p","id":"1"}',
    };
    const a = createLocalService({ data: file, apiKey: TEST_KEY });
    const first = await a.app.inject(req);
    await a.close();
    const b = createLocalService({ data: file, apiKey: TEST_KEY });
    const second = await b.app.inject(req);
    await b.close();
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotency-replay']).toBe('true');
    expect(second.body).toBe(first.body);
  });

  it('a replay of an answer still in an uncommitted batch waits for that COMMIT, as the original does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-idem-order-')), 'store.sqlite');
    const svc2 = createLocalService({ data: file, apiKey: TEST_KEY });
    const req = {
      method: 'POST' as const,
      url: '/v1/events/trigger',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'idempotency-key': 'same', 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'otp', to: 'ada', payload: { code: '1' } }),
    };
    const order: string[] = [];
    const { store } = svc2;
    // A slow disk: the first batch's COMMIT comes 50 ms late, and B (same key, same body) is sent
    // as soon as A's handler has run inside that batch. Every answer sent before the COMMIT is one a
    // crash in between would have taken back.
    const batch = store.groupCommit;
    const flush = batch.flush.bind(batch);
    let slowed = false;
    batch.flush = () => {
      if (!batch.open) return flush();
      if (!slowed) {
        slowed = true;
        setTimeout(() => batch.flush(), 50);
        return;
      }
      order.push('COMMIT');
      flush();
    };
    const grouped = store.grouped.bind(store);
    let b: Promise<unknown> | undefined;
    store.grouped = ((fn: () => unknown) => {
      const r = grouped(fn);
      b ??= svc2.app.inject(req).then((res) => {
        order.push(`B ${res.statusCode}${res.headers['idempotency-replay'] === 'true' ? ' replay' : ''}`);
      });
      return r;
    }) as typeof store.grouped;
    try {
      const a = await svc2.app.inject(req);
      order.push(`A ${a.statusCode}`);
      await b;
      expect(order[0]).toBe('COMMIT');
      expect(order.slice(1).sort()).toEqual(['A 201', 'B 201 replay']);
    } finally {
      await svc2.close();
    }
  });
});

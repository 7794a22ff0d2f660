// Contexts, channel connections and channel endpoints.
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { testService } from '../helpers/service.js';

const svc = testService();
afterAll(() => svc.close());

describe('contexts', () => {
  it('creates with data defaulting to {}; a duplicate → 409', async () => {
    const r = await svc.request('POST', '/v2/contexts', { body: { type: 'workspace', id: 'w-1' } });
    expect(r.status).toBe(201);
    expect(operations.createContext.response.parse(r.body.data)).toMatchObject({ type: 'workspace', id: 'w-1', data: {} });
    const dup = await svc.request('POST', '/v2/contexts', { body: { type: 'workspace', id: 'w-1', data: { a: 1 } } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'Conflict', message: "Context with type 'workspace' and id 'w-1' already exists" });
    expect((await svc.request('POST', '/v2/contexts', { body: { type: 'x'.repeat(101), id: 'a' } })).status).toBe(422);
  });
});

describe('channel connections', () => {
  const base = { integrationIdentifier: 'slack', workspace: { id: 'T1', name: 'Acme' }, auth: { accessToken: 'xoxb-1' } };
  const create = (body: unknown) => svc.request('POST', '/v1/channel-connections', { body });

  it('creates a subscriber connection with channel and provider from the integration', async () => {
    const r = await create({ ...base, subscriberId: 'ada' });
    expect(r.status).toBe(201);
    const c = operations.createChannelConnection.response.parse(r.body.data);
    expect(c).toMatchObject({ channel: 'chat', providerId: 'slack', subscriberId: 'ada', contextKeys: [] });
    expect(c.identifier).toMatch(/^chconn_[a-z0-9]{12}$/);
    const dup = await create({ ...base, subscriberId: 'ada' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain(c.identifier);
  });

  it('shared mode needs a context and stores no subscriber; neither subscriber nor context → 400', async () => {
    expect((await create({ ...base, connectionMode: 'shared' })).status).toBe(400);
    expect((await create(base)).status).toBe(400);
    const shared = await create({ ...base, connectionMode: 'shared', subscriberId: 'ada', context: { tenant: 'acme' } });
    expect(shared.status).toBe(201);
    expect(shared.body.data).toMatchObject({ subscriberId: null, contextKeys: ['tenant:acme'] });
    // Same integration and context set, order-insensitive → 409.
    expect((await create({ ...base, connectionMode: 'shared', context: { tenant: 'acme' } })).status).toBe(409);
  });

  it('a bad context type → 422 naming it, and no connection is made', async () => {
    const r = await create({ ...base, subscriberId: 'ada', identifier: 'conn-bad-type', context: { 'bad type': 'x' } });
    expect(r.status).toBe(422);
    expect(r.body.errors['context.bad type']).toEqual({ messages: ['context type must contain only letters, digits, "_" and "-"'], value: 'bad type' });
    expect((await svc.request('GET', '/v1/channel-connections/conn-bad-type')).status).toBe(404);
    const endpoint = await svc.request('POST', '/v1/channel-endpoints', {
      body: { subscriberId: 'ada', integrationIdentifier: 'slack', type: 'slack_user', endpoint: { userId: 'U9' }, context: { ['T'.repeat(101)]: 'x' } },
    });
    expect(endpoint.status).toBe(422);
    expect(Object.keys(endpoint.body.errors)).toEqual([`context.${'T'.repeat(101)}`]);
  });

  it('unknown integration or subscriber → 404', async () => {
    expect((await create({ ...base, integrationIdentifier: 'nope', subscriberId: 'ada' })).status).toBe(404);
    expect((await create({ ...base, subscriberId: 'ghost' })).status).toBe(404);
  });

  it('get, update (replaces workspace and auth), list, delete', async () => {
    const c = (await create({ ...base, subscriberId: 'grace', identifier: 'conn-grace' })).body.data;
    expect((await svc.request('GET', '/v1/channel-connections/conn-grace')).body.data).toEqual(c);
    const up = await svc.request('PATCH', '/v1/channel-connections/conn-grace', { body: { workspace: { id: 'T2' }, auth: { accessToken: 'new' } } });
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ workspace: { id: 'T2' }, auth: { accessToken: 'new' } });
    expect((await svc.request('PATCH', '/v1/channel-connections/conn-grace', { body: { workspace: { id: 'T2' } } })).status).toBe(422);
    const list = operations.listChannelConnections.response.parse((await svc.request('GET', '/v1/channel-connections?subscriberId=grace')).body);
    expect(list.data.map((x) => x.identifier)).toEqual(['conn-grace']);
    expect((await svc.request('DELETE', '/v1/channel-connections/conn-grace')).status).toBe(204);
    const gone = await svc.request('GET', '/v1/channel-connections/conn-grace');
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("Channel connection with identifier 'conn-grace' not found");
  });
});

describe('channel endpoints', () => {
  const create = (body: Record<string, unknown>) =>
    svc.request('POST', '/v1/channel-endpoints', { body: { subscriberId: 'ada', integrationIdentifier: 'slack', ...body } });

  it('validates the endpoint shape of each type', async () => {
    const ok = await create({ type: 'slack_channel', endpoint: { channelId: 'C1' } });
    expect(ok.status).toBe(201);
    const e = operations.createChannelEndpoint.response.parse(ok.body.data);
    expect(e.identifier).toMatch(/^chendp_[a-z0-9]{12}$/);
    expect(e).toMatchObject({ channel: 'chat', providerId: 'slack', type: 'slack_channel' });
    const bad = await create({ type: 'phone', endpoint: { phoneNumber: '0123' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['endpoint.phoneNumber']);
    expect((await create({ type: 'ms_teams_channel', endpoint: { channelId: 'C' } })).status).toBe(422);
    expect((await create({ type: 'webhook', endpoint: { url: 'https://example.com/h' }, subscriberId: 'ghost' })).status).toBe(404);
  });

  it('get, update within the type, delete', async () => {
    await create({ identifier: 'ep-1', type: 'webhook', endpoint: { url: 'https://example.com/a' } });
    const up = await svc.request('PATCH', '/v1/channel-endpoints/ep-1', { body: { endpoint: { url: 'https://example.com/b', channel: '#x' } } });
    expect(up.body.data.endpoint).toEqual({ url: 'https://example.com/b', channel: '#x' });
    expect((await svc.request('PATCH', '/v1/channel-endpoints/ep-1', { body: { endpoint: { channelId: 'C' } } })).status).toBe(422);
    expect((await svc.request('GET', '/v1/channel-endpoints/ep-1')).body.data.identifier).toBe('ep-1');
    expect((await svc.request('DELETE', '/v1/channel-endpoints/ep-1')).status).toBe(204);
    expect((await svc.request('DELETE', '/v1/channel-endpoints/ep-1')).status).toBe(404);
  });

  it('lists with exact context-key sets and cursors', async () => {
    await create({ identifier: 'ctx-ab', type: 'slack_user', endpoint: { userId: 'U1' }, context: { tenant: 'acme', app: 'web' } });
    svc.clock.advance(1000);
    await create({ identifier: 'ctx-a', type: 'slack_user', endpoint: { userId: 'U2' }, context: { tenant: 'acme' } });
    const q = async (s: string) => operations.listChannelEndpoints.response.parse((await svc.request('GET', `/v1/channel-endpoints${s}`)).body);
    expect((await q('?contextKeys=app:web&contextKeys=tenant:acme')).data.map((e) => e.identifier)).toEqual(['ctx-ab']);
    expect((await q('?contextKeys=tenant:acme')).data.map((e) => e.identifier)).toEqual(['ctx-a']);
    const p1 = await q('?limit=1&orderDirection=ASC');
    const p2 = await q(`?limit=1&orderDirection=ASC&after=${p1.next}`);
    expect(p2.data[0]!.identifier).not.toBe(p1.data[0]!.identifier);
    expect(p2.previous).not.toBeNull();
    expect((await svc.request('GET', '/v1/channel-endpoints?limit=101')).status).toBe(422);
  });

  it("a chat step delivers to the subscriber's endpoint when there is no webhook credential", async () => {
    await svc.request('POST', '/v1/channel-endpoints', {
      body: { subscriberId: 'alan', integrationIdentifier: 'slack', type: 'webhook', endpoint: { url: 'https://example.com/alan' } },
    });
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'incident', to: 'alan', transactionId: 'alan-chat' } });
    await svc.runner.idle();
    const [m] = (await svc.request('GET', '/v1/messages?channel=chat&transactionId=alan-chat')).body.data;
    expect(m.directWebhookUrl).toBe('https://example.com/alan');
  });
});

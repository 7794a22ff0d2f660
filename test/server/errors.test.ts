// Authentication and the one error shape: 401 bodies, 404, 422 naming fields, 413, 415, bad JSON.
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/schemas/common.js';
import { DISCARD_LIMIT } from '../../src/server/app.js';
import { testService, TEST_KEY } from '../helpers/service.js';

const svc = testService({ bodyLimit: 2048 });
afterAll(() => svc.close());

const expectErrorShape = (body: any, status: number, path: string) => {
  ErrorBody.parse(body);
  expect(body.statusCode).toBe(status);
  expect(body.path).toBe(path);
  expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
};

describe('authentication', () => {
  it.each([
    ['no header', undefined, 'Missing authorization header'],
    ['unknown scheme', 'Basic abc', 'Invalid authentication scheme: "Basic"'],
    ['empty key', 'ApiKey ', 'Unauthorized'],
    ['wrong key', 'ApiKey sk_nope', 'API Key not found'],
  ])('%s → 401 %s', async (_, header, message) => {
    const r = await svc.request('GET', '/v1/integrations/active', { key: null, headers: header === undefined ? {} : { authorization: header } });
    expect(r.status).toBe(401);
    expectErrorShape(r.body, 401, '/v1/integrations/active');
    expect(r.body.message).toBe(message);
    expect(r.body.error).toBe('Unauthorized');
    expect(r.body.ctx).toEqual({ error: 'Unauthorized', statusCode: 401 });
  });

  it('accepts the key and never echoes it', async () => {
    const r = await svc.request('GET', '/v1/integrations/active');
    expect(r.status).toBe(200);
    const bad = await svc.request('GET', '/v1/integrations/active', { key: `${TEST_KEY}x` });
    expect(JSON.stringify(bad.body)).not.toContain(TEST_KEY);
  });
});

describe('error shape', () => {
  it('unknown route → 404 with ctx members copied to the top level', async () => {
    const r = await svc.request('GET', '/v1/nothing-here?x=1');
    expect(r.status).toBe(404);
    expectErrorShape(r.body, 404, '/v1/nothing-here?x=1');
    expect(r.body).toMatchObject({ error: 'Not Found', message: 'Cannot GET /v1/nothing-here', ctx: { error: 'Not Found', statusCode: 404 } });
  });

  it('invalid body → 422 Validation Error naming each field with its value', async () => {
    const r = await svc.request('POST', '/v2/contexts', { body: { type: 'bad type!', id: '' } });
    expect(r.status).toBe(422);
    expectErrorShape(r.body, 422, '/v2/contexts');
    expect(r.body.message).toBe('Validation Error');
    expect(r.body.errors.type.value).toBe('bad type!');
    expect(r.body.errors.type.messages[0]).toMatch(/^type must contain only/);
    expect(r.body.errors.id).toEqual({ messages: ['id must be longer than or equal to 1 characters'], value: '' });
  });

  it('a context id over 100 characters → "id must be shorter than or equal to 100 characters"', async () => {
    const id = 'x'.repeat(101);
    const r = await svc.request('POST', '/v2/contexts', { body: { type: 'tenant', id } });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({ id: { messages: ['id must be shorter than or equal to 100 characters'], value: id } });
  });

  it.each([
    ['a query number', 'GET', '/v1/notifications?limit=abc', undefined, 'limit', 'limit must be a number conforming to the specified constraints'],
    ['a string', 'POST', '/v1/events/trigger', { name: 5, to: 'ada' }, 'name', 'name must be a string'],
    ['a boolean', 'PATCH', '/v1/subscribers/ada/online-status', { isOnline: 'yes' }, 'isOnline', 'isOnline must be a boolean value'],
    ['an object', 'POST', '/v1/events/trigger', { name: 'welcome', to: 'ada', payload: 'x' }, 'payload', 'payload must be an object'],
    ['an array', 'POST', '/v2/workflows', { name: 'W', workflowId: 'w', steps: 'x' }, 'steps', 'steps must be an array'],
    [
      'an enum',
      'POST',
      '/v1/subscribers/ada/messages/mark-as',
      { messageId: 'a'.repeat(24), markAs: 'bogus' },
      'markAs',
      'markAs must be one of the following values: read, seen, unread, unseen',
    ],
    [
      'more than 100 recipients',
      'POST',
      '/v1/events/trigger',
      { name: 'welcome', to: Array.from({ length: 101 }, (_, i) => `u${i}`) },
      'to',
      'to must contain no more than 100 elements',
    ],
    [
      "an endpoint's missing field",
      'POST',
      '/v1/channel-endpoints',
      { subscriberId: 'ada', integrationIdentifier: 'slack', type: 'slack_channel', endpoint: { userId: 'U1' } },
      'endpoint.channelId',
      'endpoint.channelId is required',
    ],
  ])("%s is refused in the service's validator's words", async (_, method, url, body, field, message) => {
    const r = await svc.request(method, url, body === undefined ? {} : { body });
    expect(r.status).toBe(422);
    expect(r.body.errors[field].messages).toEqual([message]);
  });

  it('missing required field → "is required" without a value', async () => {
    const r = await svc.request('POST', '/v1/events/trigger', { body: { to: 'ada' } });
    expect(r.status).toBe(422);
    expect(r.body.errors.name).toEqual({ messages: ['name is required'] });
  });

  it('a union names the field of the form that came closest', async () => {
    const r = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: [{ firstName: 'x' }] } });
    expect(r.status).toBe(422);
    expect(Object.keys(r.body.errors)).toContain('to.0.subscriberId');
  });

  it('invalid query → 422 naming the parameter', async () => {
    const r = await svc.request('GET', '/v1/notifications?limit=500');
    expect(r.status).toBe(422);
    expect(r.body.errors.limit).toEqual({ messages: ['limit must not be greater than 50'], value: '500' });
  });

  it('invalid path parameter → 422 "Validation failed for ..."', async () => {
    const r = await svc.request('GET', '/v1/notifications/abc');
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Validation failed for getEvent: notificationId: notificationId must be a mongodb id');
    expect(r.body.errors.notificationId).toEqual({ messages: ['notificationId must be a mongodb id'], value: 'abc' });
  });

  it('a malformed message id in a body → 422 "messageId must be a mongodb id"', async () => {
    const one = await svc.request('POST', '/v1/subscribers/ada/messages/mark-as', { body: { messageId: 'abc', markAs: 'read' } });
    expect(one.status).toBe(422);
    expect(one.body.errors.messageId).toEqual({ messages: ['messageId must be a mongodb id'], value: 'abc' });
    const many = await svc.request('POST', '/v1/subscribers/ada/messages/mark-as', { body: { messageId: ['abc'], markAs: 'read' } });
    expect(many.body.errors['messageId.0'].messages).toEqual(['messageId.0 must be a mongodb id']);
  });

  it('body over the limit → 413', async () => {
    const r = await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada', payload: { big: 'x'.repeat(4000) } } });
    expect(r.status).toBe(413);
    expectErrorShape(r.body, 413, '/v1/events/trigger');
  });

  it('non-JSON body → 415, malformed JSON → 400', async () => {
    const text = await svc.app.inject({
      method: 'POST',
      url: '/v2/contexts',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'text/plain' },
      payload: 'type=a',
    });
    expect(text.statusCode).toBe(415);
    expectErrorShape(text.json(), 415, '/v2/contexts');
    const bad = await svc.app.inject({
      method: 'POST',
      url: '/v2/contexts',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
      payload: '{"type": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/not valid JSON/);
  });

  it('a prototype-polluting body is refused, not merged', async () => {
    const r = await svc.app.inject({
      method: 'POST',
      url: '/v2/contexts',
      headers: { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' },
      payload: '{"type":"t","id":"x","__proto__":{"polluted":true}}',
    });
    expect(r.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('a body over the limit', () => {
  it('is read and dropped up to 32 MB before the 413 (the connection stays usable); declared larger, the 413 closes it', async () => {
    const headers = { authorization: `ApiKey ${TEST_KEY}`, 'content-type': 'application/json' };
    const over = await svc.app.inject({ method: 'POST', url: '/v1/events/trigger', headers, payload: 'x'.repeat(64 * 1024) });
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe('Request body is larger than 2048 bytes');
    expect(over.headers.connection).toBeUndefined();
    const huge = await svc.app.inject({
      method: 'POST',
      url: '/v1/events/trigger',
      headers: { ...headers, 'content-length': String(DISCARD_LIMIT + 1) },
      payload: 'x'.repeat(4096),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.headers.connection).toBe('close');
  });
});

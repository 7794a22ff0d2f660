// svc subscribers get: the request it sends, and an id it refuses before sending.
import { expect, test } from 'vitest';
import { fixture, refusesInput, sendsRequest, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const subscriber = fixture.subscriber({ _id: '6761f0c2a3b4c5d6e7f80912', subscriberId: 'user 1', firstName: 'Ada', email: 'ada@example.com' });

sendsRequest(svc, [
  // The id is one path segment, escaped: a space or a slash never changes the route.
  ['subscribers get', { argv: ['subscribers', 'get', 'user 1'], method: 'GET', path: '/v2/subscribers/user%201', answer: { data: subscriber } }],
]);

refusesInput(svc, [[['subscribers', 'get', ''], 'SUBSCRIBER_ID']]);

test('prints the subscriber as the service answered it (envelope unwrapped)', async () => {
  svc.stub.on('GET', '/v2/subscribers/user%201', { body: { data: subscriber } });
  const r = await runSvc(['subscribers', 'get', 'user 1', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual(subscriber);
});

test('an unknown subscriber is exit 5 with the service message', async () => {
  svc.stub.on('GET', '/v2/subscribers/ghost', { status: 404, body: { statusCode: 404, message: 'Subscriber: ghost was not found' } });
  const r = await runSvc(['subscribers', 'get', 'ghost'], { env: svc.env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain('Subscriber: ghost was not found');
});

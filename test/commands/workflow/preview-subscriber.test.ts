// svc workflow preview --subscriber ID: the id, like every other --subscriber, names a stored subscriber
// whose fields fill the preview's `subscriber`; a JSON object is still taken as the fields themselves.
import { expect, test } from 'vitest';
import { fixture, stubbedService } from '../../helpers/command-test.js';
import { runSvc } from '../../helpers/run.js';

const svc = stubbedService();
const answer = { status: 201, body: { data: { previewPayloadExample: {}, result: { type: 'in_app', preview: { body: 'Hi Ada' } } } } };

test("an id: the stored subscriber's fields are sent", async () => {
  const stored = fixture.subscriber({
    subscriberId: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: null,
    locale: 'en_GB',
    data: { plan: 'pro' },
    channels: [],
  });
  svc.stub.on('GET', '/v2/subscribers/ada', { body: { data: stored } });
  svc.stub.on('POST', '/v2/workflows/welcome/step/in-app/preview', answer);
  const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', 'ada', '--set', 'x=1', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v2/subscribers/ada', 'POST /v2/workflows/welcome/step/in-app/preview']);
  expect(svc.stub.requests[1]!.body).toEqual({
    previewPayload: {
      payload: { x: '1' },
      subscriber: { subscriberId: 'ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', locale: 'en_GB', data: { plan: 'pro' } },
    },
  });
});

test('an unknown id: exit 5 naming it, no preview sent', async () => {
  svc.stub.on('GET', '/v2/subscribers/nobody', { status: 404, body: { statusCode: 404, message: 'Subscriber nobody not found', error: 'Not Found' } });
  const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', 'nobody'], { env: svc.env });
  expect(r.code).toBe(5);
  expect(r.stderr).toContain("--subscriber: no subscriber has the id 'nobody'");
  expect(svc.stub.requests).toHaveLength(1);
});

test('bad input is refused before the subscriber is looked up', async () => {
  const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', 'ada', '--controls', '"text"'], { env: svc.env });
  expect(r.code).toBe(2);
  expect(svc.stub.requests).toHaveLength(0);
});

test('a JSON object is still the fields themselves (nothing looked up)', async () => {
  svc.stub.on('POST', '/v2/workflows/welcome/step/in-app/preview', answer);
  const r = await runSvc(['workflow', 'preview', 'welcome', 'in-app', '--subscriber', ' {"firstName":"Grace"}', '-o', 'json'], { env: svc.env });
  expect(r.code, r.stderr).toBe(0);
  expect(svc.stub.requests[0]!.body).toEqual({ previewPayload: { subscriber: { firstName: 'Grace' } } });
});

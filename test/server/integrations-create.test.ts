// POST /v1/integrations as the service's create: an active email or sms integration becomes its
// channel's primary when the environment has none; later ones do not take it; inactive ones never.
import { afterAll, expect, it } from 'vitest';
import { testService } from '../helpers/service.js';

const svc = testService({ empty: true });
afterAll(() => svc.close());

const create = async (body: Record<string, unknown>) => {
  const r = await svc.request('POST', '/v1/integrations', { body });
  expect(r.status).toBe(201);
  return r.body.data as { identifier: string; primary: boolean; active: boolean };
};

it('the first active email integration is primary; the next active one and an inactive one are not', async () => {
  const off = await create({ providerId: 'sendgrid', channel: 'email', identifier: 'sg-off' });
  expect(off).toMatchObject({ active: false, primary: false });
  const first = await create({ providerId: 'postmark', channel: 'email', identifier: 'pm', active: true });
  expect(first.primary).toBe(true);
  const second = await create({ providerId: 'mailgun', channel: 'email', identifier: 'mg', active: true });
  expect(second.primary).toBe(false);
  // A channel without primaries (chat) never gets one.
  expect((await create({ providerId: 'chat-webhook', channel: 'chat', identifier: 'hook', active: true })).primary).toBe(false);
});

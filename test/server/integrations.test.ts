// Active integrations (organisation-wide, no credentials) and set-primary.
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { parseSeed } from '../../src/server/seed/load.js';
import { testService } from '../helpers/service.js';

const svc = testService({
  seed: parseSeed(
    {
      integrations: [
        {
          identifier: 'mailjet',
          providerId: 'mailjet',
          channel: 'email',
          conditions: [{ value: 'AND', children: [{ on: 'subscriber', field: 'data.plan', operator: 'EQUAL', value: 'pro' }] }],
        },
        {
          identifier: 'plivo',
          providerId: 'plivo',
          channel: 'sms',
          primary: true,
          conditions: [{ value: 'AND', children: [{ on: 'payload', field: 'region', operator: 'EQUAL', value: 'eu' }] }],
        },
      ],
      environments: [{ name: 'Production', apiKey: 'sk_prod_key_12345', integrations: [{ identifier: 'ses', providerId: 'ses', channel: 'email' }] }],
    },
    'test',
  ),
});
afterAll(() => svc.close());

const active = async (key?: string) => {
  const r = await svc.request('GET', '/v1/integrations/active', key ? { key } : {});
  expect(r.status).toBe(200);
  return operations.listActiveIntegrations.response.parse(r.body.data);
};

describe('active integrations', () => {
  it('lists every active integration of the organisation, without credentials', async () => {
    const list = await active();
    // Every environment has the service's own in-app integration; the seeded one adds ses.
    expect(list.map((i) => i.identifier).sort()).toEqual([
      'fcm',
      'mailjet',
      'plivo',
      'postmark',
      'sendgrid',
      'ses',
      'slack',
      'svc-in-app',
      'svc-in-app',
      'twilio',
    ]);
    expect(list.every((i) => i.credentials === undefined)).toBe(true);
    expect(new Set(list.map((i) => i._environmentId)).size).toBe(2);
    expect((await active('sk_prod_key_12345')).length).toBe(list.length);
  });
});

describe('set primary', () => {
  const byIdentifier = async (id: string) => (await active()).find((i) => i.identifier === id)!;

  it('makes it active and primary and demotes the others of the channel in the environment', async () => {
    const postmark = await byIdentifier('postmark');
    expect(postmark.primary).toBe(false);
    const r = await svc.request('POST', `/v1/integrations/${postmark._id}/set-primary`);
    expect(r.status).toBe(200);
    expect(operations.setPrimaryIntegration.response.parse(r.body.data)).toMatchObject({ primary: true, active: true });
    expect(r.body.data.credentials).toBeUndefined();
    expect((await byIdentifier('sendgrid')).primary).toBe(false);
    // Another environment's email integration is not touched.
    expect((await byIdentifier('ses')).primary).toBe(false);
    // Email is now delivered through postmark.
    await svc.request('POST', '/v1/events/trigger', { body: { name: 'welcome', to: 'ada' } });
    await svc.runner.idle();
    const msgs = (await svc.request('GET', '/v1/messages?channel=email')).body.data;
    expect(msgs[0].providerId).toBe('postmark');
  });

  it('clears the conditions of the integration made primary, as the service does', async () => {
    const mailjet = await byIdentifier('mailjet');
    expect(mailjet.conditions).toHaveLength(1);
    const r = await svc.request('POST', `/v1/integrations/${mailjet._id}/set-primary`);
    expect(r.body.data).toMatchObject({ primary: true, conditions: [] });
    expect((await byIdentifier('mailjet')).conditions).toEqual([]);
  });

  it('answers one that is primary already as it is, conditions kept, as the service does', async () => {
    const plivo = await byIdentifier('plivo');
    expect(plivo).toMatchObject({ primary: true, conditions: [expect.objectContaining({ value: 'AND' })] });
    const before = plivo.updatedAt;
    const r = await svc.request('POST', `/v1/integrations/${plivo._id}/set-primary`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ primary: true, updatedAt: before, conditions: [expect.objectContaining({ value: 'AND' })] });
    expect((await byIdentifier('plivo')).conditions).toHaveLength(1);
  });

  it("a malformed id is a 422 naming integrationId; an unknown one a 404 in the service's words", async () => {
    const bad = await svc.request('POST', '/v1/integrations/not-an-id/set-primary');
    expect(bad).toMatchObject({ status: 422, body: { errors: { integrationId: { messages: ['integrationId must be a mongodb id'], value: 'not-an-id' } } } });
    const missing = await svc.request('POST', '/v1/integrations/bbbbbbbbbbbbbbbbbbbbbbbb/set-primary');
    expect(missing).toMatchObject({ status: 404, body: { message: 'Integration with id bbbbbbbbbbbbbbbbbbbbbbbb not found' } });
  });

  it("only email and sms have a primary; unknown → 404; another environment's → 404", async () => {
    const slack = await byIdentifier('slack');
    const r = await svc.request('POST', `/v1/integrations/${slack._id}/set-primary`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Channel chat does not support primary');
    expect((await svc.request('POST', '/v1/integrations/aaaaaaaaaaaaaaaaaaaaaaaa/set-primary')).status).toBe(404);
    const ses = await byIdentifier('ses');
    expect((await svc.request('POST', `/v1/integrations/${ses._id}/set-primary`)).status).toBe(404);
  });
});

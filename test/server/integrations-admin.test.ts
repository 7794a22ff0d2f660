// Integration management: list all (active or not, organisation-wide, no credentials), create (the
// service's defaults and conflicts) and delete (the environment's remaining list; what was made
// through it goes with it).
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { parseSeed } from '../../src/server/seed/load.js';
import { testService } from '../helpers/service.js';

const PROD_KEY = 'sk_prod_key_admin_1';
const svc = testService({
  seed: parseSeed(
    {
      integrations: [{ identifier: 'mailjet-off', providerId: 'mailjet', channel: 'email', active: false, credentials: { apiKey: 'SECRET-mj' } }],
      environments: [{ name: 'Production', apiKey: PROD_KEY, integrations: [{ identifier: 'ses-prod', providerId: 'ses', channel: 'email' }] }],
    },
    'test',
  ),
});
afterAll(() => svc.close());

const list = async (key?: string) => {
  const r = await svc.request('GET', '/v1/integrations', key ? { key } : {});
  expect(r.status).toBe(200);
  return operations.listIntegrations.response.parse(r.body.data);
};

describe('list integrations', () => {
  it('answers every integration of the organisation, inactive ones too, without credentials', async () => {
    const all = await list();
    const ids = all.map((i) => i.identifier);
    expect(ids).toEqual(expect.arrayContaining(['mailjet-off', 'ses-prod', 'sendgrid']));
    expect(all.find((i) => i.identifier === 'mailjet-off')).toMatchObject({ active: false });
    expect(all.filter((i) => 'credentials' in i)).toEqual([]);
    expect(JSON.stringify(all)).not.toContain('SECRET-');
    // The active list is the active part of it.
    const active = (await svc.request('GET', '/v1/integrations/active')).body.data as { identifier: string }[];
    expect(active.map((i) => i.identifier)).not.toContain('mailjet-off');
    expect((await list(PROD_KEY)).map((i) => i.identifier)).toEqual(ids);
  });
});

describe('create an integration', () => {
  it('201: the name defaults to the provider id, the identifier to its slug and a random suffix; inactive, not primary, no credentials answered', async () => {
    const r = await svc.request('POST', '/v1/integrations', { body: { providerId: 'mailgun', channel: 'email', credentials: { apiKey: 'SECRET-mg' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const i = operations.createIntegration.response.parse(r.body.data);
    expect(i).toMatchObject({ name: 'Mailgun', providerId: 'mailgun', channel: 'email', active: false, primary: false, deleted: false });
    expect(i.identifier).toMatch(/^mailgun-[A-Za-z0-9_-]{9}$/);
    expect(i._id).toMatch(/^[0-9a-f]{24}$/);
    expect(JSON.stringify(r.body)).not.toContain('SECRET-');
    expect((await list()).map((x) => x._id)).toContain(i._id);
  });

  it('slugs a given name; keeps a given identifier and active flag', async () => {
    const named = (await svc.request('POST', '/v1/integrations', { body: { providerId: 'twilio', channel: 'sms', name: 'Twilio (EU) Über' } })).body.data;
    expect(named.identifier).toMatch(/^twilio-eu-uber-[A-Za-z0-9_-]{9}$/);
    const given = await svc.request('POST', '/v1/integrations', { body: { providerId: 'plivo', channel: 'sms', identifier: 'plivo-main', active: true } });
    expect(given.status).toBe(201);
    expect(given.body.data).toMatchObject({ identifier: 'plivo-main', name: 'Plivo', active: true, primary: false });
    // An active one is one the channel may deliver through.
    expect((await svc.request('GET', '/v1/integrations/active')).body.data.map((x: { identifier: string }) => x.identifier)).toContain('plivo-main');
  });

  it('an identifier taken anywhere in the organisation is a 409', async () => {
    for (const identifier of ['plivo-main', 'ses-prod']) {
      const r = await svc.request('POST', '/v1/integrations', { body: { providerId: 'plivo', channel: 'sms', identifier } });
      expect(r.status, identifier).toBe(409);
      expect(r.body).toMatchObject({ statusCode: 409, message: 'Integration with identifier already exists' });
    }
  });

  it('a second in-app integration of the service is a 400; a missing providerId or channel a 422 naming it', async () => {
    const inApp = await svc.request('POST', '/v1/integrations', { body: { providerId: 'svc', channel: 'in_app' } });
    expect(inApp).toMatchObject({ status: 400, body: { message: 'One environment can only have one In app provider' } });
    const noProvider = await svc.request('POST', '/v1/integrations', { body: { channel: 'sms' } });
    expect(noProvider.status).toBe(422);
    expect(JSON.stringify(noProvider.body.errors)).toContain('providerId');
    const noChannel = await svc.request('POST', '/v1/integrations', { body: { providerId: 'plivo' } });
    expect(noChannel.status).toBe(422);
    expect(noChannel.body.errors).toHaveProperty('channel');
    const badChannel = await svc.request('POST', '/v1/integrations', { body: { providerId: 'plivo', channel: 'fax' } });
    expect(badChannel.status).toBe(422);
  });
});

describe('delete an integration', () => {
  it("200 with the environment's remaining integrations; its channel connections and endpoints go with it", async () => {
    const slack = (await svc.request('POST', '/v1/integrations', { body: { providerId: 'slack', channel: 'chat', identifier: 'slack-doomed', active: true } }))
      .body.data;
    const conn = await svc.request('POST', '/v1/channel-connections', {
      body: { integrationIdentifier: 'slack-doomed', subscriberId: 'ada', workspace: { id: 'T1' }, auth: { accessToken: 'xoxb-1' } },
    });
    expect(conn.status, JSON.stringify(conn.body)).toBe(201);
    const endp = await svc.request('POST', '/v1/channel-endpoints', {
      body: {
        subscriberId: 'ada',
        integrationIdentifier: 'slack-doomed',
        connectionIdentifier: conn.body.data.identifier,
        type: 'slack_channel',
        endpoint: { channelId: 'C1' },
      },
    });
    expect(endp.status, JSON.stringify(endp.body)).toBe(201);

    const r = await svc.request('DELETE', `/v1/integrations/${slack._id}`);
    expect(r.status).toBe(200);
    const remaining = operations.deleteIntegration.response.parse(r.body.data);
    expect(remaining.map((i) => i._id)).not.toContain(slack._id);
    expect(remaining.map((i) => i.identifier)).toEqual(expect.arrayContaining(['sendgrid', 'mailjet-off', 'plivo-main']));
    // Only this environment's, without credentials.
    expect(remaining.map((i) => i.identifier)).not.toContain('ses-prod');
    expect(remaining.filter((i) => 'credentials' in i)).toEqual([]);

    expect((await list()).map((i) => i._id)).not.toContain(slack._id);
    expect((await svc.request('GET', `/v1/channel-connections/${conn.body.data.identifier}`)).status).toBe(404);
    expect((await svc.request('GET', `/v1/channel-endpoints/${endp.body.data.identifier}`)).status).toBe(404);
    // The identifier is free again.
    expect((await svc.request('POST', '/v1/integrations', { body: { providerId: 'slack', channel: 'chat', identifier: 'slack-doomed' } })).status).toBe(201);
  });

  it("an unknown id is a 404 in the service's words; another environment's a 403", async () => {
    const unknown = await svc.request('DELETE', '/v1/integrations/aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Entity with id aaaaaaaaaaaaaaaaaaaaaaaa not found' } });
    const prod = (await list(PROD_KEY)).find((i) => i.identifier === 'ses-prod')!;
    const other = await svc.request('DELETE', `/v1/integrations/${prod._id}`);
    expect(other.status).toBe(403);
    expect(other.body.message).toMatch(/^API key authentication is scoped to a single environment and cannot delete an integration/);
    expect((await list(PROD_KEY)).map((i) => i._id)).toContain(prod._id);
  });
});

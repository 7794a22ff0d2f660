// Delivery reports, integration auto-configure and inbound-email domains against the built `svc dev`,
// through the official SDK (@novu/api validates every answer with its own schemas): a provider's
// report changes the message it names and adds to its job's timeline; domains and routes are kept
// as the service keeps them, and what needs DNS or the network says so in the service's shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Novu } from '@novu/api';
import { api, startDev, type DevProcess } from '../helpers/dev.js';
import { novuClient, sdkFailure } from '../helpers/sdk.js';

let dev: DevProcess;
let novu: Novu;
let environmentId: string;
const integrations: Record<string, string> = {};

beforeAll(async () => {
  dev = await startDev({ args: ['--no-save-profile', '--quiet'] });
  novu = novuClient(dev.baseUrl, dev.apiKey);
  environmentId = (await api(dev, 'GET', '/v1/environments/me')).body.data._id;
  for (const i of (await api(dev, 'GET', '/v1/integrations/active')).body.data) integrations[i.identifier] = i._id;
});
afterAll(async () => {
  await dev?.stop();
});

/** The subscriber's message of this channel and transaction, once the runner has stored it. */
async function messageOf(transactionId: string, subscriberId: string, channel: string): Promise<any> {
  for (const deadline = Date.now() + 20_000; ; ) {
    const page = (await api(dev, 'GET', `/v1/messages?subscriberId=${subscriberId}&channel=${channel}&transactionId=${transactionId}`)).body;
    if (page.data.length > 0) return page.data[0];
    if (Date.now() > deadline) throw new Error(`no ${channel} message of ${transactionId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function sent(workflowId: string, subscriberId: string, channel: string, payload: Record<string, unknown> = {}) {
  const t = (await novu.trigger({ workflowId, to: subscriberId, payload })).result;
  return messageOf(t.transactionId!, subscriberId, channel);
}

const webhookDetails = async (notificationId: string, stepType: string) => {
  const event = (await api(dev, 'GET', `/v1/notifications/${notificationId}`)).body.data;
  const job = event.jobs.find((j: { type: string }) => j.type === stepType);
  return job.executionDetails.filter((d: { source: string }) => d.source === 'Webhook').map((d: any) => [d.status, d.detail, d.providerId]);
};

describe('delivery reports', () => {
  it("a SendGrid event through the SDK's activity.track marks the email delivered and adds the detail to its job's timeline", async () => {
    const message = await sent('welcome', 'ada', 'email');
    // The service sends SendGrid its message id as the custom argument `id`, which each event carries back.
    expect(message.identifier).toBe(message._id);
    const answer = await novu.activity.track({
      environmentId,
      integrationId: integrations.sendgrid!,
      requestBody: { id: message.identifier, event: 'delivered', response: '250 2.0.0 OK', sg_message_id: 'x.filter' },
    });
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ id: message.identifier, event: { status: 'delivered', externalId: message.identifier } });
    expect(JSON.parse(answer[0]!.event.row as string)).toMatchObject({ event: 'delivered' });
    const after = (await api(dev, 'GET', `/v1/messages?subscriberId=ada&channel=email&transactionId=${message.transactionId}`)).body.data[0];
    expect(after.status).toBe('sent');
    expect(after.deliveredAt).toHaveLength(2);
    expect(await webhookDetails(message._notificationId, 'email')).toEqual([['Success', '250 2.0.0 OK - (delivered)', 'sendgrid']]);
  });

  it("a SendGrid batch (open, then bounce) is read entry by entry: the message is seen, then its status error with the bounce's reason", async () => {
    const message = await sent('welcome', 'grace', 'email');
    const r = await api(dev, 'POST', `/v2/inbound-webhooks/delivery-providers/${environmentId}/${integrations.sendgrid}`, [
      { id: message.identifier, event: 'open' },
      { id: message.identifier, event: 'bounce', reason: '550 5.1.1 The email account does not exist' },
      { id: '000000000000000000000000', event: 'delivered' },
      { id: message.identifier, event: 'processed' },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.data.map((e: any) => e.event.status)).toEqual(['opened', 'bounced']);
    const after = (await api(dev, 'GET', `/v1/messages?subscriberId=grace&channel=email&transactionId=${message.transactionId}`)).body.data[0];
    expect(after).toMatchObject({ status: 'error', seen: true, errorText: '550 5.1.1 The email account does not exist - (bounced)' });
    expect(await webhookDetails(message._notificationId, 'email')).toEqual([
      ['Success', ' - (opened)', 'sendgrid'],
      ['Failed', '550 5.1.1 The email account does not exist - (bounced)', 'sendgrid'],
    ]);
  });

  it('a Twilio status callback names the message by its SID: undelivered makes it an error', async () => {
    const message = await sent('otp', 'ada', 'sms', { code: '123456' });
    expect(message.identifier).toMatch(/^SM[0-9a-f]{32}$/);
    const answer = await novu.activity.track({
      environmentId,
      integrationId: integrations.twilio!,
      requestBody: { MessageSid: message.identifier, MessageStatus: 'undelivered', ErrorCode: '30003', AccountSid: 'AC-local-demo' },
    });
    expect(answer.map((e) => e.event.status)).toEqual(['undelivered']);
    const after = (await api(dev, 'GET', `/v1/messages?subscriberId=ada&channel=sms&transactionId=${message.transactionId}`)).body.data[0];
    expect(after.status).toBe('error');
    expect(await webhookDetails(message._notificationId, 'sms')).toEqual([['Failed', ' - (undelivered)', 'twilio']]);
  });

  it("a simulated SMS's SID in the provider's answer is the message's identifier, so its report finds it", async () => {
    const t = (await novu.trigger({ workflowId: 'otp', to: { subscriberId: 'sim-sms', phone: '+15005550006' }, payload: { code: '1' } })).result;
    const message = await messageOf(t.transactionId!, 'sim-sms', 'sms');
    const event = (await api(dev, 'GET', `/v1/notifications/${message._notificationId}`)).body.data;
    const raws = event.jobs.flatMap((j: any) => j.executionDetails.map((d: any) => d.raw)).filter(Boolean);
    expect(raws.some((raw: string) => JSON.parse(raw).sid === message.identifier)).toBe(true);
    const answer = await novu.activity.track({
      environmentId,
      integrationId: integrations.twilio!,
      requestBody: { MessageSid: message.identifier, MessageStatus: 'delivered' },
    });
    expect(answer.map((e) => e.id)).toEqual([message.identifier]);
  });

  it("refuses an unknown integration, another environment's, and a provider that sends no reports, in the service's words", async () => {
    const unknown = await sdkFailure(novu.activity.track({ environmentId, integrationId: '000000000000000000000000', requestBody: {} }));
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Integration for 000000000000000000000000 was not found' } });
    const elsewhere = await sdkFailure(
      novu.activity.track({ environmentId: '000000000000000000000000', integrationId: integrations.sendgrid!, requestBody: {} }),
    );
    expect(elsewhere.status).toBe(404);
    const slack = await sdkFailure(novu.activity.track({ environmentId, integrationId: integrations.slack!, requestBody: {} }));
    expect(slack).toMatchObject({ status: 404, body: { message: 'Provider with slack can not handle webhooks' } });
  });
});

describe('integration auto-configure', () => {
  it("answers success false with the URL to post reports to (svc dev calls no provider), and the service's text for a provider without reports", async () => {
    const sendgrid = (await novu.integrations.integrationsControllerAutoConfigureIntegration(integrations.sendgrid!)).result;
    expect(sendgrid.success).toBe(false);
    expect(sendgrid.message).toContain(`${dev.baseUrl}/v2/inbound-webhooks/delivery-providers/${environmentId}/${integrations.sendgrid}`);
    const slack = (await novu.integrations.integrationsControllerAutoConfigureIntegration(integrations.slack!)).result;
    expect(slack).toEqual({
      success: false,
      message: 'A support of auto-configuration of inbound webhook is not implemented by provider, manual configuration is required',
    });
    const missing = await sdkFailure(novu.integrations.integrationsControllerAutoConfigureIntegration('000000000000000000000000'));
    expect(missing).toMatchObject({ status: 404, body: { message: 'Integration not found, id: 000000000000000000000000' } });
  });
});

describe('domains', () => {
  it('creates, lists, reads, updates and deletes a domain; the name is unique; DNS steps say what svc dev did not do', async () => {
    const created = (await novu.domains.create({ name: 'Mail.Acme.test', data: { team: 'support' } })).result;
    expect(created).toMatchObject({ name: 'mail.acme.test', status: 'pending', mxRecordConfigured: false, data: { team: 'support' }, environmentId });
    expect(created.expectedDnsRecords?.[0]).toMatchObject({ type: 'MX', name: 'mail.acme.test', priority: 10 });
    expect((await sdkFailure(novu.domains.create({ name: 'mail.acme.test' }))).status).toBe(409);
    expect((await sdkFailure(novu.domains.create({ name: 'not a domain' }))).status).toBe(422);
    await novu.domains.create({ name: 'other.acme.test' });

    const page = (await novu.domains.list({ name: 'mail', limit: 10 })).result;
    expect(page.data.map((d) => d.name)).toEqual(['mail.acme.test']);
    expect(page.totalCount).toBe(1);
    expect((await novu.domains.list({})).result.totalCount).toBe(2);

    const updated = (await novu.domains.update({ data: { team: 'billing' } }, 'mail.acme.test')).result;
    expect(updated.data).toEqual({ team: 'billing' });
    expect((await novu.domains.retrieve('mail.acme.test')).result.data).toEqual({ team: 'billing' });

    // No DNS lookups offline: verify leaves the domain pending, diagnose says its checks were skipped.
    expect((await novu.domains.verify('mail.acme.test')).result).toMatchObject({ status: 'pending', mxRecordConfigured: false });
    const diagnosis = (await novu.domains.diagnose('mail.acme.test')).result;
    expect(diagnosis.ok).toBe(false);
    expect(diagnosis.checks.every((c) => c.status === 'skipped')).toBe(true);
    expect(diagnosis.issues[0]).toMatchObject({ code: 'mx_missing', severity: 'error' });
    const auto = (await novu.domains.autoConfigure.retrieve('mail.acme.test')).result;
    expect(auto).toMatchObject({ available: false, reasonCode: 'discovery_not_configured' });
    expect(auto.manualRecords).toEqual(created.expectedDnsRecords);
    expect((await sdkFailure(novu.domains.autoConfigure.start({ redirectUri: 'http://localhost/x' }, 'mail.acme.test'))).status).toBe(400);

    await novu.domains.delete('other.acme.test');
    expect((await sdkFailure(novu.domains.retrieve('other.acme.test'))).status).toBe(404);
  });

  it("keeps one route per address, routes a test to the address's route or the wildcard, and deletes routes with their domain", async () => {
    await novu.domains.create({ name: 'routes.acme.test' });
    const support = (await novu.domains.routes.create({ address: 'support', type: 'webhook', data: { queue: 'l1' } }, 'routes.acme.test')).result;
    expect(support).toMatchObject({ address: 'support', type: 'webhook', data: { queue: 'l1' } });
    expect((await sdkFailure(novu.domains.routes.create({ address: 'support', type: 'webhook' }, 'routes.acme.test'))).status).toBe(409);
    expect((await sdkFailure(novu.domains.routes.create({ address: 'bot', type: 'agent', agentId: 'a1' }, 'routes.acme.test'))).status).toBe(400);
    await novu.domains.routes.create({ address: '*', type: 'webhook' }, 'routes.acme.test');
    expect((await novu.domains.routes.list({ domain: 'routes.acme.test' })).result.data.map((r) => r.address).sort()).toEqual(['*', 'support']);
    expect((await novu.domains.routes.retrieve('routes.acme.test', '*')).result.address).toBe('*');
    expect((await novu.domains.routes.update({ data: { queue: 'l2' } }, 'routes.acme.test', 'support')).result.data).toEqual({ queue: 'l2' });

    const dry = (
      await novu.domains.routes.test({ from: { address: 'jo@example.org' }, subject: 'Help', text: 'Hi', dryRun: true }, 'routes.acme.test', 'support')
    ).result;
    expect(dry).toMatchObject({ matched: true, dryRun: true, type: 'webhook', domainStatus: 'pending', mxRecordConfigured: false });
    expect(dry.payload).toMatchObject({ object: { route: { address: 'support' }, to: [{ address: 'support@routes.acme.test' }], subject: 'Help' } });
    const wild = (await novu.domains.routes.test({ from: { address: 'jo@example.org' }, subject: 'Hi', dryRun: true }, 'routes.acme.test', 'sales')).result;
    expect(wild.payload).toMatchObject({ object: { route: { address: '*' } } });
    const live = (await novu.domains.routes.test({ from: { address: 'jo@example.org' }, subject: 'Hi' }, 'routes.acme.test', 'support')).result;
    expect(live).toMatchObject({ matched: true, dryRun: false, webhook: { skipped: true } });

    await novu.domains.routes.delete('routes.acme.test', '*');
    const unmatched = (await novu.domains.routes.test({ from: { address: 'jo@example.org' }, subject: 'Hi' }, 'routes.acme.test', 'sales')).result;
    expect(unmatched.matched).toBe(false);
    await novu.domains.delete('routes.acme.test');
    await novu.domains.create({ name: 'routes.acme.test' });
    expect((await novu.domains.routes.list({ domain: 'routes.acme.test' })).result.data).toEqual([]);
  });

  it("frees a deleted environment's domain names: its domains and routes go with it", async () => {
    const made = await api(dev, 'POST', '/v1/environments', { name: 'Domains-temp', color: '#ff0000' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const other = { baseUrl: dev.baseUrl, apiKey: made.body.data.apiKeys[0].key as string };
    expect((await api(other, 'POST', '/v1/domains', { name: 'moving.acme.test' })).status).toBe(201);
    expect((await api(other, 'POST', '/v1/domains/moving.acme.test/routes', { address: 'support', type: 'webhook' })).status).toBe(201);
    expect((await sdkFailure(novu.domains.create({ name: 'moving.acme.test' }))).status).toBe(409);
    expect((await api(other, 'DELETE', `/v1/environments/${made.body.data._id}`)).status).toBeLessThan(300);
    expect((await novu.domains.create({ name: 'moving.acme.test' })).result.name).toBe('moving.acme.test');
  });
});

import { describe, expect, it } from 'vitest';
import { chooseIntegration, subscriberCredentials, webhookTarget } from '../../../src/server/engine/integrations.js';
import { integration, subscriber } from './fixtures.js';

describe('chooseIntegration', () => {
  it('prefers the primary integration, else the first active one', () => {
    const a = integration({ channel: 'email', providerId: 'sendgrid', identifier: 'a' });
    const b = integration({ channel: 'email', providerId: 'ses', identifier: 'b', primary: true });
    expect(chooseIntegration('email', [a, b])).toEqual({ ok: true, integration: b });
    expect(chooseIntegration('email', [a])).toEqual({ ok: true, integration: a });
  });

  it('ignores inactive, deleted, agent and other-channel integrations', () => {
    const list = [
      integration({ channel: 'sms', providerId: 'twilio', active: false }),
      integration({ channel: 'sms', providerId: 'twilio', deleted: true }),
      integration({ channel: 'sms', providerId: 'twilio', kind: 'agent' }),
      integration({ channel: 'email', providerId: 'ses' }),
    ];
    expect(chooseIntegration('sms', list)).toEqual({
      ok: false,
      issue: { issueType: 'MISSING_INTEGRATION', message: 'Missing active SMS integration provider: add or activate one in this environment' },
    });
  });

  it('honours integration conditions when given a subscriber and payload', () => {
    const eu = integration({
      channel: 'email',
      providerId: 'mailgun',
      identifier: 'eu',
      primary: true,
      conditions: [{ value: 'AND', children: [{ on: 'subscriber', field: 'data.region', operator: 'EQUAL', value: 'eu' }] }],
    });
    const other = integration({ channel: 'email', providerId: 'ses', identifier: 'other' });
    const euSub = { subscriber: { data: { region: 'eu' } }, payload: {} };
    expect(chooseIntegration('email', [eu, other], euSub)).toMatchObject({ integration: { identifier: 'eu' } });
    expect(chooseIntegration('email', [eu, other], { subscriber: { data: { region: 'us' } } })).toMatchObject({ integration: { identifier: 'other' } });
    expect(chooseIntegration('email', [eu], { subscriber: {} })).toMatchObject({ ok: false, issue: { message: expect.stringMatching(/conditions match/) } });
    expect(chooseIntegration('email', [eu])).toMatchObject({ ok: true });
  });
});

describe('subscriber credentials and webhook targets', () => {
  const chat = integration({ _id: 'int-chat', channel: 'chat', providerId: 'chat-webhook', identifier: 'hook', credentials: { secretKey: 's3' } });
  const sub = subscriber({
    channels: [{ providerId: 'chat-webhook', _integrationId: 'int-chat', credentials: { webhookUrl: 'http://127.0.0.1:9/hook' } }],
  });

  it('finds the subscriber credentials for an integration', () => {
    expect(subscriberCredentials(sub, chat)).toEqual({ webhookUrl: 'http://127.0.0.1:9/hook' });
    expect(subscriberCredentials(subscriber(), chat)).toBeUndefined();
  });

  it('delivers webhooks to the subscriber URL, else the integration URL, signed with its secret', () => {
    expect(webhookTarget(chat, sub)).toEqual({ url: 'http://127.0.0.1:9/hook', secret: 's3' });
    const email = integration({ channel: 'email', providerId: 'email-webhook', credentials: { webhookUrl: 'http://localhost:1/e' } });
    expect(webhookTarget(email)).toEqual({ url: 'http://localhost:1/e' });
    expect(webhookTarget(integration({ channel: 'email', providerId: 'sendgrid' }))).toBeNull();
  });
});

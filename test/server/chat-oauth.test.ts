// Chat OAuth URLs: the provider's authorize page with the integration's clientId and a signed state
// that expires after 5 minutes; the references of the request checked as the other routes check them.
import { afterAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/api/operations.js';
import { OAUTH_STATE_TTL_MS, verifyOauthState } from '../../src/server/handlers/chat-oauth.js';
import { parseSeed } from '../../src/server/seed/load.js';
import { haveOpenApi, openApiProblems } from '../helpers/openapi.js';
import { testService, TEST_KEY } from '../helpers/service.js';

const svc = testService({
  seed: parseSeed(
    {
      integrations: [
        { identifier: 'slack-app', providerId: 'slack', channel: 'chat', credentials: { clientId: '1234.5678', redirectUrl: 'https://example.com/cb' } },
        { identifier: 'teams', providerId: 'msteams', channel: 'chat', credentials: { clientId: 'teams-client', tenantId: 'tenant-1' } },
        { identifier: 'discord', providerId: 'discord', channel: 'chat', credentials: { webhookUrl: 'https://discord.invalid/x' } },
      ],
    },
    'chat oauth test',
  ),
});
afterAll(() => svc.close());

const CHAT = '/v1/integrations/chat/oauth';
const CONNECT = '/v1/integrations/channel-connections/oauth';
const LINK = '/v1/integrations/channel-endpoints/oauth';
const post = (path: string, body: unknown) => svc.request('POST', path, { body });

/** The URL of a 201, parsed; its state verified with the environment's key at the service's time. */
async function urlOf(path: string, body: unknown) {
  const r = await post(path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(Object.keys(r.body)).toEqual(['data']);
  const { url } = operations.generateChatOauthUrl.response.parse(r.body.data);
  if (haveOpenApi) expect(openApiProblems('POST', path, 201, r.body.data)).toEqual([]);
  const u = new URL(url);
  const state = verifyOauthState(TEST_KEY, u.searchParams.get('state')!, svc.clock.now());
  return { u, state };
}

describe('chat OAuth URLs', () => {
  it('Slack connect: the authorize URL with the clientId, the default scopes and a signed state that expires in 5 minutes', async () => {
    const { u, state } = await urlOf(CHAT, { integrationIdentifier: 'slack-app', subscriberId: 'ada', context: { tenant: 'acme' } });
    expect(`${u.origin}${u.pathname}`).toBe('https://slack.com/oauth/v2/authorize');
    expect(u.searchParams.get('client_id')).toBe('1234.5678');
    expect(u.searchParams.get('scope')).toBe('chat:write,chat:write.public,channels:read,groups:read,users:read,users:read.email');
    expect(u.searchParams.get('redirect_uri')).toBe('https://example.com/cb');
    expect(state).toMatchObject({ integrationIdentifier: 'slack-app', providerId: 'slack', mode: 'connect', subscriberId: 'ada', context: { tenant: 'acme' } });
    expect(state!.expiresAt).toBe(svc.clock.now() + OAUTH_STATE_TTL_MS);
    // Signed: another key, a changed payload, or 5 minutes later, and it is refused.
    const token = u.searchParams.get('state')!;
    expect(verifyOauthState('sk_other', token, svc.clock.now())).toBeUndefined();
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...state, subscriberId: 'grace' })).toString('base64url');
    expect(payload).not.toBe(forged);
    expect(verifyOauthState(TEST_KEY, `${forged}.${sig}`, svc.clock.now())).toBeUndefined();
    expect(verifyOauthState(TEST_KEY, token, svc.clock.now() + OAUTH_STATE_TTL_MS)).toBeUndefined();
  });

  it('the connect route takes the scopes given; link_user asks Slack for user scopes only', async () => {
    const connect = await urlOf(CONNECT, { integrationIdentifier: 'slack-app', scope: ['chat:write', 'incoming-webhook'], subscriberId: 'ada' });
    expect(connect.u.searchParams.get('scope')).toBe('chat:write,incoming-webhook');
    expect(connect.state!.mode).toBe('connect');
    const link = await urlOf(LINK, { integrationIdentifier: 'slack-app', subscriberId: 'ada' });
    expect(link.u.searchParams.get('user_scope')).toBe('identity.basic');
    expect(link.u.searchParams.has('scope')).toBe(false);
    expect(link.state).toMatchObject({ mode: 'link_user', subscriberId: 'ada' });
    const viaChat = await urlOf(CHAT, {
      integrationIdentifier: 'slack-app',
      subscriberId: 'ada',
      mode: 'link_user',
      userScope: ['identity.basic', 'identity.email'],
    });
    expect(viaChat.u.searchParams.get('user_scope')).toBe('identity.basic,identity.email');
  });

  it("MS Teams: the tenant's admin consent (connect), a user sign-in (link_user)", async () => {
    const consent = await urlOf(CONNECT, { integrationIdentifier: 'teams' });
    expect(`${consent.u.origin}${consent.u.pathname}`).toBe('https://login.microsoftonline.com/tenant-1/adminconsent');
    expect(consent.u.searchParams.get('client_id')).toBe('teams-client');
    expect(consent.state).toMatchObject({ providerId: 'msteams', mode: 'connect' });
    const link = await urlOf(LINK, { integrationIdentifier: 'teams', subscriberId: 'ada' });
    expect(`${link.u.origin}${link.u.pathname}`).toBe('https://login.microsoftonline.com/tenant-1/oauth2/v2.0/authorize');
    expect(link.u.searchParams.get('scope')).toBe('openid profile User.Read');
    expect(link.u.searchParams.get('response_type')).toBe('code');
  });

  it('an integration without a clientId is a 400 that says how to set it; with one set, the URL follows', async () => {
    const r = await post(CHAT, { integrationIdentifier: 'slack' });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^Integration 'slack' has no clientId credential: set it with PUT \/v1\/integrations\/[0-9a-f]{24}$/);
    const id = r.body.message.split('/').pop();
    expect((await svc.request('PUT', `/v1/integrations/${id}`, { body: { credentials: { clientId: 'demo-client' } } })).status).toBe(200);
    const { u } = await urlOf(CHAT, { integrationIdentifier: 'slack' });
    expect(u.searchParams.get('client_id')).toBe('demo-client');
  });

  it.each([
    ['an unknown integration', CHAT, { integrationIdentifier: 'nope' }, 404, "Integration with identifier 'nope' not found"],
    ['an unknown subscriber', CONNECT, { integrationIdentifier: 'slack-app', subscriberId: 'ghost' }, 404, "Subscriber 'ghost' was not found"],
    [
      'a connection that does not exist (link_user)',
      LINK,
      { integrationIdentifier: 'slack-app', subscriberId: 'ada', connectionIdentifier: 'nope' },
      404,
      "Channel connection with identifier 'nope' not found",
    ],
    ['an integration of another channel', CHAT, { integrationIdentifier: 'sendgrid' }, 400, "Integration 'sendgrid' is not a chat integration (channel email)"],
    [
      'a chat provider without OAuth',
      CHAT,
      { integrationIdentifier: 'discord' },
      400,
      "OAuth is not supported for provider 'discord': only slack and msteams have it",
    ],
    [
      'a shared connection without a context',
      CONNECT,
      { integrationIdentifier: 'slack-app', connectionMode: 'shared' },
      400,
      "context is required when connectionMode is 'shared'",
    ],
    [
      'the incoming-webhook scope without a subscriber',
      CONNECT,
      { integrationIdentifier: 'slack-app', scope: ['incoming-webhook'] },
      400,
      'subscriberId is required for the incoming-webhook scope',
    ],
  ])('%s → %s', async (_, path, body, status, message) => {
    const r = await post(path, body);
    expect(r.status).toBe(status);
    expect(r.body.message).toBe(message);
  });

  it('bad bodies → 422 naming the field: integrationIdentifier missing, link_user without subscriberId, a bad context type', async () => {
    expect((await post(CHAT, { subscriberId: 'ada' })).body.errors.integrationIdentifier.messages).toEqual(['integrationIdentifier is required']);
    expect((await post(LINK, { integrationIdentifier: 'slack-app' })).body.errors.subscriberId.messages).toEqual(['subscriberId is required']);
    const viaChat = await post(CHAT, { integrationIdentifier: 'slack-app', mode: 'link_user' });
    expect(viaChat).toMatchObject({ status: 422, body: { errors: { subscriberId: { messages: ['subscriberId is required'] } } } });
    const mode = await post(CHAT, { integrationIdentifier: 'slack-app', mode: 'install' });
    expect(mode.body.errors.mode.messages).toEqual(['mode must be one of the following values: connect, link_user']);
    const context = await post(CONNECT, { integrationIdentifier: 'slack-app', context: { 'a b': 'x' } });
    expect(context.status).toBe(422);
    expect(Object.keys(context.body.errors)).toEqual(['context.a b']);
  });
});

// Chat OAuth URLs: the page of the chat provider (Slack, MS Teams) where a workspace admin installs the
// integration's app (connect) or a subscriber signs in to link their chat identity (link_user). The
// answer is the provider's authorize URL with the integration's clientId and a state the service
// signed, valid for 5 minutes. svc dev has no OAuth callback: what the provider sends back after the
// consent is not received, so no connection or endpoint is made from it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChatOauthMode } from '../../api/schemas/chat-oauth.js';
import type { Integration } from '../../api/schemas/resources.js';
import { badRequest, conflict, notFound, unprocessable } from '../errors.js';
import type { Environment } from '../store/index.js';
import type { Route, Service } from './types.js';

export const OAUTH_STATE_TTL_MS = 5 * 60 * 1000;

/** Slack's scopes when the request names none (openapi's GenerateChatOauthUrlRequestDto). */
const SLACK_DEFAULT_SCOPES = ['chat:write', 'chat:write.public', 'channels:read', 'groups:read', 'users:read', 'users:read.email'];
const SLACK_DEFAULT_USER_SCOPES = ['identity.basic'];
/** MS Teams' delegated scopes for linking a user (its admin consent takes the app's configured ones). */
const MS_TEAMS_USER_SCOPES = ['openid', 'profile', 'User.Read'];

/** What the signed state carries to the callback: enough to finish the flow without asking again. */
interface OauthState {
  environmentId: string;
  organizationId: string;
  integrationIdentifier: string;
  providerId: string;
  mode: ChatOauthMode;
  subscriberId?: string;
  connectionIdentifier?: string;
  context?: Record<string, unknown>;
  connectionMode?: 'subscriber' | 'shared';
  autoLinkUser?: boolean;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest();

/** `<payload>.<HMAC-SHA256 of it>`, both base64url; keyed by the environment's secret key. */
function signOauthState(secret: string, state: OauthState): string {
  const payload = b64(JSON.stringify(state));
  return `${payload}.${b64(mac(secret, payload))}`;
}

/** The state, when it was signed with `secret` and has not expired; undefined otherwise. */
export function verifyOauthState(secret: string, token: string, now: number): OauthState | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as OauthState;
  return state.expiresAt > now ? state : undefined;
}

interface OauthRequest {
  integrationIdentifier: string;
  mode: ChatOauthMode;
  subscriberId?: string | undefined;
  connectionIdentifier?: string | undefined;
  context?: Record<string, unknown> | undefined;
  scope?: string[] | undefined;
  userScope?: string[] | undefined;
  connectionMode?: 'subscriber' | 'shared' | undefined;
  autoLinkUser?: boolean | undefined;
}

const OAUTH_PROVIDERS = new Set(['slack', 'msteams']);

function oauthUrl(svc: Service, env: Environment, req: OauthRequest): { url: string } {
  const { store } = svc;
  const integration = store.integrations.findByIdentifier(env.id, req.integrationIdentifier);
  if (!integration) throw notFound(`Integration with identifier '${req.integrationIdentifier}' not found`);
  if (integration.channel !== 'chat') {
    throw badRequest(`Integration '${integration.identifier}' is not a chat integration (channel ${integration.channel ?? 'none'})`);
  }
  if (!OAUTH_PROVIDERS.has(integration.providerId)) {
    throw badRequest(`OAuth is not supported for provider '${integration.providerId}': only slack and msteams have it`);
  }
  if (req.mode === 'link_user' && req.subscriberId === undefined) {
    throw unprocessable('Validation Error', { subscriberId: { messages: ['subscriberId is required'] } });
  }
  if (req.subscriberId !== undefined && !store.subscribers.find(env.id, req.subscriberId)) {
    throw notFound(`Subscriber '${req.subscriberId}' was not found`);
  }
  const scopes = req.scope ?? SLACK_DEFAULT_SCOPES;
  if (req.mode === 'connect') {
    if (req.connectionMode === 'shared' && req.context === undefined) throw badRequest("context is required when connectionMode is 'shared'");
    if (integration.providerId === 'slack' && scopes.includes('incoming-webhook') && req.subscriberId === undefined) {
      throw badRequest('subscriberId is required for the incoming-webhook scope');
    }
    // The connection the callback makes would take this identifier: one already taken is refused now.
    if (req.connectionIdentifier !== undefined && store.connections.find(env.id, req.connectionIdentifier)) {
      throw conflict(`Channel connection with identifier '${req.connectionIdentifier}' already exists`);
    }
  } else if (req.connectionIdentifier !== undefined && !store.connections.find(env.id, req.connectionIdentifier)) {
    throw notFound(`Channel connection with identifier '${req.connectionIdentifier}' not found`);
  }
  const credentials = (integration.credentials ?? {}) as Record<string, unknown>;
  const clientId = typeof credentials.clientId === 'string' && credentials.clientId ? credentials.clientId : undefined;
  if (!clientId) {
    throw badRequest(
      `Integration '${integration.identifier}' has no clientId credential: set it with PUT /v1/integrations/${integration._id ?? '{integrationId}'}`,
    );
  }
  const state = signOauthState(env.apiKey, {
    environmentId: env.id,
    organizationId: env.orgId,
    integrationIdentifier: integration.identifier,
    providerId: integration.providerId,
    mode: req.mode,
    ...(req.subscriberId !== undefined && { subscriberId: req.subscriberId }),
    ...(req.connectionIdentifier !== undefined && { connectionIdentifier: req.connectionIdentifier }),
    ...(req.context !== undefined && { context: req.context }),
    ...(req.mode === 'connect' && req.connectionMode !== undefined && { connectionMode: req.connectionMode }),
    ...(req.mode === 'connect' && req.autoLinkUser !== undefined && { autoLinkUser: req.autoLinkUser }),
    expiresAt: svc.clock.now() + OAUTH_STATE_TTL_MS,
  });
  return { url: authorizeUrl(integration, credentials, clientId, req, state) };
}

function authorizeUrl(integration: Integration, credentials: Record<string, unknown>, clientId: string, req: OauthRequest, state: string): string {
  const redirect: Record<string, string> =
    typeof credentials.redirectUrl === 'string' && credentials.redirectUrl ? { redirect_uri: credentials.redirectUrl } : {};
  if (integration.providerId === 'slack') {
    const scopes: Record<string, string> =
      req.mode === 'link_user'
        ? { user_scope: (req.userScope ?? SLACK_DEFAULT_USER_SCOPES).join(',') }
        : { scope: (req.scope ?? SLACK_DEFAULT_SCOPES).join(',') };
    return `https://slack.com/oauth/v2/authorize?${new URLSearchParams({ client_id: clientId, ...scopes, ...redirect, state })}`;
  }
  // MS Teams: a tenant admin's consent for the app (connect), or a user's sign-in (link_user).
  const tenant = encodeURIComponent(typeof credentials.tenantId === 'string' && credentials.tenantId ? credentials.tenantId : 'common');
  if (req.mode === 'connect') {
    return `https://login.microsoftonline.com/${tenant}/adminconsent?${new URLSearchParams({ client_id: clientId, ...redirect, state })}`;
  }
  const query = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: MS_TEAMS_USER_SCOPES.join(' '), ...redirect, state });
  return `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize?${query}`;
}

export const generateChatOauthUrl: Route<'generateChatOauthUrl'> = {
  envelope: 'data',
  handle: ({ svc, env, body }) => oauthUrl(svc, env, { ...body, mode: body.mode ?? 'connect' }),
};

export const generateConnectOauthUrl: Route<'generateConnectOauthUrl'> = {
  envelope: 'data',
  handle: ({ svc, env, body }) => oauthUrl(svc, env, { ...body, mode: 'connect' }),
};

export const generateLinkUserOauthUrl: Route<'generateLinkUserOauthUrl'> = {
  envelope: 'data',
  handle: ({ svc, env, body }) => oauthUrl(svc, env, { ...body, mode: 'link_user' }),
};

// The chat OAuth URL requests (openapi's GenerateChatOauthUrlRequestDto, GenerateConnectOauthUrlRequestDto,
// GenerateLinkUserOauthUrlRequestDto) and their one answer, `{url}`: the provider's authorize page, with
// a signed state that expires after 5 minutes.
import { z } from 'zod';
import { ContextPayload } from './common.js';
import { ConnectionMode } from './enums.js';

const CHAT_OAUTH_MODES = ['connect', 'link_user'] as const;
export const ChatOauthMode = z.enum(CHAT_OAUTH_MODES);
export type ChatOauthMode = z.infer<typeof ChatOauthMode>;

const common = {
  integrationIdentifier: z.string().min(1, 'must not be empty'),
  connectionIdentifier: z.string().min(1, 'must not be empty').optional(),
  context: ContextPayload.optional(),
};
const Scopes = z.array(z.string().min(1, 'must not be empty'));

/** POST /v1/integrations/channel-connections/oauth: a workspace (Slack) or tenant (MS Teams) connection. */
export const ConnectOauthUrlBody = z.looseObject({
  ...common,
  subscriberId: z.string().min(1, 'must not be empty').optional(),
  scope: Scopes.optional(),
  connectionMode: ConnectionMode.optional(),
  autoLinkUser: z.boolean().optional(),
});
export type ConnectOauthUrlBody = z.infer<typeof ConnectOauthUrlBody>;

/** POST /v1/integrations/channel-endpoints/oauth: links one subscriber to their chat identity. */
export const LinkUserOauthUrlBody = z.looseObject({
  ...common,
  subscriberId: z.string().min(1, 'must not be empty'),
  userScope: Scopes.optional(),
});
export type LinkUserOauthUrlBody = z.infer<typeof LinkUserOauthUrlBody>;

/** POST /v1/integrations/chat/oauth (deprecated): either of the two, chosen by `mode` (default connect). */
export const ChatOauthUrlBody = ConnectOauthUrlBody.extend({ userScope: Scopes.optional(), mode: ChatOauthMode.optional() });
export type ChatOauthUrlBody = z.infer<typeof ChatOauthUrlBody>;

export const ChatOauthUrl = z.looseObject({ url: z.string() });
export type ChatOauthUrl = z.infer<typeof ChatOauthUrl>;

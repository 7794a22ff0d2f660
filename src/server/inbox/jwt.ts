// Subscriber session tokens: HS256 JSON Web Tokens (audience `widget_user`, issuer `novu_api`, 15 days),
// signed with a secret of the environment's kept in the store, so a token outlives a restart of
// `svc dev` but not a new store. Verification is strict: the header, signature, audience and expiry.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Environment, Store } from '../store/index.js';

const TOKEN_AUDIENCE = 'widget_user';
const TOKEN_LIFETIME_S = 15 * 24 * 3600;

export interface SubscriberClaims {
  _id: string;
  subscriberId: string;
  environmentId: string;
  organizationId: string;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  email?: string | null | undefined;
}

interface Payload extends SubscriberClaims {
  aud: string;
  iss: string;
  iat: number;
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(data: string, secret: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

/** `nowMs`: service time. */
export function issueToken(claims: SubscriberClaims, secret: string, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const payload: Payload = { ...claims, aud: TOKEN_AUDIENCE, iss: 'novu_api', iat, exp: iat + TOKEN_LIFETIME_S };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${sign(body, secret)}`;
}

/**
 * The token's claims, or undefined when it is malformed, not signed with its environment's secret,
 * for another audience, or expired. `secretOf`: the secret of the environment the token names.
 */
export function verifyToken(token: string, secretOf: (envId: string) => string | undefined, nowMs: number): SubscriberClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, body, signature] = parts as [string, string, string];
  if (header !== HEADER) return undefined;
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || typeof payload.environmentId !== 'string') return undefined;
  const secret = secretOf(payload.environmentId);
  if (secret === undefined) return undefined;
  const expected = Buffer.from(sign(`${header}.${body}`, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  if (payload.aud !== TOKEN_AUDIENCE || typeof payload.exp !== 'number' || payload.exp * 1000 <= nowMs) return undefined;
  if (typeof payload._id !== 'string' || typeof payload.subscriberId !== 'string') return undefined;
  return payload as SubscriberClaims;
}

/** hex HMAC-SHA256 of the subscriberId with the environment's secret key, as the service checks `subscriberHash`. */
export function subscriberHash(apiKey: string, subscriberId: string): string {
  return createHmac('sha256', apiKey).update(subscriberId).digest('hex');
}

/** Whether `given` is the subscriber's hash, compared in constant time (no timing tells its prefix). */
export function subscriberHashMatches(apiKey: string, subscriberId: string, given: string): boolean {
  const expected = Buffer.from(subscriberHash(apiKey, subscriberId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * The hash an <Inbox/> of this subscriber must send when the environment's in-app integration has HMAC
 * on; undefined while it is off (a session needs none).
 */
export function inboxHashFor(store: Store, env: Environment, subscriberId: string): string | undefined {
  const inApp = store.integrations.forChannel(env.id, 'in_app');
  return (inApp?.credentials as { hmac?: unknown } | undefined)?.hmac === true ? subscriberHash(env.apiKey, subscriberId) : undefined;
}

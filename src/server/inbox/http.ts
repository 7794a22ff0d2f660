// What the Inbox's routes are, and the rules app.ts applies to them beside the operator API's: the
// origin check (only the pages origins.ts lets in, with CORS answers naming them) and the subscriber
// of a session token. Rate limits, idempotency keys (kept per subscriber: one subscriber's key never
// replays another's answer) and the one transaction per request are app.ts's, as for every route.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Subscriber } from '../../api/schemas/resources.js';
import { fieldErrors, HttpError, unprocessable } from '../errors.js';
import type { Service } from '../handlers/types.js';
import type { Environment } from '../store/index.js';
import type { SubscriberClaims } from './jwt.js';
import type { InboxOrigins } from './origins.js';
import type { Realtime } from './realtime.js';

export const INBOX_PREFIX = '/v1/inbox/';

export interface Who {
  env: Environment;
  subscriber: Subscriber & { _id: string };
}

/** A route's answer: its status and body (none: 204), and what to do once it has committed. */
export interface Reply {
  status: number;
  body?: unknown;
  after?: () => void;
}

/** What an Inbox route reads of its request. */
export interface InboxRequest<P = Record<string, string>> {
  params: P;
  query: Record<string, unknown>;
  body: unknown;
  url: string;
}

/** What an Inbox route works with beside its request. */
interface InboxContext {
  svc: Service;
  realtime: Realtime;
}

/** A route of a subscriber's session (Bearer token). */
interface SubscriberRoute<P = Record<string, string>> {
  auth: 'subscriber';
  handle(req: InboxRequest<P>, w: Who, ctx: InboxContext): Reply;
}

/** A route without a session (the session itself), for the environment `inboxSessionEnv` finds in its body. */
export interface SessionRoute {
  auth: 'session';
  handle(req: InboxRequest, ctx: InboxContext): Reply;
}

/** The environment a session body names by its application identifier, if any. */
export function inboxSessionEnv(body: unknown, svc: Service): Environment | undefined {
  const { store } = svc;
  const id = (body as { applicationIdentifier?: unknown } | undefined)?.applicationIdentifier;
  return typeof id === 'string' && id !== '' ? store.inbox.environmentOf(id, (e) => store.environments.findById(e)) : undefined;
}

export type InboxRoute = SubscriberRoute<never> | SessionRoute;

export const subscriberRoute = <P = Record<string, string>>(handle: SubscriberRoute<P>['handle']): SubscriberRoute<P> => ({ auth: 'subscriber', handle });

const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
/** What the Inbox clients send (and an idempotency key); nothing a page asks for beyond these. */
const CORS_HEADERS = 'Authorization,Content-Type,Novu-API-Version,Novu-Client-Version,Novu-Application-Identifier,Idempotency-Key';
const CORS_EXPOSED = 'RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,RateLimit-Policy,Retry-After,Idempotency-Key,Idempotency-Replay';

export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw unprocessable('Validation Error', fieldErrors(r.error, input));
  return r.data;
}

interface InboxGateOptions {
  origins: InboxOrigins;
  /** A page of an origin not let in asked (once per origin). */
  onRefusedOrigin?: ((origin: string) => void) | undefined;
}

/** The Inbox's rules at the door: which pages may call, and who a session token is. */
export class InboxGate {
  private readonly refused = new Set<string>();

  constructor(
    private readonly svc: Service,
    private readonly opts: InboxGateOptions,
    private readonly authenticate: (token: string) => SubscriberClaims | undefined,
  ) {}

  /** The subscriber of the request's session token; 401 in the service's shape otherwise. */
  who(req: FastifyRequest): Who {
    const { store } = this.svc;
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const claims = token ? this.authenticate(token) : undefined;
    const env = claims ? store.environments.findById(claims.environmentId) : undefined;
    const subscriber = claims && env ? store.subscribers.findById(claims._id) : undefined;
    if (!claims || !env || !subscriber || subscriber._environmentId !== env.id) throw new HttpError(401, 'Unauthorized');
    return { env, subscriber: subscriber as Subscriber & { _id: string } };
  }

  /** Every request under /v1/inbox/ (a route's, a preflight, an unknown path): 403 to a page not let in. */
  cors(req: FastifyRequest, reply: FastifyReply): void {
    const origin = req.headers.origin;
    if (!this.opts.origins.allows(origin, req.headers.host)) {
      if (origin !== undefined && !this.refused.has(origin) && this.refused.size < 100) {
        this.refused.add(origin);
        this.opts.onRefusedOrigin?.(origin);
      }
      throw new HttpError(403, `Origin ${origin} may not use this Inbox API: svc dev answers pages of loopback origins only (add others with --inbox-origin)`);
    }
    if (origin === undefined) return;
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Vary', 'Origin');
    reply.header('Access-Control-Expose-Headers', CORS_EXPOSED);
  }

  /** The answer to a page's preflight (`OPTIONS /v1/inbox/*`), once `cors` let it in. */
  preflight(reply: FastifyReply): FastifyReply {
    return reply
      .header('Access-Control-Allow-Methods', CORS_METHODS)
      .header('Access-Control-Allow-Headers', CORS_HEADERS)
      .header('Access-Control-Max-Age', '7200')
      .code(204)
      .send();
  }
}

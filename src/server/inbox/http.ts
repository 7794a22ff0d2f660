// What every route of the Inbox API goes through, as the operator API's routes go through app.ts:
// the origin check (only the pages origins.ts lets in, with CORS answers naming them), the
// subscriber's session token, rate limits (the environment's `global` category, when svc dev limits
// at all), idempotency keys (POST and PATCH, kept per subscriber: one subscriber's key never replays
// another's answer), and one transaction per request whose answer leaves once it has committed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Subscriber } from '../../api/schemas/resources.js';
import { fieldErrors, HttpError, unprocessable } from '../errors.js';
import type { Service } from '../handlers/types.js';
import { checkIdempotency, finishIdempotency } from '../idempotency.js';
import type { RateLimiter } from '../rate-limit.js';
import type { Environment } from '../store/index.js';
import type { SubscriberClaims } from './jwt.js';
import type { InboxOrigins } from './origins.js';

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

export interface InboxHttpOptions {
  origins: InboxOrigins;
  limiter?: RateLimiter | undefined;
  /** A page of an origin not let in asked (once per origin). */
  onRefusedOrigin?: ((origin: string) => void) | undefined;
}

const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
/** What the Inbox clients send (and an idempotency key); nothing a page asks for beyond these. */
const CORS_HEADERS = 'Authorization,Content-Type,Novu-API-Version,Novu-Client-Version,Novu-Application-Identifier,Idempotency-Key';
const CORS_EXPOSED = 'RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,RateLimit-Policy,Retry-After,Idempotency-Key,Idempotency-Replay';
const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);

export function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw unprocessable('Validation Error', fieldErrors(r.error, input));
  return r.data;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Pending {
  scope: string;
  key: string;
}

export class InboxHttp {
  private readonly pending = new WeakMap<FastifyRequest, Pending>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly svc: Service,
    private readonly opts: InboxHttpOptions,
    private readonly authenticate: (token: string) => SubscriberClaims | undefined,
  ) {
    // Callback hooks, as app.ts's: every request of the service passes them, and an async hook costs
    // each a promise.
    app.addHook('onRequest', (req, reply, done) => {
      if (!req.url.startsWith(INBOX_PREFIX)) return done();
      try {
        this.cors(req, reply);
      } catch (e) {
        return done(e as Error);
      }
      done();
    });
    app.options('/v1/inbox/*', async (_req, reply) =>
      reply
        .header('Access-Control-Allow-Methods', CORS_METHODS)
        .header('Access-Control-Allow-Headers', CORS_HEADERS)
        .header('Access-Control-Max-Age', '7200')
        .code(204)
        .send(),
    );
    // An answer that is not the route's own (an error): kept for its key as the operator API keeps it.
    app.addHook('onSend', (req, reply, payload, done) => {
      const p = this.pending.get(req);
      if (p) {
        this.pending.delete(req);
        try {
          finishIdempotency(this.svc.store, p.scope, p.key, reply.statusCode, typeof payload === 'string' ? payload : '');
        } catch (e) {
          return done(e as Error);
        }
      }
      done(null, payload);
    });
  }

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

  /** A route of a subscriber's session (Bearer token). */
  route<P = Record<string, string>>(method: Method, url: string, handle: (req: FastifyRequest<{ Params: P }>, w: Who) => Reply): void {
    this.app.route<{ Params: P }>({
      method,
      url,
      handler: async (req, reply) => {
        const w = this.who(req);
        return this.run(req, reply, w.env, `inbox:${w.subscriber._id}`, () => handle(req, w));
      },
    });
  }

  /** A route without a session (the session itself): `envOf` names the environment it is for, if any. */
  open(method: Method, url: string, envOf: (req: FastifyRequest) => Environment | undefined, handle: (req: FastifyRequest) => Reply): void {
    this.app.route({
      method,
      url,
      handler: async (req, reply) => {
        const env = envOf(req);
        return this.run(req, reply, env, env ? `inbox-session:${env.id}` : undefined, () => handle(req));
      },
    });
  }

  private async run(req: FastifyRequest, reply: FastifyReply, env: Environment | undefined, scope: string | undefined, handle: () => Reply) {
    const { store } = this.svc;
    if (env && this.opts.limiter) {
      const d = this.opts.limiter.take(env.id, 'global', 1);
      reply.headers(d.headers);
      if (!d.allowed) throw new HttpError(429, 'API rate limit exceeded');
    }
    const key = req.headers['idempotency-key'];
    if (scope !== undefined && typeof key === 'string' && key !== '' && IDEMPOTENT_METHODS.has(req.method)) {
      const outcome = checkIdempotency(store, scope, key, req.body);
      reply.header('Idempotency-Key', key);
      if (outcome.kind === 'replay') {
        // The kept answer may belong to a batch that has not committed yet: its replay waits for it too.
        if (store.batchOpen) await store.grouped(() => undefined).committed;
        return reply.header('Idempotency-Replay', 'true').code(outcome.status).type('application/json; charset=utf-8').send(outcome.body);
      }
      this.pending.set(req, { scope, key });
    }
    // The route's reads and writes, and the answer kept for its key, commit together.
    const { value: answer, committed } = store.grouped(() => {
      const r = handle();
      const payload = r.body === undefined ? '' : JSON.stringify(r.body);
      const p = this.pending.get(req);
      if (p) {
        this.pending.delete(req);
        finishIdempotency(store, p.scope, p.key, r.status, payload);
      }
      return { ...r, payload };
    });
    await committed;
    answer.after?.();
    if (answer.body === undefined) return reply.code(answer.status).send();
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.payload);
  }

  private cors(req: FastifyRequest, reply: FastifyReply): void {
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
}

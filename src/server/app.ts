// The HTTP face of the local service: one fastify route per row of the operation table (the operator
// API's `routes` and the Inbox's `inboxRoutes`), each validating its path, query and body with the
// table's zod schemas before a plain handler runs. Around them: authentication (an API key, or an
// Inbox session), rate limiting, idempotency keys, the service's envelopes and its one error shape.
// A route's handler and the schemas load when it is first called. `buildApp` opens no socket, so tests
// drive it with `app.inject`.
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Operation, OperationName } from '../api/operations.js';
import { inboxRoutes } from '../api/inbox-routes.js';
import { routes as operatorRoutes, type Route as TableRow } from '../api/routes.js';
import { bodyLimitFor, DEFAULT_BODY_BYTES } from '../api/limits.js';
import { shapes } from '../api/shape-validators.js';
import { authenticate } from './auth.js';
import { registerConsole } from './console/index.js';
import { INBOX_PREFIX, type Inbox, inboxRoutes as inboxHandlers, inboxSessionEnv, openInbox } from './inbox/index.js';
import type { InboxRequest, InboxRoute, Reply, Who } from './inbox/http.js';
import { registerOutbox } from './outbox/index.js';
import { iso } from './clock.js';
import { errorBody, fieldErrors, HttpError, unprocessable } from './errors.js';
import { routes as handlers, type Service } from './handlers/index.js';
import { MULTIPART_ROUTES } from '../api/routes-translations.js';
import type { Call, Route } from './handlers/types.js';
import { checkIdempotency, finishIdempotency } from './idempotency.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import { RateLimiter, type RateLimits } from './rate-limit.js';
import type { Environment } from './store/index.js';

/** The body limit of a route without one of its own (the Inbox's, unknown paths): the service's default. */
export const DEFAULT_BODY_LIMIT = DEFAULT_BODY_BYTES;
/**
 * An error answered before a request's body was read (413, 401, 404...) first reads and discards the
 * rest of it, up to this many bytes: a client that writes its whole body before reading (Node's
 * fetch, the SDKs built on it) otherwise meets a closed socket (EPIPE, "fetch failed") instead of the
 * answer. Past this, the answer goes out and the connection closes.
 */
export const DISCARD_LIMIT = 32 * 1024 * 1024;

interface AppOptions {
  service: Service;
  /** Largest accepted request body in bytes on every route (413 above); by default the service's own limit of each route. */
  bodyLimit?: number;
  /** Requests per second per category; rate limiting is off when absent. */
  rateLimits?: RateLimits | undefined;
  /** One line per answered request; never given keys, tokens or query strings. */
  log?: (line: string) => void;
  /** A request failed with a 500: the caller only sees the error id. */
  onInternalError?: (error: unknown, errorId: string) => void;
  /** Origins whose pages may use the Inbox API besides loopback ones (`svc dev --inbox-origin`). */
  inboxOrigins?: readonly string[] | undefined;
  /** Something the person running the service should know (an Inbox page of a refused origin). */
  warn?: ((line: string) => void) | undefined;
}

/** Every route the app serves: the operator API's and the Inbox's, by name. */
const serviceRoutes: Readonly<Record<string, TableRow>> = { ...operatorRoutes, ...inboxRoutes };

interface RequestState {
  row: TableRow;
  env?: Environment;
  /** The Inbox session's subscriber (routes with `auth: 'subscriber'`). */
  who?: Who;
  /** Whose idempotency keys the request's is among: the organisation's, or an Inbox subscriber's. */
  keyScope?: string;
  idempotency?: { scope: string; key: string };
  started: number;
}

const IDEMPOTENT_METHODS = new Set(['POST', 'PATCH']);
const JSON_TYPE = 'application/json; charset=utf-8';

export function buildApp(opts: AppOptions): FastifyInstance {
  const { service } = opts;
  const { clock } = service;
  const limiter = opts.rateLimits ? new RateLimiter(opts.rateLimits, clock) : undefined;
  const state = new WeakMap<FastifyRequest, RequestState>();

  const app = Fastify({
    logger: false,
    // A malformed URL (bad percent-encoding) or an over-long path parameter is refused by fastify
    // before routing, in its own error shape; answer in the service's.
    frameworkErrors: (err, req, reply) => {
      const tooLong = (err as FastifyError).code === 'FST_ERR_MAX_PARAM_LENGTH';
      void sendError(req, reply, new HttpError(tooLong ? 414 : 400, tooLong ? 'A path parameter is too long' : `Malformed URL: ${req.url.split('?')[0]}`));
    },
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: 1000 },
    // HEAD is answered by each GET route itself (headAsGet), not by a HEAD twin registered per route.
    exposeHeadRoutes: false,
    serverFactory: headAsGet,
    // Closing waits for requests in flight and drops idle keep-alive connections.
    forceCloseConnections: 'idle',
    // Routes validate with the operation table's zod schemas, never with JSON Schema: fastify's own
    // compilers (ajv, fast-json-stringify) are not loaded.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  });

  // JSON only: other media types are 415; an empty body is "no body" (set-primary has none).
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '') return done(null, undefined);
    parseJson(req, body as string, (err, value) => {
      // Validation and error reporting walk the body recursively: a body nested thousands of levels
      // deep (well within the size limit) would overflow the stack and answer 500.
      if (!err && nestedDeeperThan(value)) return done(new HttpError(400, `Request body nests more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      done(err, value);
    });
  });

  // Multipart only for the routes that read files (they parse it themselves, `parseBody`/`prepare`);
  // every other route still answers 415 to it.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, bytes, done) => {
    const name = (req.routeOptions.config as { opName?: OperationName }).opName;
    if (!name || !(MULTIPART_ROUTES as readonly string[]).includes(name)) {
      return done(new HttpError(415, `Unsupported Media Type: send the body as application/json (got ${req.headers['content-type']})`), undefined);
    }
    done(null, { contentType: req.headers['content-type'], bytes });
  });

  const inbox = openInbox(app.server, service, {
    origins: opts.inboxOrigins,
    onRefusedOrigin: (origin) =>
      opts.warn?.(
        `refused the Inbox API to a page of ${printable(origin)}: only loopback origins are let in (svc dev --inbox-origin ${printable(origin)} adds it)`,
      ),
  });
  app.addHook('preClose', async () => inbox.realtime.close());
  const doors = { service, limiter, state, inbox };
  addAccessHooks(app, doors);
  addIdempotencyHooks(app, doors);

  if (opts.log) {
    const log = opts.log;
    app.addHook('onResponse', async (req, reply) => {
      const s = state.get(req);
      const ms = s ? ` ${(performance.now() - s.started).toFixed(1)}ms` : '';
      log(`${HEAD_REQUESTS.has(req.raw) ? 'HEAD' : req.method} ${req.url.split('?')[0]} ${reply.statusCode}${ms}`);
    });
  }

  for (const [name, row] of Object.entries(serviceRoutes)) {
    app.route({
      method: row.method,
      url: row.path.replace(/\{(\w+)\}/g, ':$1'),
      bodyLimit: opts.bodyLimit ?? bodyLimitFor(row.path),
      config: { opName: name },
      handler: row.auth ? inboxHandler(name as keyof typeof inboxRoutes, doors) : operatorHandler(name as OperationName, row, doors),
    });
  }
  // A page's preflight of any Inbox route: the origin was checked by the access hook.
  app.options(`${INBOX_PREFIX}*`, (_req, reply) => inbox.gate.preflight(reply));

  registerConsole(app, service);
  registerOutbox(app, service);

  app.setNotFoundHandler((req, reply) => sendError(req, reply, new HttpError(404, `Cannot ${req.method} ${req.url.split('?')[0]}`)));

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => sendError(req, reply, toHttpError(err, req, opts)));

  async function sendError(req: FastifyRequest, reply: FastifyReply, e: HttpError): Promise<FastifyReply> {
    if (e.extra.headers) reply.headers(e.extra.headers);
    // fastify closes the connection after a body it gave up on; once that body has been read to
    // its end the connection is as good as any and stays open.
    if (!(await discardBody(req.raw, DISCARD_LIMIT))) reply.header('connection', 'close');
    else if (req.raw.readableEnded) reply.removeHeader('connection');
    return reply.code(e.status).send(errorBody(e, req.url, iso(clock.now())));
  }

  return app;
}

/** What the hooks and handlers of the routes share. */
interface Doors {
  service: Service;
  limiter: RateLimiter | undefined;
  state: WeakMap<FastifyRequest, RequestState>;
  inbox: Inbox;
}

/**
 * The HTTP server, on which a HEAD request is routed as the GET it asks about: Node writes no body in
 * the answer to a HEAD request (its response was made for that method), so the GET route's status and
 * headers are the answer, as with fastify's HEAD twin of each GET route, which the route table then
 * need not hold. The timeouts are the ones fastify sets on a server it makes itself.
 */
/** Requests that came as HEAD (the log says so). */
const HEAD_REQUESTS = new WeakSet<IncomingMessage>();

function headAsGet(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  opts: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number },
): Server {
  const server = createServer((req, res) => {
    if (req.method === 'HEAD') {
      HEAD_REQUESTS.add(req);
      req.method = 'GET';
    }
    handler(req, res);
  });
  if (opts.keepAliveTimeout !== undefined) server.keepAliveTimeout = opts.keepAliveTimeout;
  if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
  server.setTimeout(opts.connectionTimeout ?? 0);
  return server;
}

/** fastify's schema compilers, which no route uses. */
function noSchemas(): never {
  throw new Error('svc dev routes validate with the operation table, not with fastify schemas');
}

/**
 * Who may call: an Inbox page's origin (every path under /v1/inbox/, known or not), then an operator
 * route's API key and rate limit, answered before its body is read. An Inbox route's session is
 * checked once its body is read (the session route's environment is named in its body).
 */
function addAccessHooks(app: FastifyInstance, { service, limiter, state, inbox }: Doors): void {
  const { store } = service;
  const take = (env: Environment, row: TableRow, reply: FastifyReply) => {
    if (!limiter) return;
    const d = limiter.take(env.id, row.category, row.cost ?? 1);
    reply.headers(d.headers);
    if (!d.allowed) throw new HttpError(429, 'API rate limit exceeded');
  };
  // The hooks take a callback rather than returning a promise: fastify then runs the next step at
  // once instead of a microtask later, with no promise per hook and request.
  app.addHook('onRequest', (req, reply, done) => {
    try {
      if (req.url.startsWith(INBOX_PREFIX)) inbox.gate.cors(req, reply);
      const name = (req.routeOptions.config as { opName?: string }).opName;
      if (!name) return done();
      const row = serviceRoutes[name]!;
      const s: RequestState = { row, started: performance.now() };
      state.set(req, s);
      if (row.auth) return done();
      s.env = authenticate(req.headers.authorization, (k) => store.environments.findByKey(k));
      s.keyScope = s.env.orgId;
      take(s.env, row, reply);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
  app.addHook('preValidation', (req, reply, done) => {
    const s = state.get(req);
    if (!s?.row.auth) return done();
    try {
      if (s.row.auth === 'subscriber') {
        s.who = inbox.gate.who(req);
        s.env = s.who.env;
        s.keyScope = `inbox:${s.who.subscriber._id}`;
      } else {
        s.env = inboxSessionEnv(req.body, service);
        s.keyScope = s.env ? `inbox-session:${s.env.id}` : undefined;
      }
      if (s.env) take(s.env, s.row, reply);
    } catch (e) {
      return done(e as Error);
    }
    done();
  });
}

/** Idempotency keys: a replay answers from what was kept; any other answer is kept for its key. */
function addIdempotencyHooks(app: FastifyInstance, { service, state }: Doors): void {
  const { store } = service;
  app.addHook('preHandler', (req, reply, done) => {
    const s = state.get(req);
    const key = req.headers['idempotency-key'];
    // An empty key (the header sent with no value) asks for nothing: as one real key it would join
    // every such request of the organisation, unrelated ones, into a single slot.
    if (s?.keyScope === undefined || typeof key !== 'string' || key === '' || !IDEMPOTENT_METHODS.has(req.method)) return done();
    let outcome: ReturnType<typeof checkIdempotency>;
    try {
      outcome = checkIdempotency(store, s.keyScope, key, req.body);
    } catch (e) {
      return done(e as Error);
    }
    reply.header('Idempotency-Key', key);
    if (outcome.kind === 'replay') {
      const { status, body } = outcome;
      // Replying from a callback hook: send, and do not call done.
      const replay = () => void reply.header('Idempotency-Replay', 'true').code(status).type(JSON_TYPE).send(body);
      // The kept answer may have been written by a batch that has not committed yet (the original
      // ran in this turn of the event loop). Its own reply waits for that COMMIT; so does the
      // replay, or a crash in between would leave an acknowledged answer the store never kept.
      if (store.batchOpen) store.grouped(() => undefined).committed.then(replay, (e: unknown) => done(e as Error));
      else replay();
      return;
    }
    s.idempotency = { scope: s.keyScope, key };
    done();
  });

  // An answer that is not the route's own (an error): kept for its key too.
  app.addHook('onSend', (req, reply, payload, done) => {
    const s = state.get(req);
    if (s?.idempotency) {
      try {
        finishIdempotency(store, s.idempotency.scope, s.idempotency.key, reply.statusCode, typeof payload === 'string' ? payload : '');
      } catch (e) {
        return done(e as Error);
      }
      s.idempotency = undefined;
    }
    done(null, payload);
  });
}

/**
 * Runs a route's handler and keeps its answer for the request's idempotency key in one transaction.
 * Apart, a process killed between the two commits had acted on a request whose key a retry then found
 * unanswered (an unfinished key is dropped at restart), and the retry acted again. Every answer waits
 * for the group commit of the batch it ran in (see Store.grouped): a 201 is only sent once the trigger
 * is committed to the WAL file, and a read never shows what a crash could still take back.
 */
async function committed<T extends { status: number; payload: string }>(service: Service, s: RequestState, run: () => T): Promise<T> {
  const { store } = service;
  const { value, committed } = store.grouped(() => {
    const answer = run();
    if (s.idempotency) {
      finishIdempotency(store, s.idempotency.scope, s.idempotency.key, answer.status, answer.payload);
      s.idempotency = undefined;
    }
    return answer;
  });
  await committed;
  return value;
}

/** The operation table's schemas (zod), loaded with the first route that validates. */
let schemas: Promise<Record<OperationName, Operation>> | undefined;
const operationSchemas = () => (schemas ??= import('../api/operations.js').then((m) => m.operations as Record<OperationName, Operation>));
/** What a route that takes nothing to check validates: nothing (the build lists these routes; from source, every route loads its schemas). */
const NOTHING_TO_CHECK: Pick<Operation, 'name' | 'params' | 'query' | 'body'> = { name: '', params: undefined, query: undefined, body: undefined };

/** An operator route: its handler and schemas loaded on its first call, then a validated call. */
function operatorHandler(name: OperationName, row: TableRow, { service, state }: Doors) {
  let loaded: { route: Route<OperationName>; op: Pick<Operation, 'name' | 'params' | 'query' | 'body'> } | undefined;
  const load = async () => {
    const checks = !shapes?.withoutInput.includes(name);
    const [route, ops] = await Promise.all([handlers[name]() as Promise<Route<OperationName>>, checks ? operationSchemas() : undefined]);
    return (loaded = { route, op: ops ? ops[name] : NOTHING_TO_CHECK });
  };
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const s = state.get(req)!;
    const { route, op } = loaded ?? (await load());
    const params = validateParams(op, req.params as Record<string, string>);
    const call = {
      env: s.env!,
      params,
      query: op.query ? validate(op.query, req.query ?? {}) : undefined,
      // A route may check its own body (bulk trigger: each event on its own, not all or nothing).
      body: 'parseBody' in route ? (route.parseBody as (b: unknown) => unknown)(req.body) : op.body ? validate(op.body, req.body) : undefined,
      svc: service,
      baseUrl: `${req.protocol}://${req.host}`,
    } as Call<OperationName>;
    // Network work a route does before its transaction (a bridge's discovery or preview).
    if ('prepare' in route) (call as { prepared?: unknown }).prepared = await (route.prepare as (c: unknown) => Promise<unknown>)(call);
    const answer = await committed(service, s, () => {
      const result = route.handle(call);
      const status = route.envelope === 'none' ? 204 : row.status;
      const payload = route.envelope === 'none' ? '' : JSON.stringify(route.envelope === 'data' ? { data: result } : result);
      return { status, payload };
    });
    if (answer.status === 204) return reply.code(204).send();
    return reply.code(answer.status).type(JSON_TYPE).send(answer.payload);
  };
}

/** An Inbox route: its handler loaded on its first call; what it changes is announced once committed. */
function inboxHandler(name: keyof typeof inboxRoutes, { service, state, inbox }: Doors) {
  let loaded: InboxRoute | undefined;
  const ctx = { svc: service, realtime: inbox.realtime };
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const s = state.get(req)!;
    const route = loaded ?? (loaded = await inboxHandlers[name]());
    const request = { params: req.params, query: req.query ?? {}, body: req.body, url: req.url } as InboxRequest<never>;
    const answer = await committed(service, s, () => {
      const r: Reply = route.auth === 'session' ? route.handle(request, ctx) : route.handle(request, s.who!, ctx);
      return { ...r, payload: r.body === undefined ? '' : JSON.stringify(r.body) };
    });
    answer.after?.();
    if (answer.body === undefined) return reply.code(answer.status).send();
    return reply.code(answer.status).type(JSON_TYPE).send(answer.payload);
  };
}

/**
 * Reads what is left of a request's body and drops it; false when there is more than `limit` bytes
 * (declared, or seen so far), and the connection should close after the answer.
 */
function discardBody(raw: IncomingMessage, limit: number): Promise<boolean> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve(true);
  if (Number(raw.headers['content-length']) > limit) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (whole: boolean) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onEnd);
      raw.off('close', onEnd);
      if (!whole) raw.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish(false);
    };
    const onEnd = () => finish(raw.readableEnded);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onEnd);
    raw.once('close', onEnd);
    raw.resume();
  });
}

/** A request's header value as a terminal may show it: printable ASCII only, at most 200 characters. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
}

function validate<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input);
  if (!r.success) throw unprocessable('Validation Error', fieldErrors(r.error, input));
  return r.data;
}

function validateParams(op: Pick<Operation, 'name' | 'params'>, params: Record<string, string>): Record<string, string> {
  if (!op.params) return params;
  const r = op.params.safeParse(params);
  if (r.success) return params;
  const errors = fieldErrors(r.error, params);
  const summary = Object.entries(errors)
    .map(([field, e]) => `${field}: ${e.messages.join(', ')}`)
    .join('; ');
  throw unprocessable(`Validation failed for ${op.name}: ${summary}`, errors);
}

/** Anything thrown → a client error with a useful message, or an opaque 500 with an error id. */
function toHttpError(err: FastifyError | HttpError, req: FastifyRequest, opts: AppOptions): HttpError {
  if (err instanceof HttpError) return err;
  const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, `Request body is larger than ${req.routeOptions.bodyLimit ?? opts.bodyLimit ?? DEFAULT_BODY_LIMIT} bytes`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, `Unsupported Media Type: send the body as application/json (got ${req.headers['content-type'] ?? 'none'})`);
  }
  // Only the body parser's errors (status 400) are about the request: a SyntaxError thrown while a
  // handler reads a damaged stored document is the service's fault, and a 500.
  if (status === 400 && (err instanceof SyntaxError || /JSON/i.test(err.message))) {
    return new HttpError(400, `Request body is not valid JSON: ${err.message}`);
  }
  if (status >= 400 && status < 500) return new HttpError(status, err.message);
  const errorId = randomUUID();
  opts.onInternalError?.(err, errorId);
  return new HttpError(500, 'Internal server error', { fields: { errorId } });
}

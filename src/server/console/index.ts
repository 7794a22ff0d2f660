// The web console of `svc dev`: the bundled page (dist/console, built by scripts/build.mjs) on the
// API's port, plus two small routes the page needs beside the public API it otherwise calls:
//   POST /console/session  trades the one-time code of the link `svc dev` prints for the API key, once;
//   GET  /console/live     (ApiKey auth) a server-sent-events stream saying "something changed", so
//                          the page re-reads the public feed at once instead of polling it. It carries
//                          no data of its own: every record the page shows comes from /v1 and /v2.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { authenticate } from '../auth.js';
import { HttpError } from '../errors.js';
import type { Service } from '../handlers/index.js';
import type { Environment } from '../store/index.js';

const CONSOLE_PATH = '/console/';
/** A printed link stays usable this long, and only once. */
const CODE_TTL_MS = 15 * 60_000;
/** How often the live stream looks for changes while a page listens. */
const LIVE_TICK_MS = 150;
const HEARTBEAT_MS = 15_000;

interface ConsoleState {
  codes: Map<string, { envId: string; expires: number }>;
  environment: () => Environment | undefined;
}
const states = new WeakMap<FastifyInstance, ConsoleState>();

/**
 * A one-time code for `/console/#code=...`. The fragment never reaches a server or a request log; the
 * page sends the code in a POST body and forgets it, and the code works once.
 */
export function consoleLoginCode(app: FastifyInstance): string {
  const s = states.get(app);
  if (!s) throw new Error('the console is not registered on this app');
  const env = s.environment();
  if (!env) throw new Error('no environment to sign in to');
  const code = randomBytes(16).toString('base64url'); // 128 bits; the link fits an 80-column terminal
  s.codes.set(code, { envId: env.id, expires: Date.now() + CODE_TTL_MS });
  return code;
}

/** The console's URL and its one-time link, for `svc dev` to print. */
export function consoleLinks(app: FastifyInstance, baseUrl: string): { url: string; link: string } {
  const url = `${baseUrl}${CONSOLE_PATH}`;
  return { url, link: `${url}#code=${consoleLoginCode(app)}` };
}

export function registerConsole(app: FastifyInstance, service: Service): void {
  const { store } = service;
  const state: ConsoleState = { codes: new Map(), environment: () => store.environments.defaultEnvironment() };
  states.set(app, state);

  // The page's files, read with the first request for one of them (page.ts).
  let page: Promise<(reply: FastifyReply, name: string) => FastifyReply> | undefined;
  const send = async (reply: FastifyReply, name: string) => (await (page ??= import('./page.js').then((m) => m.consolePage())))(reply, name);

  app.get('/', (_req, reply) => reply.redirect(CONSOLE_PATH, 302));
  app.get('/console', (_req, reply) => reply.redirect(CONSOLE_PATH, 302));
  app.get(CONSOLE_PATH, (_req, reply) => send(reply, 'index.html'));
  app.get('/console/app.js', (_req, reply) => send(reply, 'app.js'));
  app.get('/console/app.css', (_req, reply) => send(reply, 'app.css'));

  app.post('/console/session', (req, reply) => {
    const code = (req.body as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || code === '') throw new HttpError(400, 'code: expected the one-time code of the console link');
    const now = Date.now();
    let found: { envId: string; expires: number } | undefined;
    for (const [k, v] of state.codes) {
      if (v.expires < now) state.codes.delete(k);
      else if (k.length === code.length && timingSafeEqual(Buffer.from(k), Buffer.from(code))) {
        found = v;
        state.codes.delete(k);
      }
    }
    const env = found && store.environments.findById(found.envId);
    if (!env) throw new HttpError(401, 'This console link was already used or has expired: paste the API key, or restart svc dev for a new link');
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send({ data: { apiKey: env.apiKey, environment: { id: env.id, name: env.name } } });
  });

  // One watcher for all listening pages: `total_changes()` counts every row this connection (the
  // only one writing the store) has inserted, updated or deleted, so a changed count means new
  // activity, a job that moved on, or a message marked read.
  const listeners = new Set<(n: number) => void>();
  const changes = store.db.prepare('SELECT total_changes() AS n');
  let last = -1;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    let n: number;
    try {
      n = (changes.get() as { n: number }).n;
    } catch {
      return; // the store is closing
    }
    if (n === last) return;
    last = n;
    for (const l of listeners) l(n);
  };
  const watch = (l: (n: number) => void) => {
    listeners.add(l);
    if (!timer) {
      last = (changes.get() as { n: number }).n;
      timer = setInterval(tick, LIVE_TICK_MS);
      timer.unref();
    }
    return () => {
      listeners.delete(l);
      if (listeners.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    };
  };
  const open = new Set<() => void>();

  app.get('/console/live', (req, reply) => {
    authenticate(req.headers.authorization, (k) => store.environments.findByKey(k));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write('retry: 1000\n\n');
    res.write(`event: ready\ndata: {}\n\n`);
    const stopWatching = watch((n) => res.write(`event: change\ndata: {"changes":${n}}\n\n`));
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      stopWatching();
      open.delete(end);
      if (!res.writableEnded) res.end();
    };
    open.add(end);
    req.raw.on('close', end);
  });

  // Streams never go idle: end them before the server waits for its connections to close.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
}

// A fault-injecting HTTP proxy for reliability tests: it sits on loopback between `svc` (pointed at it
// with SVC_BASE_URL) and a service, and for each request decides, from a schedule the test gives, to
// pass it through or to break it in one of the ways real networks and gateways do. It logs every
// request with the fault it got and what the service answered, so a test can prove what reached the
// service and what the service did with it.
//
// Bounded: it listens on 127.0.0.1 port 0, answers at most `maxRequests` (the rest get a 503 and are
// counted as `overflow`, which a test should expect to be 0), and closes itself after `lifetimeMs` even
// if a test forgets to. Every timer it starts is cleared by close().
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What happens to one request:
 * - `none`: passed through untouched.
 * - `drop-before`: the connection is closed before anything is forwarded; the service never sees it.
 * - `drop-after`: forwarded and answered by the service, then the connection is closed before the
 *   answer goes back: the request took effect and the client does not know.
 * - `delay`: forwarded, and the answer is held for `delayMs` (set it past the client's timeout).
 * - `429`, `503` (+ `-retry-after`): answered by the proxy without forwarding, as a rate limiter or a
 *   load balancer with no healthy backend does; `-retry-after` adds `Retry-After: <retryAfter>`.
 * - `502` (+ `-retry-after`): forwarded, and the service's answer replaced by a gateway's HTML 502:
 *   the request took effect.
 * - `truncate`: forwarded; the answer's headers (with its Content-Length) and half of its body are
 *   sent, then the connection is closed.
 * - `truncate-clean`: forwarded; half of the body is sent as a complete chunked response, so the
 *   transfer ends normally with JSON cut in the middle.
 */
export type Fault =
  | 'none'
  | 'drop-before'
  | 'drop-after'
  | 'delay'
  | '429'
  | '429-retry-after'
  | '503'
  | '503-retry-after'
  | '502'
  | '502-retry-after'
  | 'truncate'
  | 'truncate-clean';

export const ALL_FAULTS: Exclude<Fault, 'none'>[] = [
  'drop-before',
  'drop-after',
  'delay',
  '429',
  '429-retry-after',
  '503',
  '503-retry-after',
  '502',
  '502-retry-after',
  'truncate',
  'truncate-clean',
];

/** Faults after which the service has seen (and acted on) the request. */
export const FORWARDING_FAULTS = new Set<Fault>(['drop-after', 'delay', '502', '502-retry-after', 'truncate', 'truncate-clean']);

export interface RequestInfo {
  /** 1-based number of this request at the proxy. */
  n: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The request's identity across retries: its idempotency key, else method and URL. */
  key: string;
  /** How many earlier requests had the same key. */
  previousAttempts: number;
  /** How many of those were given a fault. */
  previousFaults: number;
}

export type Schedule = (req: RequestInfo) => Fault;

export interface LogEntry {
  n: number;
  method: string;
  path: string;
  key: string;
  idempotencyKey?: string;
  fault: Fault;
  /** What the service answered, when the request was forwarded and it answered. */
  upstreamStatus?: number;
  /** The service recognised the idempotency key and replayed its first answer. */
  replayed?: boolean;
  /** The service could not be reached (it was down): the client got a 502. */
  upstreamError?: string;
  /** Anything the test extracted from the request (`tag` option), e.g. its transactionId. */
  tag?: string;
}

export interface FaultProxyOptions {
  /** The service's base URL; can be changed later with setTarget (a restarted service). */
  target: string;
  schedule?: Schedule;
  /** How long a `delay` fault holds the answer. */
  delayMs?: number;
  /** The Retry-After value (seconds) of the `-retry-after` faults. */
  retryAfter?: string;
  maxRequests?: number;
  lifetimeMs?: number;
  tag?: (req: { method: string; path: string; body: string }) => string | undefined;
}

export interface FaultProxy {
  url: string;
  log: LogEntry[];
  /** Faults injected so far, by kind (requests passed through are not counted). */
  faults(): Record<string, number>;
  faultCount(): number;
  /** Requests refused because maxRequests was reached. */
  overflow(): number;
  setTarget(url: string): void;
  setSchedule(schedule: Schedule): void;
  close(): Promise<void>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random schedule: each request gets a fault with probability `rate`, the kind drawn from `faults`,
 * and no request identity gets more than `maxFaultsPerKey` faults, so a client with more retries than
 * that always gets through and the test can demand that every command succeeds.
 */
export function randomSchedule(opts: {
  seed: number;
  rate: number;
  faults?: readonly Fault[];
  maxFaultsPerKey?: number;
  only?: (r: RequestInfo) => boolean;
}): Schedule {
  const random = seededRandom(opts.seed);
  const kinds = opts.faults ?? ALL_FAULTS;
  const max = opts.maxFaultsPerKey ?? 2;
  return (r) => {
    const roll = random();
    const pick = random();
    if (opts.only && !opts.only(r)) return 'none';
    if (r.previousFaults >= max || roll >= opts.rate) return 'none';
    return kinds[Math.floor(pick * kinds.length)]!;
  };
}

/** The first `count` attempts of every request identity fail, cycling through `faults`; then it passes. */
export function firstAttemptsFail(faults: readonly Fault[], count: number): Schedule {
  let i = 0;
  return (r) => (r.previousAttempts < count ? faults[i++ % faults.length]! : 'none');
}

export const always =
  (fault: Fault): Schedule =>
  () =>
    fault;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host']);
const MAX_BODY = 8 * 1024 * 1024;

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  let target = new URL(opts.target);
  let schedule: Schedule = opts.schedule ?? (() => 'none');
  const delayMs = opts.delayMs ?? 1500;
  const retryAfter = opts.retryAfter ?? '0';
  const maxRequests = opts.maxRequests ?? 20_000;
  const log: LogEntry[] = [];
  const counts: Record<string, number> = {};
  const perKey = new Map<string, { attempts: number; faults: number }>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let n = 0;
  let overflow = 0;
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const forward = (req: IncomingMessage, body: Buffer): Promise<Upstream> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      headers['content-length'] = String(body.length);
      const up = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      up.on('error', reject);
      up.end(body);
    });

  const passHeaders = (h: IncomingHttpHeaders): Record<string, string | string[]> => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP_BY_HOP.has(k) && k !== 'content-length') out[k] = v;
    return out;
  };

  const reply = (res: ServerResponse, up: Upstream) => {
    if (res.destroyed) return;
    res.writeHead(up.status, { ...passHeaders(up.headers), 'content-length': String(up.body.length) });
    res.end(up.body);
  };

  const errorJson = (status: number, message: string) => JSON.stringify({ statusCode: status, timestamp: new Date().toISOString(), path: '/', message });

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const idem = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const key = idem ?? `${method} ${path}`;
    const seen = perKey.get(key) ?? { attempts: 0, faults: 0 };
    perKey.set(key, seen);
    const text = body.toString('utf8');
    const entry: LogEntry = { n: ++n, method, path, key, fault: 'none' };
    if (idem) entry.idempotencyKey = idem;
    const tag = opts.tag?.({ method, path, body: text });
    if (tag !== undefined) entry.tag = tag;
    log.push(entry);
    if (entry.n > maxRequests) {
      overflow++;
      res.writeHead(503, { 'content-type': 'application/json' }).end(errorJson(503, 'fault proxy: request budget exhausted'));
      return;
    }
    const fault = schedule({ n: entry.n, method, path, headers: req.headers, body: text, key, previousAttempts: seen.attempts, previousFaults: seen.faults });
    seen.attempts++;
    entry.fault = fault;
    if (fault !== 'none') {
      seen.faults++;
      counts[fault] = (counts[fault] ?? 0) + 1;
    }

    const withRetryAfter = fault.endsWith('-retry-after');
    if (fault === 'drop-before') return void req.socket.destroy();
    if (fault === '429' || fault === '429-retry-after' || fault === '503' || fault === '503-retry-after') {
      const status = fault.startsWith('429') ? 429 : 503;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(withRetryAfter ? { 'retry-after': retryAfter } : {}) });
      res.end(errorJson(status, status === 429 ? 'API rate limit exceeded' : 'Service Unavailable'));
      return;
    }

    let up: Upstream;
    try {
      up = await forward(req, body);
    } catch (e) {
      // The service is down (killed, restarting): a gateway answers 502.
      entry.upstreamError = (e as NodeJS.ErrnoException).code ?? String(e);
      if (!res.destroyed) res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    entry.upstreamStatus = up.status;
    if (up.headers['idempotency-replay'] === 'true') entry.replayed = true;

    switch (fault) {
      case 'drop-after':
        return void req.socket.destroy();
      case 'delay':
        return later(delayMs, () => reply(res, up));
      case '502':
      case '502-retry-after':
        res.writeHead(502, { 'content-type': 'text/html', ...(withRetryAfter ? { 'retry-after': retryAfter } : {}) });
        res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'truncate': {
        const half = up.body.subarray(0, Math.floor(up.body.length / 2));
        res.writeHead(up.status, { ...passHeaders(up.headers), 'content-length': String(up.body.length) });
        res.write(half, () => req.socket.destroy());
        return;
      }
      case 'truncate-clean': {
        const half = up.body.subarray(0, Math.floor(up.body.length / 2));
        res.writeHead(up.status, passHeaders(up.headers));
        res.end(half);
        return;
      }
      default:
        reply(res, up);
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.socket.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const close = async () => {
    if (closed) return;
    closed = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    clearTimeout(lifetime);
    for (const s of sockets) s.destroy();
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const lifetime = setTimeout(() => void close(), opts.lifetimeMs ?? 180_000);
  lifetime.unref();

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    faults: () => ({ ...counts }),
    faultCount: () => Object.values(counts).reduce((a, b) => a + b, 0),
    overflow: () => overflow,
    setTarget(url) {
      target = new URL(url);
    },
    setSchedule(s) {
      schedule = s;
    },
    close,
  };
}

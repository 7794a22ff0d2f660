// One request out of svc dev, with everything every caller needs: the loopback guard, the signature,
// a timeout per attempt, retries with backoff (Retry-After honoured), a cap on what an answer may
// hold, and keep-alive connections shared by all callers. What happened comes back as data; `send`
// never throws.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Agent } from 'undici';
import { loadUndici } from '../../core/lazy.js';
import { checkUrl, guardedLookup, REFUSED } from './guard.js';
import { signature } from './signature.js';

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

interface Signing {
  secret: string;
  /** Header names the signature is sent under. */
  headers: readonly string[];
  /** What is signed when the request has no body (a bridge's GET is signed over `{}`). Default `""`. */
  emptyBody?: string;
  /** The signature's time (ms); wall-clock by default: the receiver checks it against its own clock. */
  now?: () => number;
}

interface OutboundRequest {
  url: string;
  method?: Method;
  headers?: Record<string, string>;
  /** The exact text sent (and signed); none when undefined. */
  body?: string;
  sign?: Signing;
  /** Non-loopback targets allowed (the flag was given). */
  allowRemote: boolean;
  /** The flag that allows them, named when a target is refused. */
  allowFlag: string;
  /** Per attempt. Default 5000. */
  timeoutMs?: number;
  /** Attempts after the first one. Default 2. */
  retries?: number;
  /** Statuses tried again. Default 408, 429 and 5xx; network errors and timeouts always are. */
  retryOn?: (status: number) => boolean;
  /** The pause before retry n (1-based), in ms, when the answer gave no Retry-After. */
  backoffMs?: (attempt: number) => number;
  /** Default 16 MiB. */
  maxAnswerBytes?: number;
  /** An answer past maxAnswerBytes: kept up to it (`truncate`), or a failed attempt (`fail`, the default). */
  overLimit?: 'truncate' | 'fail';
  /** Keep every answer header (not only content-type). */
  keepHeaders?: boolean;
  /** Ends a pause between attempts (the service stopping). */
  signal?: AbortSignal;
}

interface OutboundResult {
  ok: boolean;
  url: string;
  method: Method;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  /** The answer's body as text, up to maxAnswerBytes. */
  body?: string;
  truncated?: true;
  attempts: number;
  durationMs: number;
  /** Why it failed: a network error, a timeout, an HTTP status, the guard. */
  error?: string;
  /** The guard refused the target: nothing was sent. */
  refused?: true;
  /** The signature sent with the last attempt. */
  signature?: string;
}

const DEFAULT_MAX_ANSWER = 16 * 1024 * 1024;
const RETRY_STATUS = (s: number) => s === 408 || s === 429 || s >= 500;
const RETRY_AFTER_CAP_MS = 10_000;

// Keep-alive connections shared by every caller: a bridge step or a webhook is one round trip on an
// open socket. One pool for targets checked at connect time (per flag, which the refusal names), one
// for when others are allowed.
// undici loads with the first request svc dev sends.
const pools = new Map<string, Agent>();
async function pool(allowRemote: boolean, allowFlag: string): Promise<Agent> {
  const key = allowRemote ? '' : allowFlag;
  let agent = pools.get(key);
  if (!agent) {
    const { Agent } = await loadUndici();
    agent = pools.get(key);
    if (agent) return agent;
    agent = new Agent({ keepAliveTimeout: 10_000, connections: 128, ...(!allowRemote && { connect: { lookup: guardedLookup(allowFlag) as never } }) });
    pools.set(key, agent);
  }
  return agent;
}

interface Answer {
  status: number;
  contentType?: string;
  retryAfter?: string;
  headers?: Record<string, string>;
  body: string;
  truncated: boolean;
}

interface Limits {
  timeoutMs: number;
  maxBytes: number;
  truncate: boolean;
  keepHeaders: boolean;
  timedOut: boolean;
}

function headerText(raw: Buffer[], keepAll: boolean): Pick<Answer, 'contentType' | 'retryAfter' | 'headers'> {
  const out: Pick<Answer, 'contentType' | 'retryAfter' | 'headers'> = {};
  const all: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    if (name === 'content-type') out.contentType = value;
    else if (name === 'retry-after') out.retryAfter = value;
    if (keepAll) all[name] = all[name] === undefined ? value : `${all[name]}, ${value}`;
  }
  if (keepAll) out.headers = all;
  return out;
}

/**
 * One attempt on the pool, through undici's dispatcher with a handler of its own: only the status, two
 * headers and the body text are kept. The attempt ends after `timeoutMs`, also while the connection
 * is still being made (a timer of its own, cleared with the answer).
 */
function attempt(agent: Agent, url: URL, method: Method, headers: Record<string, string>, body: string | undefined, limits: Limits): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let head: Pick<Answer, 'status' | 'contentType' | 'retryAfter' | 'headers'> = { status: 0 };
    let size = 0;
    let settled = false;
    let truncated = false;
    let abortRequest: ((e?: Error) => void) | undefined;
    const chunks: Buffer[] = [];
    const text = () => (chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    // Before the connection exists there is nothing to abort: the attempt ends here, and the
    // connection, when it comes, is aborted at once (onConnect).
    const timer = setTimeout(() => {
      limits.timedOut = true;
      const e = new Error(`no answer within ${limits.timeoutMs} ms`);
      if (abortRequest) abortRequest(e);
      else settle(() => reject(e));
    }, limits.timeoutMs);
    agent.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body },
      {
        onConnect(abort: (e?: Error) => void) {
          abortRequest = abort;
          if (limits.timedOut) abort(new Error(`no answer within ${limits.timeoutMs} ms`));
        },
        onHeaders(statusCode: number, raw: Buffer[]) {
          head = { status: statusCode, ...headerText(raw, limits.keepHeaders) };
          return true;
        },
        onData(chunk: Buffer) {
          if (size + chunk.length > limits.maxBytes) {
            if (limits.truncate) {
              chunks.push(chunk.subarray(0, limits.maxBytes - size));
              truncated = true;
              settle(() => resolve({ ...head, body: text(), truncated }));
            }
            abortRequest?.(new Error(`answer larger than ${limits.maxBytes} bytes`));
            return false;
          }
          size += chunk.length;
          chunks.push(chunk);
          return true;
        },
        onComplete: () => settle(() => resolve({ ...head, body: text(), truncated })),
        onError: (e: Error) => settle(() => reject(e)),
      },
    );
  });
}

function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, RETRY_AFTER_CAP_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.min(Math.max(0, at - Date.now()), RETRY_AFTER_CAP_MS);
}

const defaultBackoff = (n: number) => Math.min(250 * 2 ** (n - 1), 5_000);

// A bridge asks the same few URLs for every step of every event: each is taken apart once. What the
// guard says of a URL without a lookup does not change; a name is still checked at every connection.
const checked = new Map<string, ReturnType<typeof checkUrl>>();
function checkedUrl(url: string, allowRemote: boolean, allowFlag: string) {
  const key = `${allowRemote ? '' : allowFlag} ${url}`;
  let t = checked.get(key);
  if (t === undefined) {
    t = checkUrl(url, allowRemote, allowFlag);
    if (checked.size >= 1000) checked.clear();
    checked.set(key, t);
  }
  return t;
}

/** Sends `req`, trying again what may succeed later. Never throws: the result says what happened. */
export async function send(req: OutboundRequest): Promise<OutboundResult> {
  const started = performance.now();
  const method = req.method ?? (req.body === undefined ? 'GET' : 'POST');
  const result: OutboundResult = { ok: false, url: req.url, method, attempts: 0, durationMs: 0 };
  const done = () => {
    result.durationMs = Math.round(performance.now() - started);
    return result;
  };
  const target = checkedUrl(req.url, req.allowRemote, req.allowFlag);
  if (!target.ok) {
    result.error = target.error;
    if (target.refused) result.refused = true;
    return done();
  }
  const agent = pools.get(req.allowRemote ? '' : req.allowFlag) ?? (await pool(req.allowRemote, req.allowFlag));
  const retries = Math.max(0, req.retries ?? 2);
  const retryOn = req.retryOn ?? RETRY_STATUS;
  const backoff = req.backoffMs ?? defaultBackoff;
  for (let n = 1; n <= retries + 1; n++) {
    result.attempts = n;
    const headers: Record<string, string> = { ...req.headers };
    if (req.sign) {
      result.signature = signature(req.sign.secret, req.body ?? req.sign.emptyBody ?? '', (req.sign.now ?? Date.now)());
      for (const h of req.sign.headers) headers[h] = result.signature;
    }
    const limits: Limits = {
      timeoutMs: req.timeoutMs ?? 5_000,
      maxBytes: req.maxAnswerBytes ?? DEFAULT_MAX_ANSWER,
      truncate: req.overLimit === 'truncate',
      keepHeaders: req.keepHeaders === true,
      timedOut: false,
    };
    let wait: number | undefined;
    try {
      const a = await attempt(agent, target.url, method, headers, req.body, limits);
      result.status = a.status;
      if (a.contentType !== undefined) result.contentType = a.contentType;
      else delete result.contentType;
      if (a.headers) result.headers = a.headers;
      result.body = a.body;
      if (a.truncated) result.truncated = true;
      result.ok = a.status >= 200 && a.status < 300;
      if (result.ok) {
        delete result.error;
        break;
      }
      result.error = `HTTP ${a.status}`;
      if (!retryOn(a.status)) break;
      wait = retryAfterMs(a.retryAfter);
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
      delete result.status;
      delete result.contentType;
      delete result.body;
      if (err.code === REFUSED || err.cause?.code === REFUSED) {
        result.error = err.code === REFUSED ? err.message : (err.cause?.message ?? err.message);
        result.refused = true;
        break;
      }
      result.error = limits.timedOut ? `no answer within ${limits.timeoutMs} ms` : (err.code ?? err.cause?.code ?? err.cause?.message ?? err.message);
    }
    if (n <= retries) {
      // Stopping the service ends the pause: the result is the last attempt's.
      const waited = await sleep(wait ?? backoff(n), true, { signal: req.signal }).catch(() => false);
      if (!waited) break;
    }
  }
  return done();
}

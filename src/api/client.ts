// The one HTTP core, on Node's own client (node-transport.ts; undici's through a proxy): authentication,
// idempotency keys reused across retries, a timeout per attempt, retries with exponential backoff and
// jitter honouring Retry-After, keep-alive, proxies from the environment, the `{data}` envelope removed,
// typed errors, and a masked trace for --debug.
import type { Dispatcher } from 'undici';
import { ApiError, EXIT, InterruptedError, NetworkError, SvcError } from '../core/errors.js';
import { nestedDeeperThan } from '../core/json-depth.js';
import { maskData, maskHeaders, maskUrl, secretValues } from '../core/mask.js';
import { formatDuration } from '../core/duration.js';
import { buildPath, type Route } from './routes.js';
import { buildQuery, idempotencyKeyFor, joinUrl, type QueryInput, type SendOptions } from './request.js';
import { createDispatcher } from './node-transport.js';
import { describeErrorBody, parseRetryAfter, retryDelay, shouldRetryStatus, unwrapEnvelope } from './http-rules.js';

/** The longest svc waits between two attempts; an answer asking for longer is not retried. */
const MAX_RETRY_DELAY_MS = 60_000;

/** Far deeper than the service's own limit on what it stores (100), well below a stack overflow. */
const MAX_ANSWER_DEPTH = 1000;

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets. */
  reset?: number;
  /** RateLimit-Policy as sent (window `w=`, `burst=`). */
  policy?: string;
}

export interface ClientConfig {
  baseUrl: string;
  apiKey?: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  userAgent: string;
  env?: NodeJS.ProcessEnv;
  /** Receives each line of the --debug trace (already masked). */
  trace?: (line: string) => void;
  /** Called before waiting to retry (progress displays, adaptive concurrency). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /** Called after every attempt with its status and rate-limit headers (bulk pacing). */
  onAttempt?: (info: { status?: number; rateLimit: RateLimitInfo; retryAfterMs?: number }) => void;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  /** Cap on any single wait between attempts, Retry-After included. */
  maxRetryDelayMs?: number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** The body as the service sent it (parsed JSON, text, or undefined). */
  body: unknown;
  /** The body with a single-key `{data}` envelope removed. */
  data: T;
  attempts: number;
  /** The service recognised the idempotency key and replayed the first answer. */
  replayed: boolean;
  requestId?: string;
  rateLimit: RateLimitInfo;
  idempotencyKey?: string;
  /** What the caller's raw reader made of a 2xx JSON answer's bytes; `body` and `data` are then undefined. */
  raw?: unknown;
}

/**
 * Reads a 2xx JSON answer from its bytes instead of JSON.parse (an export writes a list's records as
 * they came). It returns undefined to leave the answer to the usual parsing and checks, and a value
 * only for bytes that are one valid JSON document nested no deeper than the usual parse allows.
 */
export type RawReader = (bytes: Buffer) => unknown;

/** What every attempt of one request shares (ApiClient.plan). */
interface Plan {
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  payload: string | undefined;
  idempotencyKey: string | undefined;
  retryKey: string | undefined;
  secrets: string[];
  repeatable: boolean;
}

/** What one attempt received: the body as text, or as bytes for the raw reader. */
interface Received {
  status: number;
  headers: Record<string, string>;
  text: string;
  bytes?: Buffer;
  took: number;
}

/** An answer read: its body parsed (or the raw reader's result), and whether it was cut short. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  raw: unknown;
  truncated: boolean;
  retryAfter?: number | undefined;
}

export interface OperationInput {
  params?: Record<string, string>;
  query?: QueryInput;
  body?: unknown;
  idempotencyKey?: string;
}

/** Milliseconds on a monotonic clock. Not performance.now(): the global loads perf_hooks, which nothing else here needs. */
function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Waits between attempts; Ctrl-C ends the wait at once, and the timer takes its abort listener with it. */
async function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    // node:timers/promises loads with the first wait, which most commands never have.
    await process.getBuiltinModule('node:timers/promises').setTimeout(ms, undefined, signal ? { signal } : {});
  } catch (e) {
    if (signal?.aborted) throw new InterruptedError();
    throw e;
  }
}

/** Errors raised before a connection existed: the request cannot have reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function networkReason(err: unknown): { reason: string; timeout: boolean; connected: boolean } {
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { reason: 'timed out', timeout: true, connected: code !== 'UND_ERR_CONNECT_TIMEOUT' };
  }
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'DNS lookup failed',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    EPIPE: 'connection closed',
    UND_ERR_SOCKET: 'connection closed by the server',
    UND_ERR_CLOSED: 'connection closed',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response body cut short',
    UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request body cut short',
  };
  return { reason: (code && known[code]) || e.message || String(err), timeout: false, connected: !(code && NOT_CONNECTED.has(code)) };
}

export class ApiClient {
  private dispatcher?: Promise<Dispatcher>;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(readonly config: ClientConfig) {
    this.sleep = config.sleep ?? defaultSleep;
  }

  private getDispatcher(): Promise<Dispatcher> {
    const t = this.config.timeoutMs;
    // The transport loads with the first request: a dry run, or a command refused before sending, never pays for it.
    return (this.dispatcher ??= this.config.dispatcher
      ? Promise.resolve(this.config.dispatcher)
      : createDispatcher(this.config.env ?? {}, { headersTimeout: t, bodyTimeout: t, connectTimeout: t }));
  }

  async close(): Promise<void> {
    if (this.dispatcher && !this.config.dispatcher) await (await this.dispatcher).close().catch(() => undefined);
  }

  /** Calls an operation of the table. */
  call<T = unknown>(op: Route, input: OperationInput = {}): Promise<ApiResponse<T>> {
    return this.send<T>({
      method: op.method,
      path: buildPath(op.path, input.params ?? {}),
      query: input.query,
      body: input.body,
      idempotencyKey: input.idempotencyKey,
    });
  }

  /** The headers a request will carry; --dry-run prints the same (session.ts, describe). */
  headersFor(opts: SendOptions, idempotencyKey: string | undefined): Record<string, string> {
    const h: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.config.userAgent,
      ...opts.headers,
    };
    if (this.config.apiKey) h.authorization = `ApiKey ${this.config.apiKey}`;
    if (opts.body !== undefined) h['content-type'] = 'application/json';
    if (idempotencyKey) h['idempotency-key'] = idempotencyKey;
    return h;
  }

  async send<T = unknown>(opts: SendOptions, readRaw?: RawReader): Promise<ApiResponse<T>> {
    const plan = this.plan(opts);
    const random = this.config.random ?? Math.random;
    for (let attempt = 1; ; attempt++) {
      if (this.config.signal?.aborted) throw new InterruptedError();
      const got = await this.attempt(plan, attempt, readRaw);
      if ('failure' in got) {
        this.failOrRetry(plan, attempt, got.failure, got.status);
        await this.backoff(attempt, undefined, networkReason(got.failure).reason, random);
        continue;
      }
      const answer = this.read(plan, got, readRaw);
      const retry = this.retryFor(plan, attempt, answer);
      if (retry) {
        await this.backoff(attempt, retry.after, retry.reason, random);
        continue;
      }
      return this.settle<T>(plan, attempt, answer);
    }
  }

  /** What every attempt of a request shares: its URL, headers, body, and what may be repeated. */
  private plan(opts: SendOptions): Plan {
    const method = opts.method.toUpperCase();
    const idempotencyKey = idempotencyKeyFor({ ...opts, method });
    // The key to repeat a failed state change with (GET and DELETE ignore idempotency keys).
    const retryKey = method === 'POST' || method === 'PATCH' || method === 'PUT' ? idempotencyKey : undefined;
    return {
      method,
      path: opts.path,
      url: joinUrl(this.config.baseUrl, opts.path) + buildQuery(opts.query),
      headers: this.headersFor(opts, idempotencyKey),
      body: opts.body,
      payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      idempotencyKey,
      retryKey,
      // The key, and the tokens this request carries: a service may quote them back (a 401 naming the
      // key, a 422 quoting the rejected token), and nothing it says may print them.
      secrets: [...(this.config.apiKey ? [this.config.apiKey] : []), ...secretValues(opts.body)],
      // A request that reached the service and lost its answer is repeated only when repeating it
      // cannot act twice: a read, or a state change with an idempotency key. A DELETE has none: if the
      // first one worked, a second answers 404.
      repeatable: method === 'GET' || method === 'HEAD' || retryKey !== undefined,
    };
  }

  /** One attempt: the answer's status, headers and body (as bytes for the raw reader), or what failed. */
  private async attempt(plan: Plan, attempt: number, readRaw: RawReader | undefined): Promise<Received | { failure: unknown; status?: number }> {
    const trace = this.config.trace;
    if (trace) {
      trace(`* ${plan.method} ${maskUrl(plan.url, { personal: true, knownSecrets: plan.secrets })} (attempt ${attempt}/${this.config.retries + 1})`);
      for (const [k, v] of Object.entries(maskHeaders(plan.headers, { knownSecrets: plan.secrets }))) trace(`> ${k}: ${v}`);
      if (plan.payload !== undefined) trace(`> ${traceBody(plan.body, plan.secrets)}`);
    }
    const started = monotonicMs();
    const attemptSignal = abortForAttempt(this.config.timeoutMs, this.config.signal);
    let status: number | undefined;
    try {
      const dispatcher = await this.getDispatcher();
      const u = new URL(plan.url);
      const res = await dispatcher.request({
        origin: u.origin,
        path: u.pathname + u.search,
        method: plan.method as Dispatcher.HttpMethod,
        headers: plan.headers,
        body: plan.payload,
        signal: attemptSignal.signal,
      });
      status = res.statusCode;
      const headers = flattenHeaders(res.headers);
      if (readRaw && status >= 200 && status < 300) {
        const b = await res.body.bytes();
        return { status, headers, text: '', bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength), took: monotonicMs() - started };
      }
      return { status, headers, text: await res.body.text(), took: monotonicMs() - started };
    } catch (failure) {
      if (this.config.signal?.aborted) throw new InterruptedError();
      this.config.onAttempt?.({ rateLimit: {} });
      trace?.(`< network error after ${formatDuration(monotonicMs() - started)}: ${networkReason(failure).reason}`);
      return status === undefined ? { failure } : { failure, status };
    } finally {
      attemptSignal.release();
    }
  }

  /** A failed attempt is retried when there are attempts left and repeating it cannot act twice; else this throws. */
  private failOrRetry(plan: Plan, attempt: number, failure: unknown, status: number | undefined): void {
    const { reason, timeout: timedOut, connected } = networkReason(failure);
    const mayHaveActed = connected && !plan.repeatable;
    if (attempt < this.config.retries + 1 && !mayHaveActed) return;
    const host = safeHost(plan.url);
    const tries = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
    const where = `${plan.method} ${plan.path}`;
    // Say how far the last attempt got: it tells whether the service can have acted on it.
    const message = timedOut
      ? `${where}: no answer from ${host} within ${formatDuration(this.config.timeoutMs)} (${tries})`
      : !connected
        ? `${where}: could not reach ${host}: ${reason} (${tries})`
        : status !== undefined
          ? `${where}: the answer from ${host} (HTTP ${status}) was cut short: ${reason} (${tries})`
          : `${where}: lost the connection to ${host} before an answer: ${reason} (${tries})`;
    if (mayHaveActed) {
      throw new NetworkError(
        message,
        timedOut ? 'timeout' : 'network_error',
        undefined,
        `the service may have carried out the ${plan.method}; check before repeating it (it was not retried, as a repeat could act twice)`,
      );
    }
    throw new NetworkError(message, timedOut ? 'timeout' : 'network_error', connected ? plan.retryKey : undefined);
  }

  /** The answer's body: what the raw reader made of its bytes, or parsed JSON, or text. */
  private read(plan: Plan, got: Received, readRaw: RawReader | undefined): Answer {
    let text = got.text;
    let raw: unknown;
    let body: unknown;
    let truncated = false;
    const json = (got.headers['content-type'] ?? '').includes('json');
    if (got.bytes) {
      if (json) raw = readRaw!(got.bytes);
      if (raw === undefined || this.config.trace) text = got.bytes.toString('utf8');
    }
    if ((raw === undefined || this.config.trace) && text.length > 0) {
      if (json) {
        try {
          body = JSON.parse(text);
        } catch {
          truncated = true;
          body = text;
        }
      } else body = text;
    }
    const trace = this.config.trace;
    if (trace) {
      trace(`< ${got.status} in ${formatDuration(got.took)}`);
      for (const [k, v] of Object.entries(maskHeaders(got.headers, { knownSecrets: plan.secrets }))) trace(`< ${k}: ${v}`);
      // An answer the raw reader took is traced as the others are (parsed, masked); it is printed from its bytes all the same.
      if (text.length)
        trace(`< ${truncated ? `${String(maskData(text, { knownSecrets: plan.secrets })).slice(0, 200)} [invalid JSON]` : traceBody(body, plan.secrets)}`);
    }
    if (raw !== undefined) body = undefined;
    return { status: got.status, headers: got.headers, body, raw, truncated };
  }

  /** Whether to try again after this answer: one cut short, or a status worth retrying (408, 429, 5xx). */
  private retryFor(plan: Plan, attempt: number, answer: Answer): { after?: number; reason: string } | undefined {
    const { status, headers } = answer;
    const attemptsLeft = attempt < this.config.retries + 1;
    // A success whose JSON body does not parse was cut short on the way: the request may or may not
    // have been processed, so it is retried like a dropped connection (the idempotency key makes that
    // safe). An error status is already the answer: it is handled by its status, its text kept.
    if (answer.truncated && status < 400) {
      if (attemptsLeft && plan.repeatable) return { reason: 'invalid JSON in the response' };
      const tries = `${attempt} attempt${attempt === 1 ? '' : 's'}`;
      throw new NetworkError(
        `${plan.method} ${plan.path}: the answer from ${safeHost(plan.url)} (HTTP ${status}) was not valid JSON: cut short? (${tries})`,
        'network_error',
        plan.retryKey,
      );
    }
    // Checking, masking and printing walk the answer recursively; one nested thousands of levels deep
    // would overflow the stack and end as an "internal error".
    if (nestedDeeperThan(answer.body, MAX_ANSWER_DEPTH)) {
      throw new SvcError(
        `${plan.method} ${plan.path}: the answer (HTTP ${status}) nests more than ${MAX_ANSWER_DEPTH} levels deep; svc cannot process it`,
        'answer_too_deep',
        EXIT.failure,
      );
    }
    const retryAfter = parseRetryAfter(headers['retry-after'], Date.now());
    answer.retryAfter = retryAfter;
    this.config.onAttempt?.({ status, rateLimit: rateLimitOf(headers), ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) });
    // A Retry-After longer than svc waits is not retried early: that would only meet the same refusal.
    const waitTooLong = retryAfter !== undefined && retryAfter > (this.config.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS);
    if (attemptsLeft && !waitTooLong && shouldRetryStatus(status, { idempotencyKey: plan.idempotencyKey, retryAfter })) {
      return { ...(retryAfter !== undefined ? { after: retryAfter } : {}), reason: `HTTP ${status}` };
    }
    return undefined;
  }

  /** The final answer: an ApiError for an error status, else the response. */
  private settle<T>(plan: Plan, attempt: number, answer: Answer): ApiResponse<T> {
    const { status, headers, body, retryAfter } = answer;
    const requestId = headers['x-request-id'] ?? errorIdOf(body);
    if (status >= 400) {
      const safeBody = maskData(body, { knownSecrets: plan.secrets });
      const waitTooLong = retryAfter !== undefined && retryAfter > (this.config.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS);
      throw new ApiError({
        status,
        message: describeErrorBody(safeBody, status),
        body: safeBody,
        ...(status >= 500 && plan.retryKey ? { idempotencyKey: plan.retryKey } : {}),
        ...(requestId ? { requestId } : {}),
        ...(waitTooLong && shouldRetryStatus(status, { idempotencyKey: plan.idempotencyKey, retryAfter })
          ? { hint: `the service asks to wait ${formatDuration(retryAfter)} (Retry-After); try again after that` }
          : {}),
        method: plan.method,
        path: plan.path,
      });
    }
    return {
      status,
      headers,
      body,
      data: unwrapEnvelope(body) as T,
      attempts: attempt,
      replayed: headers['idempotency-replay'] === 'true',
      ...(requestId ? { requestId } : {}),
      rateLimit: rateLimitOf(headers),
      ...(plan.idempotencyKey ? { idempotencyKey: plan.idempotencyKey } : {}),
      ...(answer.raw !== undefined ? { raw: answer.raw } : {}),
    };
  }

  private async backoff(attempt: number, retryAfterMs: number | undefined, reason: string, random: () => number): Promise<void> {
    const delayMs = Math.min(this.config.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS, retryAfterMs ?? retryDelay(attempt, random));
    this.config.trace?.(`* retrying in ${formatDuration(delayMs)} (${reason})`);
    this.config.onRetry?.({ attempt, delayMs, reason });
    await this.sleep(delayMs, this.config.signal);
  }
}

/**
 * The signal of one attempt: aborted by the caller's signal or at the timeout, whichever comes first.
 * release() clears the timer and the listener as soon as the attempt ends. AbortSignal.timeout() and
 * AbortSignal.any() would do the same but hold a timer, a signal and their weak references until the
 * timeout fires (30 s by default): an export of a few hundred pages a second then keeps thousands of
 * them alive, and its memory grows with the number of pages.
 */
function abortForAttempt(timeoutMs: number, outer: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer!.reason);
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
  // Like AbortSignal.timeout(): the timer alone does not hold the process open.
  timer.unref();
  outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

function traceBody(body: unknown, secrets: string[]): string {
  const s = JSON.stringify(maskData(body, { personal: true, knownSecrets: secrets }));
  return s.length > 8000 ? `${s.slice(0, 8000)}… (${s.length} characters)` : s;
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function errorIdOf(body: unknown): string | undefined {
  const id = (body as { errorId?: unknown } | undefined)?.errorId;
  return typeof id === 'string' ? id : undefined;
}

function rateLimitOf(h: Record<string, string>): RateLimitInfo {
  const num = (v: string | undefined) => (v !== undefined && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : undefined);
  const out: RateLimitInfo = {};
  const limit = num(h['ratelimit-limit']);
  const remaining = num(h['ratelimit-remaining']);
  const reset = num(h['ratelimit-reset']);
  if (limit !== undefined) out.limit = limit;
  if (remaining !== undefined) out.remaining = remaining;
  if (reset !== undefined) out.reset = reset;
  if (h['ratelimit-policy']) out.policy = h['ratelimit-policy'];
  return out;
}

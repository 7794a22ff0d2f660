// Real webhook delivery for http_request steps and the chat/email/push webhook providers: one signed
// HTTP request (undici) with a per-attempt timeout and retries with backoff, returning what happened
// as data for the execution detail's `raw`. Only loopback targets unless the caller allows others: a
// local service that anyone can point at arbitrary hosts would be an SSRF tool.
//
// Signature (the service's format, under the header `svc-signature`):
//   svc-signature: t=<unix time in ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw request body>")>
// The body is the exact bytes sent ("" when there is none); verifySignature checks it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

export const SIGNATURE_HEADER = 'svc-signature';
const DEFAULT_MAX_BODY = 10_240;

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `svc-signature` header value for a raw body sent at `timestamp` (ms). */
export function signPayload(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/** The raw text a body is sent as: strings as they are, anything else as JSON. */
export function rawBodyOf(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** A sample header for previews (`svcSignature`): what a request with this body, sent now, carries. */
export function signatureSample(secret: string, body: unknown, now: number): string {
  return signPayload(secret, rawBodyOf(body) ?? '', now);
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

/** Checks a received `svc-signature` header against the raw body, within `toleranceMs` of `now`. */
export function verifySignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  options: { now?: number; toleranceMs?: number } = {},
): SignatureCheck {
  if (!header) return { ok: false, reason: `missing ${SIGNATURE_HEADER} header` };
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isFinite(timestamp) || !parts.v1) return { ok: false, reason: 'malformed signature header, expected t=<ms>,v1=<hex>' };
  const tolerance = options.toleranceMs ?? 5 * 60_000;
  if (options.now !== undefined && Math.abs(options.now - timestamp) > tolerance) return { ok: false, reason: 'signature timestamp outside the tolerance' };
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const given = Buffer.from(String(parts.v1), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true, timestamp };
}

// --- loopback guard ------------------------------------------------------------------------------

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return a === '::1' || a === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(a);
  return false;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });
}

const ONLY_LOOPBACK = 'only loopback targets (127.0.0.0/8, ::1, localhost) are allowed unless non-loopback webhooks are allowed';

/** Whether a URL may be called: http(s), and a loopback host unless others are allowed. */
export async function checkTarget(url: string, allowNonLoopback: boolean): Promise<{ ok: true; url: URL } | { ok: false; error: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `invalid URL "${url}"` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { ok: false, error: `unsupported URL scheme "${parsed.protocol}", use http or https` };
  if (allowNonLoopback) return { ok: true, url: parsed };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    return isLoopbackAddress(host) ? { ok: true, url: parsed } : { ok: false, error: `refusing to deliver to ${host}: ${ONLY_LOOPBACK}` };
  }
  try {
    const addresses = await resolveAll(host);
    const outside = addresses.filter((a) => !isLoopbackAddress(a.address));
    if (addresses.length === 0 || outside.length > 0) {
      return { ok: false, error: `refusing to deliver to ${host} (${addresses.map((a) => a.address).join(', ') || 'no address'}): ${ONLY_LOOPBACK}` };
    }
    return { ok: true, url: parsed };
  } catch (err) {
    return { ok: false, error: `cannot resolve ${host}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The connect-time check: the address actually dialled must be loopback too (no DNS rebinding). */
function loopbackOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, options as { all: true }, (err, address: string | LookupAddress[], family?: number) => {
    if (err) return callback(err, address);
    const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
    if (list.some((a) => !isLoopbackAddress(a))) {
      return callback(
        Object.assign(new Error(`refusing to connect to ${hostname} (${list.join(', ')}): ${ONLY_LOOPBACK}`), { code: 'ESVCNONLOOPBACK' }),
        address,
      );
    }
    return callback(null, address, family);
  });
}

// --- delivery ------------------------------------------------------------------------------------

export interface WebhookRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** An object is sent as JSON, a string as text; nothing is sent for GET and DELETE. */
  body?: unknown;
  /** Signs the request when given. */
  secret?: string;
  /** Per attempt. Default 5000. */
  timeoutMs?: number;
  /** Extra attempts after a network error, a timeout, a 5xx or a 429. Default 2. */
  retries?: number;
  /** First retry delay, doubled each time. Default 250. */
  backoffMs?: number;
  allowNonLoopback?: boolean;
  /** The signature's timestamp. */
  now: number;
  /** How much of the response body to keep. Default 10 KiB. */
  maxBodyBytes?: number;
  /** Ends a wait between attempts (the service stopping). */
  signal?: AbortSignal;
}

export interface WebhookResult {
  ok: boolean;
  url: string;
  method: string;
  status?: number;
  headers?: Record<string, string>;
  /** The response body, cut at maxBodyBytes. */
  body?: string;
  truncated?: boolean;
  attempts: number;
  durationMs: number;
  error?: string;
  /** The signature header sent, when signed. */
  signature?: string;
  /** What was sent, cut at maxBodyBytes: the web console shows it as the provider request. */
  requestBody?: string;
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy?: () => void }, max: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      body.destroy?.();
      return { text: Buffer.concat(chunks).subarray(0, max).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

function retryable(status: number): boolean {
  return status >= 500 || status === 429;
}

function retryAfterMs(headers: Record<string, string>): number | null {
  const value = Number(headers['retry-after']);
  return Number.isFinite(value) && value >= 0 ? Math.min(value * 1000, 10_000) : null;
}

/** Sends one webhook, retrying what may succeed later; never throws. */
export async function deliverWebhook(input: WebhookRequest): Promise<WebhookResult> {
  const started = performance.now();
  const method = input.method ?? 'POST';
  const result: WebhookResult = { ok: false, url: input.url, method, attempts: 0, durationMs: 0 };
  const finish = () => {
    result.durationMs = Math.round(performance.now() - started);
    return result;
  };
  const target = await checkTarget(input.url, input.allowNonLoopback === true);
  if (!target.ok) {
    result.error = target.error;
    return finish();
  }
  const raw = method === 'GET' || method === 'DELETE' ? undefined : rawBodyOf(input.body);
  if (raw !== undefined) result.requestBody = raw.slice(0, input.maxBodyBytes ?? DEFAULT_MAX_BODY);
  const headers: Record<string, string> = { 'user-agent': 'svc-dev-webhook/1' };
  if (raw !== undefined) headers['content-type'] = typeof input.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  if (input.secret) {
    result.signature = signPayload(input.secret, raw ?? '', input.now);
    headers[SIGNATURE_HEADER] = result.signature;
  }
  const dispatcher = new Agent({
    connect: input.allowNonLoopback ? {} : { lookup: loopbackOnlyLookup as never },
    keepAliveTimeout: 1_000,
  });
  const attempts = 1 + Math.max(0, input.retries ?? 2);
  const timeoutMs = input.timeoutMs ?? 5_000;
  let delay = input.backoffMs ?? 250;
  try {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      result.attempts = attempt;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      let waitHint: number | null = null;
      try {
        const response = await request(target.url, { method, headers, body: raw, dispatcher, signal: abort.signal });
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : String(value);
        }
        const { text, truncated } = await readCapped(response.body, input.maxBodyBytes ?? DEFAULT_MAX_BODY);
        result.status = response.statusCode;
        result.headers = responseHeaders;
        result.body = text;
        if (truncated) result.truncated = true;
        result.ok = response.statusCode >= 200 && response.statusCode < 300;
        delete result.error;
        if (result.ok || !retryable(response.statusCode)) break;
        result.error = `HTTP ${response.statusCode}`;
        waitHint = retryAfterMs(responseHeaders);
      } catch (err) {
        const reason = abort.signal.aborted ? abort.signal.reason : err;
        result.error = reason instanceof Error ? reason.message : String(reason);
        const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
        if (code === 'ESVCNONLOOPBACK' || /refusing to connect/.test(result.error)) break;
      } finally {
        clearTimeout(timer);
      }
      if (attempt < attempts) {
        // Stopping the service ends the wait: the webhook is reported with its last error, not retried.
        const waited = await sleep(waitHint ?? delay, true, { signal: input.signal }).catch(() => false);
        if (!waited) break;
        delay = Math.min(delay * 2, 5_000);
      }
    }
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
  return finish();
}

/** The execution detail's `raw`: the result as JSON, kept under the service's 10 KiB. */
export function webhookRaw(result: WebhookResult, max = DEFAULT_MAX_BODY): string {
  const json = JSON.stringify(result);
  if (json.length <= max) return json;
  const suffix = '... [truncated]';
  return json.slice(0, max - suffix.length) + suffix;
}

// Webhooks of http_request steps and of the webhook providers (chat-webhook, email-webhook,
// push-webhook): one signed request through the outbound module, its result kept as the execution
// detail's `raw`. The signature is the service's header `svc-signature`, over the exact body sent
// ("" when there is none); loopback targets only unless `svc dev --allow-remote-webhooks`.
import { requestBodyText } from '../engine/index.js';
import { ALLOW_REMOTE_WEBHOOKS, send, type Method } from '../outbound/index.js';

export const SIGNATURE_HEADER = 'svc-signature';
const MAX_KEPT = 10_240;

/** How a provider's passing refusal (5xx, 429, no answer) is tried again: attempts after the first, and the pause before attempt n+1. */
export const PROVIDER_RETRY = { retries: 2, backoffMs: (n: number, first = 250) => Math.min(first * 2 ** (n - 1), 5_000) };

export interface WebhookRequest {
  url: string;
  method?: Method;
  headers?: Record<string, string>;
  /** An object is sent as JSON, a string as text; nothing is sent for GET and DELETE. */
  body?: unknown;
  /** Signs the request when given. */
  secret?: string;
  /** Per attempt. Default 5000. */
  timeoutMs?: number;
  /** Attempts after a network error, a timeout, a 5xx or a 429. Default 2. */
  retries?: number;
  /** First pause between attempts, doubled each time. Default 250. */
  backoffMs?: number;
  allowRemote: boolean;
  /** How much of the answer's body to keep. Default 10 KiB. */
  maxBodyBytes?: number;
  /** Ends a pause between attempts (the service stopping). */
  signal?: AbortSignal;
}

export interface WebhookResult {
  ok: boolean;
  url: string;
  method: string;
  status?: number;
  headers?: Record<string, string>;
  /** The answer's body, cut at maxBodyBytes. */
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

/** Sends one webhook, trying again what may succeed later; never throws. */
export async function deliverWebhook(input: WebhookRequest): Promise<WebhookResult> {
  const method = input.method ?? 'POST';
  const max = input.maxBodyBytes ?? MAX_KEPT;
  const text = method === 'GET' || method === 'DELETE' ? undefined : requestBodyText(input.body);
  const headers: Record<string, string> = { 'user-agent': 'svc-dev-webhook/1' };
  if (text !== undefined) headers['content-type'] = typeof input.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  const first = input.backoffMs;
  const r = await send({
    url: input.url,
    method,
    headers,
    ...(text !== undefined && { body: text }),
    ...(input.secret && { sign: { secret: input.secret, headers: [SIGNATURE_HEADER] } }),
    allowRemote: input.allowRemote,
    allowFlag: ALLOW_REMOTE_WEBHOOKS,
    timeoutMs: input.timeoutMs ?? 5_000,
    retries: input.retries ?? PROVIDER_RETRY.retries,
    retryOn: (s) => s >= 500 || s === 429,
    backoffMs: (n) => PROVIDER_RETRY.backoffMs(n, first),
    maxAnswerBytes: max,
    overLimit: 'truncate',
    keepHeaders: true,
    ...(input.signal && { signal: input.signal }),
  });
  const result: WebhookResult = { ok: r.ok, url: r.url, method: r.method, attempts: r.attempts, durationMs: r.durationMs };
  if (r.status !== undefined) result.status = r.status;
  if (r.headers) result.headers = r.headers;
  if (r.body !== undefined) result.body = r.body;
  if (r.truncated) result.truncated = true;
  if (r.error !== undefined) result.error = r.error;
  if (r.signature !== undefined) result.signature = r.signature;
  if (text !== undefined) result.requestBody = text.slice(0, max);
  return result;
}

/** The execution detail's `raw`: the result as JSON, kept under the service's 10 KiB. */
export function webhookRaw(result: WebhookResult, max = MAX_KEPT): string {
  const json = JSON.stringify(result);
  if (json.length <= max) return json;
  const suffix = '... [truncated]';
  return json.slice(0, max - suffix.length) + suffix;
}

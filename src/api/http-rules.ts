// Pure decisions of the HTTP core, kept apart so they are tested alone: which answers are retried, how
// long to wait, how to read the service's error body, and how its envelope is removed.

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Network errors and 408/429/500/502/503/504 are retried; other 4xx never are, with one exception: a
 * 409 with Retry-After answering a request that carries an idempotency key means "the first request
 * with this key is still running" (ground truth, "Idempotency") and the retry will get its answer.
 */
export function shouldRetryStatus(status: number, ctx: { idempotencyKey?: string; retryAfter?: number }): boolean {
  if (RETRYABLE_STATUSES.has(status)) return true;
  return status === 409 && Boolean(ctx.idempotencyKey) && ctx.retryAfter !== undefined;
}

/** Exponential backoff with "equal jitter": half the window fixed, half random. Attempt counts from 1. */
export function retryDelay(attempt: number, random: () => number = Math.random, baseMs = 300, capMs = 20_000): number {
  const window = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(window / 2 + random() * (window / 2));
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/** The service unwraps nothing but a body whose only key is `data` (ground truth; the SDK does the same). */
export function unwrapEnvelope(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const keys = Object.keys(body);
    if (keys.length === 1 && keys[0] === 'data') return (body as { data: unknown }).data;
  }
  return body;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * One line from the service's error body: its message, and the field messages of a validation error
 * (`errors: {field: {messages}}` or `errors: [{field, message}]`).
 */
export function describeErrorBody(body: unknown, status: number): string {
  const reason = REASONS[status] ?? 'Error';
  if (typeof body === 'string') return body.trim() ? `${reason}: ${oneLine(body).slice(0, 300)}` : reason;
  if (!body || typeof body !== 'object') return reason;
  const b = body as { message?: unknown; errors?: unknown; type?: unknown };
  let message = Array.isArray(b.message) ? b.message.map(String).join('; ') : typeof b.message === 'string' ? b.message : '';
  const details: string[] = [];
  if (Array.isArray(b.errors)) {
    for (const e of b.errors.slice(0, 5)) {
      const x = e as { field?: unknown; message?: unknown };
      if (typeof x?.message === 'string') details.push(typeof x.field === 'string' && x.field ? `${x.field}: ${x.message}` : x.message);
    }
  } else if (b.errors && typeof b.errors === 'object') {
    for (const [field, v] of Object.entries(b.errors as Record<string, unknown>).slice(0, 5)) {
      const msgs = (v as { messages?: unknown })?.messages;
      if (Array.isArray(msgs)) details.push(field === 'general' ? msgs.map(String).join('; ') : `${field}: ${msgs.map(String).join('; ')}`);
    }
  }
  if (!message) message = typeof b.type === 'string' ? b.type : reason;
  const extra = details.filter((d) => !message.includes(d));
  return oneLine(extra.length ? `${message} (${extra.join('; ')})` : message);
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

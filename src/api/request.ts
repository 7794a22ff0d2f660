// Request building shared by the HTTP core and --dry-run, free of undici so that commands can import
// it without paying for the HTTP stack before they have validated their input.

/**
 * A fresh idempotency key. node:crypto is loaded here, by the first request that needs a key, not when
 * the module loads: a GET never uses it.
 */
function newIdempotencyKey(): string {
  return process.getBuiltinModule('node:crypto').randomUUID();
}

type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];
export type QueryInput = Record<string, QueryValue>;

export interface SendOptions {
  method: string;
  path: string;
  query?: QueryInput;
  body?: unknown;
  /** For POST/PATCH/PUT a key is generated when absent; it is the same for every retry of this request. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

const MUTATING = new Set(['POST', 'PATCH', 'PUT']);

/** Array values are sent as repeated keys (`channels=email&channels=sms`). */
export function buildQuery(query: QueryInput | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) sp.append(k, String(x));
    else sp.append(k, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

/** The idempotency key a request uses: the given one, else a fresh one for POST/PATCH/PUT. */
export function idempotencyKeyFor(opts: Pick<SendOptions, 'method' | 'idempotencyKey'>): string | undefined {
  return opts.idempotencyKey ?? (MUTATING.has(opts.method.toUpperCase()) ? newIdempotencyKey() : undefined);
}

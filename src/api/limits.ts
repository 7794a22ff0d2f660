// Limits of the API that both the command flags (at start-up, without zod) and the schemas need.
import { MAX_BODY_BYTES, sizeText } from '../core/size.js';

/** Recipients one trigger takes (api-spec.md, operation 13). */
export const MAX_RECIPIENTS = 100;

/** Events one bulk trigger takes. */
export const MAX_BULK_EVENTS = 100;

/** The activity feed's largest page (api-spec.md, operation 14). */
export const EVENTS_MAX_LIMIT = 50;

/** The largest body, on the routes that carry payloads and workflow definitions (core/size.ts). */
export { MAX_BODY_BYTES };
/** The body parser's default limit, on every route but those below. */
export const DEFAULT_BODY_BYTES = 100 * 1024;
/** Path prefixes that take bodies up to MAX_BODY_BYTES (the service's own list). */
const LARGE_BODY_PREFIXES = ['/v1/events', '/v1/notification-templates', '/v1/workflows', '/v1/layouts', '/v1/bridge/sync', '/v1/bridge/diff', '/v2/workflows'];
/** svc dev's own: the longest one `svc dev clock advance` moves time (ten years, past any delay or digest window). */
export const MAX_ADVANCE_MS = 10 * 365 * 86_400_000;
/** svc dev's own: a snapshot of the store being loaded (compressed) is as large as the service takes. */
const SVC_DEV_LARGE = ['/v1/svc-dev/snapshot/load'];
const ENVIRONMENT_BRIDGE = /^\/v1\/environments\/[^/]+\/bridge(?:\/|$)/;

/** The body limit of a request path (query string ignored). */
export function bodyLimitFor(path: string): number {
  const p = path.split('?')[0]!;
  const large = LARGE_BODY_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`)) || ENVIRONMENT_BRIDGE.test(p) || SVC_DEV_LARGE.includes(p);
  return large ? MAX_BODY_BYTES : DEFAULT_BODY_BYTES;
}

/**
 * Why a body cannot be sent, or undefined when it fits: it names the flag that brought the largest
 * part of the body (`label` maps a top-level field to its flag; the whole body when it has none).
 */
export function oversizeBody(method: string, path: string, body: unknown, label?: (field: string) => string): string | undefined {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  // A UTF-8 byte is at most 3 per UTF-16 unit: a body this short fits without counting.
  const limit = bodyLimitFor(path);
  if (text.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return undefined;
  let field = '';
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    let most = -1;
    for (const [k, v] of Object.entries(body)) {
      const n = v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v) ?? '');
      if (n > most) [most, field] = [n, k];
    }
  }
  const flag = label ? label(field) : field || 'the request body';
  return `${flag}: the request body would be ${sizeText(bytes)}, over the ${sizeText(limit)} the service accepts on ${method.toUpperCase()} ${path.split('?')[0]}; nothing was sent`;
}

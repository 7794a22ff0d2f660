// Requests svc dev sends to others: http_request steps and webhook providers (to the receivers a
// workflow names) and bridge calls (to the team's app serving code-first workflows). The boundary is
// README.md beside this file: `send` takes a request and gives back what happened as data.
export { checkTarget, isLoopbackAddress } from './guard.js';
export { send, type Method } from './send.js';
export { signature } from './signature.js';

/** The flags that let svc dev call non-loopback targets, as `svc dev` spells them. */
export const ALLOW_REMOTE_WEBHOOKS = '--allow-remote-webhooks';
export const ALLOW_REMOTE_BRIDGE = '--allow-remote-bridge';

/**
 * What answered, for an error line: its status and content type, never its body (an answer is
 * anyone's text): `HTTP 404 (text/html, 1.2 kB)`, `HTTP 200 (no content type, empty)`.
 */
export function whatAnswered(r: { status?: number; contentType?: string; body?: string; error?: string }): string {
  if (r.status === undefined) return r.error ?? 'no answer';
  const type = r.contentType?.split(';')[0]?.trim() || 'no content type';
  const bytes = Buffer.byteLength(r.body ?? '');
  const size = bytes === 0 ? 'empty' : bytes < 1000 ? `${bytes} bytes` : `${(bytes / 1000).toFixed(1)} kB`;
  return `HTTP ${r.status} (${type}, ${size})`;
}

// Idempotency keys (ground truth, "Idempotency"): POST and PATCH only, scoped to the organisation,
// the first answer (2xx or 4xx) kept 24 hours and replayed for the same body, 409 while the first is
// still running, 422 for the same key with another body.
import { createHash } from 'node:crypto';
import { HttpError } from './errors.js';
import type { Store } from './store/index.js';

const MAX_KEY_LENGTH = 255;

type IdempotencyOutcome = { kind: 'proceed' } | { kind: 'replay'; status: number; body: string };

export function bodyHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

export function checkIdempotency(store: Store, orgId: string, key: string, body: unknown): IdempotencyOutcome {
  if (key.length > MAX_KEY_LENGTH) {
    throw new HttpError(400, `idempotency-key must be at most ${MAX_KEY_LENGTH} characters long`);
  }
  const hash = bodyHash(body);
  const entry = store.idempotency.get(orgId, key);
  if (!entry) {
    store.idempotency.begin(orgId, key, hash);
    return { kind: 'proceed' };
  }
  if (entry.bodyHash !== hash) {
    throw new HttpError(422, `Request with key "${key}" is being reused for a different body`);
  }
  if (entry.state === 'in_progress') {
    throw new HttpError(409, `Request with key "${key}" is currently being processed. Please retry after some time`, {
      headers: { 'Retry-After': '1' },
    });
  }
  return { kind: 'replay', status: entry.status, body: entry.body };
}

/** Keeps the first answer; a server error is not kept, so a retry can succeed. */
export function finishIdempotency(store: Store, orgId: string, key: string, status: number, body: string): void {
  if (status >= 500) store.idempotency.forget(orgId, key);
  else store.idempotency.finish(orgId, key, status, body);
}

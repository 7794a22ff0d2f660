// What every command does around a request: refuse state changes under a read-only profile, print the
// request instead of sending it under --dry-run, send it, and check the answer's shape leniently (a
// mismatch is a warning; the answer is printed in full either way).
import type { Deps } from '../deps.js';
import { ReadOnlyError } from '../core/errors.js';
import { requireApiKey } from '../config/profiles.js';
import { maskData, maskHeaders } from '../core/mask.js';
import { problemsOf } from '../core/validate.js';
import type { ApiResponse, OperationInput } from './client.js';
import { buildQuery, idempotencyKeyFor, joinUrl, type SendOptions } from './request.js';
import { buildPath, type Operation } from './operations.js';
import type { ZodType } from 'zod';

export interface CallOptions {
  /** Whether the call changes state (default: any method but GET). Previews are POSTs that do not. */
  mutates?: boolean;
}

export function checkWritable(deps: Deps, mutates: boolean): void {
  if (!mutates || deps.globals.dryRun) return;
  const s = deps.settings();
  if (s.readOnly) throw new ReadOnlyError(s.profile.value ?? '?', `svc ${deps.commandPath}`);
}

/** The request --dry-run prints: method, URL, headers and body, secrets masked. */
export function describeRequest(deps: Deps, req: SendOptions): Record<string, unknown> {
  const s = deps.settings();
  const key = s.apiKey.value;
  const idempotencyKey = idempotencyKeyFor(req);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (key) headers.authorization = `ApiKey ${key}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const secrets = key ? [key] : [];
  const out: Record<string, unknown> = {
    method: req.method,
    url: joinUrl(s.baseUrl.value, req.path) + buildQuery(req.query),
    headers: maskHeaders(headers, { knownSecrets: secrets }),
  };
  if (req.body !== undefined) out.body = deps.globals.showSecrets ? req.body : maskData(req.body, { knownSecrets: secrets });
  return out;
}

/** Sends a raw request (svc api); undefined under --dry-run, after printing it. */
export async function send<T = unknown>(deps: Deps, req: SendOptions, opts: CallOptions = {}): Promise<ApiResponse<T> | undefined> {
  const mutates = opts.mutates ?? req.method.toUpperCase() !== 'GET';
  checkWritable(deps, mutates);
  const withKey = { ...req, idempotencyKey: deps.globals.idempotencyKey ?? req.idempotencyKey };
  if (deps.globals.dryRun) {
    // Validating everything includes the credentials: without a key the request could not be sent.
    requireApiKey(deps.settings());
    await deps.print(describeRequest(deps, withKey));
    return undefined;
  }
  const client = await deps.client();
  const res = await client.send<T>(withKey);
  if (res.replayed) deps.info('note: the service replayed its earlier answer for this idempotency key');
  return res;
}

/** Calls an operation of the table; undefined under --dry-run. */
export async function call<T = unknown>(deps: Deps, op: Operation, input: OperationInput = {}, opts: CallOptions = {}): Promise<ApiResponse<T> | undefined> {
  const res = await send<T>(
    deps,
    { method: op.method, path: buildPath(op.path, input.params ?? {}), query: input.query, body: input.body, idempotencyKey: input.idempotencyKey },
    opts,
  );
  if (res && op.response) checkShape(deps, `${op.method} ${op.path}`, op.response, res.data);
  return res;
}

/** Warns once when an answer does not match its schema; the answer itself is untouched. */
export function checkShape(deps: Deps, request: string, schema: ZodType, data: unknown): void {
  const r = schema.safeParse(data);
  if (r.success) return;
  const first = problemsOf(r.error)[0];
  const where = first ? ` (${first.field || 'body'}: ${first.message})` : '';
  deps.warn(`the answer to ${request} does not match the documented shape${where}; printed as received`);
}

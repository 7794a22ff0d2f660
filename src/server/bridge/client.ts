// The caller's side of the bridge protocol: the team's app serves its code-first workflows at one URL,
// and this service asks it for its health, its workflows (discover) and each step's outputs (execute,
// preview), through the outbound module (the loopback guard, retries, the shared connections). Every
// action but the health check is signed the way the framework checks it: headers `novu-signature` and
// `x-novu-signature` (the framework reads these two names; they are not ours to rename), `t=<ms>,v1=…`
// over the JSON body, a GET being signed over `{}`. Each attempt times out after 5 s; 408, 429, 5xx
// and connection errors are tried again, 3 times.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { ALLOW_REMOTE_BRIDGE, send, signature } from '../outbound/index.js';
import { safeCheck } from './shapes.js';
// The protocol's schemas (zod) are imported by each call, once its answer is in: a service that has
// called no bridge has built none of them.
import type { BridgeEvent, BridgeWorkflow } from '../../api/schemas/bridge-protocol.js';

const BRIDGE_SIGNATURE_HEADERS = ['novu-signature', 'x-novu-signature'] as const;
const BRIDGE_TIMEOUT_MS = 5_000;
const BRIDGE_RETRIES = 3;

type BridgeAction = 'health-check' | 'discover' | 'execute' | 'preview';

export interface BridgeCallOptions {
  /** The environment's secret key: what the app's framework client was given as its secret. */
  secret: string;
  /** `svc dev --allow-remote-bridge`: a bridge URL may be other than loopback. */
  allowRemote: boolean;
  timeoutMs?: number;
  retries?: number;
  /** Pause before retry n (1-based), in ms; short by default: the bridge is usually on loopback. */
  backoffMs?: (attempt: number) => number;
  /** Signature time (ms); wall-clock by default, since the app checks it against its own clock. */
  now?: () => number;
}

/** What one call came to, success or not: enough for an execution detail's `raw`. */
export interface BridgeAnswer {
  ok: boolean;
  url: string;
  action: BridgeAction;
  /** HTTP status of the last attempt; absent when none answered. */
  status?: number;
  /** The last answer's content type, as it said. */
  contentType?: string;
  /** The last answer's body as text (cut to 4 KiB). */
  body?: string;
  /** Parsed JSON body, when it was JSON. */
  json?: unknown;
  /** A discover's whole answer, hashed (SHA-256, hex): what the app declares, in one comparable value. */
  bodyHash?: string;
  /** Why it failed: a network error, a timeout, an HTTP status, a shape problem, the loopback guard. */
  error?: string;
  /** The loopback guard refused the URL: nothing was sent. */
  refused?: true;
  attempts: number;
  durationMs: number;
}

export function bridgeSignature(secret: string, body: unknown, t: number): string {
  return signature(secret, JSON.stringify(body), t);
}

/** The action's URL: the bridge URL with `action` (and `workflowId`, `stepId`) in its query. */
function bridgeActionUrl(bridgeUrl: string, action: BridgeAction, params: Record<string, string> = {}): string {
  const url = new URL(bridgeUrl);
  url.searchParams.set('action', action);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

// The same few URLs serve every step of every event (a workflow's steps, four actions): built once.
const actionUrls = new Map<string, string>();
function actionUrl(bridgeUrl: string, action: BridgeAction, params: Record<string, string> | undefined): string {
  const key = `${action} ${params ? JSON.stringify(params) : ''} ${bridgeUrl}`;
  let url = actionUrls.get(key);
  if (url === undefined) {
    url = bridgeActionUrl(bridgeUrl, action, params);
    if (actionUrls.size >= 1000) actionUrls.clear();
    actionUrls.set(key, url);
  }
  return url;
}

/** An answer past this size is cut off and counts as a failed attempt, before it is all held in memory. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const MAX_BODY_TEXT = 4096;

/** One action, with its retries. Never throws: failures are in the answer. */
export async function callBridge(
  bridgeUrl: string,
  action: BridgeAction,
  opts: BridgeCallOptions & { params?: Record<string, string>; body?: BridgeEvent },
): Promise<BridgeAnswer> {
  let url: string;
  try {
    url = actionUrl(bridgeUrl, action, opts.params);
  } catch {
    return { ok: false, url: bridgeUrl, action, error: 'not a valid URL', attempts: 0, durationMs: 0 };
  }
  const post = action === 'execute' || action === 'preview';
  const r = await send({
    url,
    method: post ? 'POST' : 'GET',
    headers: post ? { accept: 'application/json', 'content-type': 'application/json' } : { accept: 'application/json' },
    // Serialised once: the request's body is the very text that is signed.
    ...(post && { body: JSON.stringify(opts.body ?? {}) }),
    ...(action !== 'health-check' && { sign: { secret: opts.secret, headers: BRIDGE_SIGNATURE_HEADERS, emptyBody: '{}', ...(opts.now && { now: opts.now }) } }),
    allowRemote: opts.allowRemote,
    allowFlag: ALLOW_REMOTE_BRIDGE,
    timeoutMs: opts.timeoutMs ?? BRIDGE_TIMEOUT_MS,
    retries: opts.retries ?? BRIDGE_RETRIES,
    backoffMs: opts.backoffMs ?? ((n: number) => 100 * 2 ** (n - 1)),
    maxAnswerBytes: MAX_ANSWER_BYTES,
  });
  const answer: BridgeAnswer = { ok: r.ok, url, action, attempts: r.attempts, durationMs: r.durationMs };
  if (r.refused) answer.refused = true;
  if (r.status === undefined) {
    answer.error = r.error ?? 'no answer';
    return answer;
  }
  const body = r.body ?? '';
  answer.status = r.status;
  if (r.contentType !== undefined) answer.contentType = r.contentType;
  answer.body = body.length > MAX_BODY_TEXT ? `${body.slice(0, MAX_BODY_TEXT)}…` : body;
  if (action === 'discover') answer.bodyHash = createHash('sha256').update(body).digest('hex');
  try {
    if (body !== '') answer.json = JSON.parse(body);
  } catch {
    // Not JSON: the shape check says so.
  }
  if (!r.ok) answer.error = `HTTP ${r.status}${errorText(answer.json)}`;
  return answer;
}

/** The framework's own error codes: an error answer naming one of these is the framework's words. */
const FRAMEWORK_ERRORS = new Set([
  'BridgeError',
  'ExecutionEventControlInvalidError',
  'ExecutionEventPayloadInvalidError',
  'ExecutionProviderOutputInvalidError',
  'ExecutionStateControlInvalidError',
  'ExecutionStateCorruptError',
  'ExecutionStateOutputInvalidError',
  'ExecutionStateResultInvalidError',
  'InvalidActionError',
  'MethodNotAllowedError',
  'MissingDependencyError',
  'MissingSecretKeyError',
  'ProviderExecutionFailedError',
  'ProviderNotFoundError',
  'SignatureExpiredError',
  'SignatureInvalidError',
  'SignatureMismatchError',
  'SignatureNotFoundError',
  'SignatureVersionInvalidError',
  'SigningKeyNotFoundError',
  'StepAlreadyExistsError',
  'StepControlCompilationFailedError',
  'StepExecutionFailedError',
  'StepNotFoundError',
  'WorkflowAlreadyExistsError',
  'WorkflowNotFoundError',
  'WorkflowPayloadInvalidError',
]);

/** The codes of a payload the framework refused (at the trigger's schema, or an execute's event). */
export const PAYLOAD_ERRORS = new Set(['WorkflowPayloadInvalidError', 'ExecutionEventPayloadInvalidError']);

/** The framework error code of an answer, when it is one. */
export function frameworkCode(json: unknown): string | undefined {
  const code = json !== null && typeof json === 'object' ? (json as { code?: unknown }).code : undefined;
  return typeof code === 'string' && FRAMEWORK_ERRORS.has(code) ? code : undefined;
}

/**
 * `: StepExecutionFailedError: Failed to execute Step with id: x` from the framework's error body: its
 * code and message only when the code is one of the framework's (any other answer is not echoed).
 */
function errorText(json: unknown): string {
  const code = frameworkCode(json);
  if (code === undefined) return '';
  const message = (json as { message?: unknown }).message;
  return typeof message === 'string' ? `: ${code}: ${message.slice(0, 300)}` : `: ${code}`;
}

/** The answer checked against a schema; a bad shape becomes the answer's error, naming the field. */
function checked<T extends z.ZodType>(answer: BridgeAnswer, schema: T): { answer: BridgeAnswer; value?: z.output<T> } {
  if (!answer.ok) return { answer };
  const r = safeCheck(schema, answer.json);
  if (r.success) return { answer, value: r.data };
  return { answer: { ...answer, ok: false, error: `unexpected answer: ${zodProblem(r.error)}` } };
}

/** `workflows.0.steps.1.type: Invalid option: ...`: the first problem, with the path of the bad field. */
export function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map(String).join('.');
  return `${path === '' ? '(body)' : path}: ${issue.message}`;
}

export async function healthCheck(bridgeUrl: string, opts: BridgeCallOptions) {
  const answer = await callBridge(bridgeUrl, 'health-check', opts);
  const { BridgeHealth } = await import('../../api/schemas/bridge-protocol.js');
  return checked(answer, BridgeHealth);
}

export async function discover(bridgeUrl: string, opts: BridgeCallOptions): Promise<{ answer: BridgeAnswer; value?: { workflows: BridgeWorkflow[] } }> {
  const answer = await callBridge(bridgeUrl, 'discover', opts);
  const { BridgeDiscover } = await import('../../api/schemas/bridge-protocol.js');
  return checked(answer, BridgeDiscover);
}

export async function executeStep(
  bridgeUrl: string,
  action: 'execute' | 'preview',
  workflowId: string,
  stepId: string,
  event: BridgeEvent,
  opts: BridgeCallOptions,
) {
  const answer = await callBridge(bridgeUrl, action, { ...opts, params: { workflowId, stepId }, body: event });
  const { BridgeExecuteResult } = await import('../../api/schemas/bridge-protocol.js');
  return checked(answer, BridgeExecuteResult);
}

/** An answer as an execution detail's `raw`: where, what came back, how many attempts. */
export function bridgeRaw(a: BridgeAnswer): string {
  return JSON.stringify({
    url: a.url,
    action: a.action,
    ...(a.status !== undefined && { statusCode: a.status }),
    ...(a.contentType !== undefined && { contentType: a.contentType }),
    ...(a.json !== undefined ? { body: a.json } : a.body !== undefined && a.body !== '' ? { body: a.body } : {}),
    ...(a.error !== undefined && { error: a.error }),
    attempts: a.attempts,
    durationMs: a.durationMs,
  });
}

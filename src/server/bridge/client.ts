// The caller's side of the bridge protocol: the team's app serves its code-first workflows at one URL,
// and this service asks it for its health, its workflows (discover) and each step's outputs (execute,
// preview). Every action but the health check is signed the way the framework checks it: headers
// `novu-signature` and `x-novu-signature` (the framework reads these two names; they are not ours to
// rename), `t=<ms>,v1=<hex HMAC-SHA256(secret, t + "." + JSON body)>`, a GET being signed over `{}`.
// Each attempt times out after 5 s; 408, 429, 5xx and connection errors are tried again, 3 times.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import type { z } from 'zod';
import { safeCheck } from './shapes.js';
import { BridgeDiscover, BridgeExecuteResult, BridgeHealth, type BridgeEvent, type BridgeWorkflow } from '../../api/schemas/bridge.js';

export const BRIDGE_SIGNATURE_HEADERS = ['novu-signature', 'x-novu-signature'] as const;
export const BRIDGE_TIMEOUT_MS = 5_000;
export const BRIDGE_RETRIES = 3;

export type BridgeAction = 'health-check' | 'discover' | 'execute' | 'preview';

export interface BridgeCallOptions {
  /** The environment's secret key: what the app's framework client was given as its secret. */
  secret: string;
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
  /** The last answer's body as text (cut to 4 KiB). */
  body?: string;
  /** Parsed JSON body, when it was JSON. */
  json?: unknown;
  /** Why it failed: a network error, a timeout, an HTTP status or a shape problem. */
  error?: string;
  attempts: number;
  durationMs: number;
}

export function bridgeSignature(secret: string, body: unknown, t: number): string {
  return signText(secret, JSON.stringify(body), t);
}

/** The signature over a body already serialised: the request's own text, so it is serialised once. */
function signText(secret: string, text: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${text}`).digest('hex')}`;
}

/** The action's URL: the bridge URL with `action` (and `workflowId`, `stepId`) in its query. */
export function bridgeActionUrl(bridgeUrl: string, action: BridgeAction, params: Record<string, string> = {}): string {
  const url = new URL(bridgeUrl);
  url.searchParams.set('action', action);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/** A bridge URL taken apart once (each step of each event goes to the same few URLs). */
interface Target {
  origin: string;
  /** Path and query to which `action=…` is appended; undefined when the query already has one of our parameters. */
  prefix: string | undefined;
}
const targets = new Map<string, Target | null>();
const OUR_PARAMS = /[?&](action|workflowId|stepId)=/;

function target(bridgeUrl: string): Target | null {
  let t = targets.get(bridgeUrl);
  if (t !== undefined) return t;
  try {
    const url = new URL(bridgeUrl);
    const join = url.search === '' ? '?' : url.search === '?' ? '' : '&';
    t = { origin: url.origin, prefix: OUR_PARAMS.test(url.search) ? undefined : `${url.pathname}${url.search}${join}` };
  } catch {
    t = null;
  }
  if (targets.size >= 1000) targets.clear();
  targets.set(bridgeUrl, t);
  return t;
}

/** The path and query of an action: by hand for the usual URL, through the URL API when its query has our parameters. */
function actionPath(bridgeUrl: string, t: Target, action: BridgeAction, params: Record<string, string> | undefined): string {
  if (t.prefix === undefined) {
    const url = new URL(bridgeActionUrl(bridgeUrl, action, params));
    return `${url.pathname}${url.search}`;
  }
  let path = `${t.prefix}action=${action}`;
  if (params) for (const k of Object.keys(params)) path += `&${k}=${encodeURIComponent(params[k]!)}`;
  return path;
}

// One pool of keep-alive connections for every bridge: a step is one round trip on an open socket.
// Each job in flight has its own connection (the runner keeps about a hundred in flight at most:
// its code-first slots and its shared ones).
let pool: Agent | undefined;
const agent = () => (pool ??= new Agent({ keepAliveTimeout: 10_000, connections: 112 }));

/** An answer past this size is cut off and counts as a failed attempt, before it is all held in memory. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * One request on the keep-alive pool, its answer's status and body as text. Through undici's
 * dispatcher with a handler of its own: the answer's headers are not needed, and the stream and
 * header object undici's `request` builds for each answer were most of the client's cost per step.
 * After `timeoutMs` the attempt ends (`limit.timedOut` says so), also while the connection is still
 * being made: a timer of its own, cleared with the answer, rather than an AbortSignal per attempt.
 */
function send(
  origin: string,
  path: string,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  body: string | undefined,
  limit: { timeoutMs: number; timedOut: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let size = 0;
    let settled = false;
    let abortRequest: ((e?: Error) => void) | undefined;
    const chunks: Buffer[] = [];
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    // Before the connection exists there is nothing to abort: the attempt ends here, and the
    // connection, when it comes, is aborted at once (onConnect).
    const timer = setTimeout(() => {
      limit.timedOut = true;
      const e = new Error(`no answer within ${limit.timeoutMs} ms`);
      if (abortRequest) abortRequest(e);
      else settle(() => reject(e));
    }, limit.timeoutMs);
    agent().dispatch(
      { origin, path, method, headers, body },
      {
        onConnect(abort: (e?: Error) => void) {
          abortRequest = abort;
          if (limit.timedOut) abort(new Error(`no answer within ${limit.timeoutMs} ms`));
        },
        onHeaders(statusCode: number) {
          status = statusCode;
          return true;
        },
        onData(chunk: Buffer) {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            abortRequest?.(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete: () => settle(() => resolve({ status, body: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') })),
        onError: (e: Error) => settle(() => reject(e)),
      },
    );
  });
}

const RETRY_STATUS = (s: number) => s === 408 || s === 429 || s >= 500;
const MAX_BODY_TEXT = 4096;

/** One action, with its retries. Never throws: failures are in the answer. */
export async function callBridge(
  bridgeUrl: string,
  action: BridgeAction,
  opts: BridgeCallOptions & { params?: Record<string, string>; body?: BridgeEvent },
): Promise<BridgeAnswer> {
  const started = performance.now();
  const t = target(bridgeUrl);
  if (t === null) return { ok: false, url: bridgeUrl, action, error: 'not a valid URL', attempts: 0, durationMs: 0 };
  const path = actionPath(bridgeUrl, t, action, opts.params);
  const url = t.origin + path;
  const post = action === 'execute' || action === 'preview';
  // Serialised once: the request's body is the very text that is signed.
  const text = post ? JSON.stringify(opts.body ?? {}) : '{}';
  const retries = opts.retries ?? BRIDGE_RETRIES;
  const timeoutMs = opts.timeoutMs ?? BRIDGE_TIMEOUT_MS;
  const backoff = opts.backoffMs ?? ((n: number) => 100 * 2 ** (n - 1));
  let last: BridgeAnswer = { ok: false, url, action, attempts: 0, durationMs: 0 };
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (attempt > 1) await sleep(backoff(attempt - 1));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (post) headers['content-type'] = 'application/json';
    if (action !== 'health-check') {
      const signature = signText(opts.secret, text, (opts.now ?? Date.now)());
      for (const h of BRIDGE_SIGNATURE_HEADERS) headers[h] = signature;
    }
    const limit = { timeoutMs, timedOut: false };
    try {
      const { status, body } = await send(t.origin, path, post ? 'POST' : 'GET', headers, post ? text : undefined, limit);
      let json: unknown;
      try {
        json = body === '' ? undefined : JSON.parse(body);
      } catch {
        json = undefined;
      }
      last = {
        ok: status >= 200 && status < 300,
        url,
        action,
        status,
        body: body.length > MAX_BODY_TEXT ? `${body.slice(0, MAX_BODY_TEXT)}…` : body,
        json,
        attempts: attempt,
        durationMs: 0,
      };
      if (!last.ok) last.error = `HTTP ${status}${errorText(json)}`;
      if (last.ok || !RETRY_STATUS(status)) break;
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
      const why = limit.timedOut ? `no answer within ${timeoutMs} ms` : (err.code ?? err.cause?.code ?? err.cause?.message ?? err.message);
      last = { ok: false, url, action, error: why, attempts: attempt, durationMs: 0 };
    }
  }
  last.durationMs = Math.round(performance.now() - started);
  return last;
}

/** `: StepExecutionFailedError: Failed to execute Step with id: x` from the framework's error body. */
function errorText(json: unknown): string {
  if (json === null || typeof json !== 'object') return '';
  const { code, message } = json as { code?: unknown; message?: unknown };
  const parts = [typeof code === 'string' ? code : undefined, typeof message === 'string' ? message : undefined].filter(Boolean);
  return parts.length > 0 ? `: ${parts.join(': ')}` : '';
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
  return checked(await callBridge(bridgeUrl, 'health-check', opts), BridgeHealth);
}

export async function discover(bridgeUrl: string, opts: BridgeCallOptions): Promise<{ answer: BridgeAnswer; value?: { workflows: BridgeWorkflow[] } }> {
  return checked(await callBridge(bridgeUrl, 'discover', opts), BridgeDiscover);
}

export async function executeStep(
  bridgeUrl: string,
  action: 'execute' | 'preview',
  workflowId: string,
  stepId: string,
  event: BridgeEvent,
  opts: BridgeCallOptions,
) {
  return checked(await callBridge(bridgeUrl, action, { ...opts, params: { workflowId, stepId }, body: event }), BridgeExecuteResult);
}

/** An answer as an execution detail's `raw`: where, what came back, how many attempts. */
export function bridgeRaw(a: BridgeAnswer): string {
  return JSON.stringify({
    url: a.url,
    action: a.action,
    ...(a.status !== undefined && { statusCode: a.status }),
    ...(a.json !== undefined ? { body: a.json } : a.body !== undefined && a.body !== '' ? { body: a.body } : {}),
    ...(a.error !== undefined && { error: a.error }),
    attempts: a.attempts,
    durationMs: a.durationMs,
  });
}

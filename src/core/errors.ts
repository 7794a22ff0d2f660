// Typed errors. Commands throw these; only main.ts turns them into a message and an exit code
// (cli.md, "Exit codes"). Each carries a stable `code` string for `-o json` error output.

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  credentials: 3,
  network: 4,
  notFound: 5,
  rejected: 6,
  rateLimited: 7,
  waitPending: 8,
  waitFailed: 9,
  interrupted: 130,
} as const;

export class SvcError extends Error {
  readonly code: string;
  readonly exitCode: number;
  /** A second line of advice, shown after the message. */
  readonly hint?: string;
  constructor(message: string, code: string, exitCode: number, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    if (hint !== undefined) this.hint = hint;
  }
  /** The same error with advice added (a command that knows more than the HTTP layer). */
  withHint(hint: string): this {
    (this as { hint?: string }).hint = hint;
    return this;
  }
  /** Extra members of the JSON error object. */
  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message };
  }
}

/** Invalid usage or input; nothing was sent. */
export class UsageError extends SvcError {
  constructor(message: string, hint?: string) {
    super(message, 'usage', EXIT.usage, hint);
  }
}

/**
 * A --query that parsed but failed on the result (a type error of a JMESPath function): the command
 * has done its work by then (a request it makes was sent), so not exit 2 ("nothing was sent": a
 * script retrying on 2 would send twice).
 */
export class QueryError extends SvcError {
  constructor(message: string) {
    super(
      message,
      'query_failed',
      EXIT.failure,
      'the command ran (what it sends was sent); only its output could not be shaped: run it again without --query to see it',
    );
  }
}

/** No key from any source, or a state change refused by a read-only profile. */
export class CredentialsError extends SvcError {
  constructor(message: string, code = 'no_credentials') {
    super(message, code, EXIT.credentials);
  }
}

export class ReadOnlyError extends CredentialsError {
  constructor(profile: string, command: string) {
    super(`profile '${profile}' is read-only: '${command}' changes state and was not run`, 'read_only');
  }
}

/** Network failure or timeout after all retries. */
export class NetworkError extends SvcError {
  /** Given when the request changed state and may have been carried out: repeating with it is safe. */
  readonly idempotencyKey?: string;
  constructor(message: string, code: 'network_error' | 'timeout' = 'network_error', idempotencyKey?: string, hint?: string) {
    super(message, code, EXIT.network, hint ?? safeRetryHint(idempotencyKey));
    if (idempotencyKey !== undefined) this.idempotencyKey = idempotencyKey;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), ...(this.idempotencyKey ? { idempotencyKey: this.idempotencyKey } : {}) };
  }
}

/**
 * After a state change failed in a way that does not say whether the service acted (a lost connection,
 * a timeout, a 5xx), a user's natural move is to run the command again, which would act twice; the
 * idempotency key makes the repeat safe.
 */
function safeRetryHint(idempotencyKey: string | undefined): string | undefined {
  if (!idempotencyKey) return undefined;
  return `The service may have acted on it. To try again safely, run the same command with --idempotency-key ${idempotencyKey}: a repeat is answered from the first attempt instead of acting twice.`;
}

/** A rejected key: where keys come from and how to see which one was used. */
function credentialsHint(status: number): string | undefined {
  if (status === 401)
    return 'the API key was rejected: svc login saves a working one; svc profile show says which profile and key were used (--profile, SVC_PROFILE and SVC_API_KEY choose another)';
  if (status === 403) return 'this API key may not do that: svc profile show says which profile and key were used; svc login saves another';
  return undefined;
}

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'validation_failed',
  429: 'rate_limited',
};

function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.credentials;
  if (status === 404) return EXIT.notFound;
  if (status === 400 || status === 409 || status === 422) return EXIT.rejected;
  if (status === 429) return EXIT.rateLimited;
  return EXIT.failure;
}

/** The service answered with an error status (after retries, where they apply). */
export class ApiError extends SvcError {
  readonly status: number;
  readonly body: unknown;
  readonly requestId?: string;
  /** Given for a failed state change that may have been carried out (5xx): repeating with it is safe. */
  readonly idempotencyKey?: string;
  constructor(opts: {
    status: number;
    message: string;
    body: unknown;
    requestId?: string;
    method: string;
    path: string;
    idempotencyKey?: string;
    hint?: string;
  }) {
    const code = STATUS_CODES[opts.status] ?? (opts.status >= 500 ? 'server_error' : `http_${opts.status}`);
    const where = `${opts.method} ${opts.path}`;
    const rid = opts.requestId ? ` (request id ${opts.requestId})` : '';
    super(
      `${where} failed: ${opts.status} ${opts.message}${rid}`,
      code,
      exitCodeForStatus(opts.status),
      opts.hint ?? credentialsHint(opts.status) ?? safeRetryHint(opts.idempotencyKey),
    );
    this.status = opts.status;
    this.body = opts.body;
    if (opts.requestId !== undefined) this.requestId = opts.requestId;
    if (opts.idempotencyKey !== undefined) this.idempotencyKey = opts.idempotencyKey;
  }
  override toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { code: this.code, status: this.status, message: this.message };
    if (this.requestId) out.requestId = this.requestId;
    if (this.idempotencyKey) out.idempotencyKey = this.idempotencyKey;
    const body = this.body as { errors?: unknown } | undefined;
    if (body && typeof body === 'object' && body.errors !== undefined) out.errors = body.errors;
    return out;
  }
}

/** A trigger answered 201 but was not processed (status other than `processed`). */
export class TriggerNotProcessedError extends SvcError {
  readonly result: unknown;
  constructor(status: string, errors: string[] | undefined, result: unknown) {
    const why = errors?.length ? `: ${errors.join('; ')}` : '';
    super(`trigger was not processed: ${status}${why}`, `trigger_${status}`, EXIT.failure);
    this.result = result;
  }
}

/** `trigger --wait` ended with failed or still-pending jobs. */
export class WaitOutcomeError extends SvcError {
  constructor(kind: 'failed' | 'pending', message: string) {
    super(message, kind === 'failed' ? 'delivery_failed' : 'delivery_pending', kind === 'failed' ? EXIT.waitFailed : EXIT.waitPending);
  }
}

export class InterruptedError extends SvcError {
  constructor(message = 'interrupted', hint?: string) {
    super(message, 'interrupted', EXIT.interrupted, hint);
  }
}

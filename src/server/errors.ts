// The service's one error shape, `{statusCode, timestamp, path, message, ctx?, errors?, errorId?}`,
// with the members of `ctx` also copied to the top level (ground truth, "Errors"). Handlers throw
// HttpError; everything else that reaches the error handler is mapped here too, so no request can
// produce a stack trace.
import type { z } from 'zod';
import { pickUnionBranch } from '../core/validate.js';

interface FieldErrors {
  [field: string]: { messages: string[]; value?: unknown };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const reason = (status: number): string => REASONS[status] ?? 'Error';

/**
 * What the service was given to start with is wrong: a seed file, a rate-limit spec. The service knows
 * nothing of exit codes; `svc dev` (commands/dev.ts) reports it as a usage error (exit 2).
 */
export class ServiceInputError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ServiceInputError';
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: {
      ctx?: Record<string, unknown>;
      errors?: unknown;
      headers?: Record<string, string>;
      /** Extra top-level members (e.g. `type` of a payload validation error). */
      fields?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (message: string, errors?: FieldErrors) => new HttpError(422, message, errors ? { ctx: {}, errors } : {});

interface ErrorBody {
  statusCode: number;
  timestamp: string;
  path: string;
  message: unknown;
  ctx?: Record<string, unknown>;
  errors?: unknown;
  errorId?: string;
  [k: string]: unknown;
}

export function errorBody(e: HttpError, path: string, now: string): ErrorBody {
  const ctx = e.extra.ctx ?? { error: reason(e.status), statusCode: e.status };
  const body: ErrorBody = { ...ctx, ...e.extra.fields, statusCode: e.status, timestamp: now, path, message: e.message, ctx };
  if (e.extra.errors !== undefined) body.errors = e.extra.errors;
  return body;
}

/** Field → messages and the offending value, from zod issues; `general` for the object itself. */
export function fieldErrors(error: z.ZodError, input: unknown): FieldErrors {
  const out: FieldErrors = {};
  for (const { issue, at } of error.issues.flatMap((i) => flatten(i, []))) {
    const path = at.map(String);
    const field = path.length ? path.join('.') : 'general';
    // A bad key of a map (a context type) is itself the offending value; the message names the map.
    const badKey = issue.code === 'invalid_key';
    const value = badKey ? path.at(-1) : valueAt(input, at);
    const entry = (out[field] ??= value === undefined ? { messages: [] } : { messages: [], value });
    entry.messages.push(describe(badKey ? path.slice(0, -1).join('.') || 'general' : field, issue, value));
  }
  return out;
}

/**
 * A union's error says only "no form matched"; when one form got further into the value than the
 * others (e.g. a recipient object missing `subscriberId`), its issues say what to fix.
 */
function flatten(issue: z.core.$ZodIssue, prefix: PropertyKey[]): { issue: z.core.$ZodIssue; at: PropertyKey[] }[] {
  const at = [...prefix, ...issue.path];
  const best = issue.code === 'invalid_union' ? (pickUnionBranch(issue.errors) ?? sizeBranch(issue.errors)) : undefined;
  if (best) return best.flatMap((i) => flatten(i, at));
  return [{ issue, at }];
}

/**
 * The form whose only complaint is the value's size (a list of recipients over the limit): the value
 * has that form, so what to fix is its size, not its form.
 */
function sizeBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  return branches.find((b) => b.length > 0 && b.every((i) => i.path.length === 0 && (i.code === 'too_big' || i.code === 'too_small')));
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** What the service's validator (class-validator) says of a value of the wrong type. */
const TYPE_WORDS: Record<string, string> = {
  number: 'must be a number conforming to the specified constraints',
  int: 'must be an integer number',
  string: 'must be a string',
  boolean: 'must be a boolean value',
  object: 'must be an object',
  record: 'must be an object',
  array: 'must be an array',
  tuple: 'must be an array',
};

/** zod's own sentence for a wrong type, as a refinement that re-raises another schema's issue carries it. */
const ZOD_TYPE_MESSAGE = /^Invalid input: expected (\w+), received (\w+)$/;

/** `field message`, in the style of the service's validator, class-validator ("id must be longer than ..."). */
function describe(field: string, issue: z.core.$ZodIssue, value: unknown): string {
  const name = field === 'general' ? 'value' : field;
  const wrongType = issue.code === 'invalid_type' ? { expected: issue.expected as string, missing: value === undefined } : retypedIssue(issue);
  if (wrongType?.missing) return `${name} is required`;
  if (wrongType) return `${name} ${TYPE_WORDS[wrongType.expected] ?? `must be of type ${wrongType.expected}`}`;
  if (issue.code === 'invalid_value') return `${name} must be one of the following values: ${issue.values.map((v) => String(v)).join(', ')}`;
  // A list over its limit says so in the validator's words, whatever the schema's own sentence.
  if (issue.code === 'too_big' && issue.origin === 'array') return `${name} must contain no more than ${String(issue.maximum)} elements`;
  if (issue.code === 'unrecognized_keys') return `${name} has unknown keys: ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_union') return `${name} does not match any of the accepted forms`;
  const msg = issue.message;
  // A schema's own sentence that names its field ("each value in tags must be ...", "All tags's
  // elements must be unique", in the service's words) is the whole message.
  const last = field.split('.').pop() ?? field;
  if (issue.code === 'custom' && new RegExp(`\\b${last.replace(/[^\w]/g, '')}\\b`).test(msg)) return msg;
  return /^[a-z]/.test(msg) ? `${name} ${msg}` : `${name}: ${msg}`;
}

/** A refinement's re-raised wrong-type issue (the endpoint shape of a channel endpoint's type). */
function retypedIssue(issue: z.core.$ZodIssue): { expected: string; missing: boolean } | undefined {
  if (issue.code !== 'custom') return undefined;
  const m = ZOD_TYPE_MESSAGE.exec(issue.message);
  return m ? { expected: m[1]!, missing: m[2] === 'undefined' } : undefined;
}

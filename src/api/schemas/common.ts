// Building blocks shared by the resource schemas: ids, dates, context keys, paging envelopes, the error
// body, and the coercions that let one query schema accept both typed values (client) and the strings
// of a query string (local service).
import { z } from 'zod';
import { OBJECT_ID_RE } from '../enum-values.js';

export { OBJECT_ID_RE };
/** A database id: 24 hexadecimal characters, refused in the service's words ("must be a mongodb id"). */
export const ObjectId = z.string().regex(OBJECT_ID_RE, 'must be a mongodb id');

export const IsoDate = z.string();

/**
 * Context type and id: 1 to 100 characters of `[a-zA-Z0-9_-]`, refused in the service's words
 * ("id must be longer than or equal to 1 characters"). An empty one gets that message alone: that it
 * also lacks the right characters says nothing more.
 */
const CONTEXT_PART_RE = /^[a-zA-Z0-9_-]+$/;
export const ContextPart = z
  .string()
  .min(1, { error: 'must be longer than or equal to 1 characters', abort: true })
  .max(100, 'must be shorter than or equal to 100 characters')
  .regex(CONTEXT_PART_RE, 'must contain only letters, digits, "_" and "-"');
/** `type:id`, as contexts are referenced by notifications, messages and endpoint filters. */
export const ContextKey = z.string().refine((s) => {
  const i = s.indexOf(':');
  if (i <= 0) return false;
  return ContextPart.safeParse(s.slice(0, i)).success && ContextPart.safeParse(s.slice(i + 1)).success;
}, 'must be TYPE:ID, each 1-100 characters of letters, digits, "_" and "-"');

/** A trigger/connection `context` value: `{type: "id" | {id, data?}}`. */
const ContextValue = z.union([ContextPart, z.looseObject({ id: ContextPart, data: z.record(z.string(), z.unknown()).optional() })]);
/**
 * A `context` map: each key is a context type, held to the same rules as `POST /v2/contexts`' type, so
 * that no request stores a context key (`type:id`) that the contextKeys filters would then refuse. A
 * bad key's issue says "type must ...", under the key's path.
 */
export const ContextPayload = z.record(ContextPart, ContextValue, {
  error: (issue) => (issue.code === 'invalid_key' ? `type ${issue.issues.map((i) => i.message).join(', ')}` : undefined),
});

export const JsonObject = z.record(z.string(), z.unknown());

/**
 * Metadata for a refinement whose meaning the same metadata states in JSON Schema keywords, e.g.
 * `.refine(...).meta({ ...STATED_REFINEMENT, maxProperties: 5 })`: the build's compiled validators
 * (api/shape-compile.ts) then check it too; any other refinement leaves its schema to zod alone.
 */
export const STATED_REFINEMENT = { 'x-refinement-stated': true } as const;
export type JsonObject = Record<string, unknown>;

/** Cursor envelope (channel endpoints, channel connections, subscribers). */
export function cursorEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    totalCount: z.number(),
    totalCountCapped: z.boolean(),
  });
}

/** Page envelope of the activity feed. */
export function pageEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({ hasMore: z.boolean(), data: z.array(item), pageSize: z.number(), page: z.number() });
}

/** The service's one error shape (ground truth, "Errors"). */
export const ErrorBody = z.looseObject({
  statusCode: z.number(),
  timestamp: z.string(),
  path: z.string(),
  message: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
  errors: z.unknown().optional(),
  errorId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// --- query-string coercions -------------------------------------------------------------------------

/** A repeated query parameter: accepts one value or many. */
export function queryArray<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item));
}

/** An integer query parameter: accepts a number or its decimal string. */
export function queryInt(opts: { min?: number; max?: number } = {}) {
  let n = z.number().int('must be an integer');
  if (opts.min !== undefined) n = n.min(opts.min, `must not be less than ${opts.min}`);
  if (opts.max !== undefined) n = n.max(opts.max, `must not be greater than ${opts.max}`);
  return z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v), n);
}

/** A boolean query parameter: accepts true/false or "true"/"false". */
export const QueryBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: 'must be true or false' }));

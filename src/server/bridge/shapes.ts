// The bridge's answers checked by validators compiled from their zod schemas (still the one source of
// truth), where JSON Schema states a schema exactly (exactJsonSchema: no refinement, no transform):
// every step's answer is checked twice (the execute result, then its outputs for the step type), and
// zod's parse, which copies what it checks, was most of that. An answer the compiled validator
// refuses, and a schema it cannot stand in for, go to zod, whose result and message are the ones used.
import { Ajv, type ValidateFunction } from 'ajv';
import type { z } from 'zod';
import { exactJsonSchema } from '../../api/shape-compile.js';

const compiled = new WeakMap<z.ZodType, ValidateFunction | null>();
let ajv: Ajv | undefined;

/** `schema.safeParse(data)`, with what it accepts given back as is (data parsed from JSON). */
export function safeCheck<T extends z.ZodType>(schema: T, data: unknown): z.ZodSafeParseResult<z.output<T>> {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    const exact = exactJsonSchema(schema);
    validate = 'schema' in exact ? (ajv ??= new Ajv({ strict: false })).compile(exact.schema) : null;
    compiled.set(schema, validate);
  }
  if (validate?.(data)) return { success: true, data: data as z.output<T> };
  return schema.safeParse(data);
}

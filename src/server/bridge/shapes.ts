// The bridge's answers checked by validators compiled from their zod schemas (still the one source of
// truth), where JSON Schema states a schema exactly (exactJsonSchema: no refinement, no transform):
// every step's answer is checked twice (the execute result, then its outputs for the step type), and
// zod's parse, which copies what it checks, was most of that. An answer the compiled validator
// refuses, and a schema it cannot stand in for, go to zod, whose result and message are the ones used.
//
// The compiler (ajv, and the schemas' JSON Schema) loads with the first answer checked; until it has,
// answers go to zod, which gives the same result.
import type { Ajv, ValidateFunction } from 'ajv';
import type { z } from 'zod';

type Compiler = typeof import('./compiled-checks.js');
const compiled = new WeakMap<z.ZodType, ValidateFunction | null>();
let ajv: Ajv | undefined;
let compiler: Compiler | undefined;
let loading = false;

function loadCompiler(): void {
  if (loading) return;
  loading = true;
  void import('./compiled-checks.js').then(
    ({ Ajv, exactJsonSchema }) => {
      compiler = { Ajv, exactJsonSchema };
    },
    () => undefined,
  );
}

/** `schema.safeParse(data)`, with what it accepts given back as is (data parsed from JSON). */
export function safeCheck<T extends z.ZodType>(schema: T, data: unknown): z.ZodSafeParseResult<z.output<T>> {
  let validate = compiled.get(schema);
  if (validate === undefined && compiler) {
    const exact = compiler.exactJsonSchema(schema);
    validate = 'schema' in exact ? (ajv ??= new compiler.Ajv({ strict: false })).compile(exact.schema) : null;
    compiled.set(schema, validate);
  } else if (validate === undefined) loadCompiler();
  if (validate?.(data)) return { success: true, data: data as z.output<T> };
  return schema.safeParse(data);
}

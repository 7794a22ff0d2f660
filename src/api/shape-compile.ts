// Compiles the response schemas of the operation table (zod, the one source of truth) into standalone
// validator code at build time, so that checking an answer's shape does not load zod and build every
// schema (~20 ms of CPU in a one-request command, issue 11). The path is zod → JSON Schema (zod's own
// z.toJSONSchema) → ajv's standalone code; scripts/build.mjs bundles the result as a virtual module.
//
// The fast check must never accept what zod would refuse. A schema whose JSON Schema is not exactly as
// strict as zod gets no fast check: refinements (zod drops them from JSON Schema silently), transforms
// and preprocessors (unrepresentable: z.toJSONSchema throws). It may refuse what zod accepts (e.g. a
// oneOf that two branches match): the session then asks zod, so a refusal is never the last word.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { z } from 'zod';

export interface CompiledShapes {
  /** The module that replaces shape-validators.ts in the bundle: it imports each operation's on first use. */
  index: string;
  /** Operation name → an ES module exporting `validate`, imported as `svc-shape:<name>`. */
  modules: Record<string, string>;
  /** Operations whose answer is checked by zod alone, and why. */
  skipped: Record<string, string>;
}

/** An entry of the operation table (operations.ts); only its response schema matters here. */
interface WithResponse {
  response?: z.ZodType;
  [key: string]: unknown;
}

/** JSON Schema for one response, or the reason it cannot stand in for the zod schema. */
export function responseJsonSchema(schema: z.ZodType): { schema: Record<string, unknown> } | { reason: string } {
  let reason: string | undefined;
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-7',
      unrepresentable: 'throw',
      override(ctx) {
        const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; checks?: { _zod: { def: { check: string } } }[] } } })._zod.def;
        if (def.checks?.some((c) => c._zod.def.check === 'custom')) reason ??= 'a refinement (not expressible in JSON Schema)';
        // In input mode zod states a pipe (a preprocess, a transform) by its input side alone, which
        // accepts what the output side may refuse.
        if (def.type === 'pipe' || def.type === 'transform' || def.type === 'custom') reason ??= `a ${def.type} (only zod can run it)`;
      },
    }) as Record<string, unknown>;
  } catch (e) {
    return { reason: `not expressible in JSON Schema (${(e as Error).message.split('\n')[0]})` };
  }
  if (reason) return { reason };
  delete json.$schema;
  return { schema: json };
}

/** Standalone validator code for every operation with a response schema that JSON Schema states exactly. */
export function compileShapes(operations: Record<string, WithResponse>): CompiledShapes {
  // A CommonJS module whose function is both module.exports and .default: the same function either way.
  type Standalone = typeof standalone.default;
  const mod = standalone as unknown as Standalone & { default?: Standalone };
  const standaloneCode = mod.default ?? mod;
  const ajv = new Ajv({ code: { source: true, esm: true }, strict: false, allErrors: false, validateFormats: false });
  const modules: Record<string, string> = {};
  const skipped: Record<string, string> = {};
  const withoutResponse: string[] = [];
  for (const [name, op] of Object.entries(operations)) {
    if (!op.response) {
      withoutResponse.push(name);
      continue;
    }
    const r = responseJsonSchema(op.response);
    if ('reason' in r) {
      skipped[name] = r.reason;
      continue;
    }
    ajv.addSchema(r.schema, name);
    modules[name] = standaloneCode(ajv, { validate: name });
  }
  // One dynamic import per operation: the bundler makes each its own chunk, loaded by the command that needs it.
  const cases = Object.keys(modules).map((n) => `    case ${JSON.stringify(n)}: return (await import(${JSON.stringify(`svc-shape:${n}`)})).validate;`);
  const index = [
    'export const shapes = {',
    `  withoutResponse: ${JSON.stringify(withoutResponse)},`,
    '  async validator(name) {',
    '    switch (name) {',
    ...cases,
    '    default: return undefined;',
    '    }',
    '  },',
    '};',
    '',
  ].join('\n');
  return { index, modules, skipped };
}

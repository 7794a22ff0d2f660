// Compiles schemas of the operation table (zod, the one source of truth) into standalone validator code
// at build time, so that a one-request command checks its input and the answer's shape without loading
// zod and building every schema, which would be most of such a command's start-up (bench/validators.mjs
// says what each costs). The path is zod → JSON Schema (zod's own z.toJSONSchema) → ajv's standalone
// code; scripts/build.mjs bundles the result, a chunk per validator.
//
// A compiled validator must never accept what zod would refuse. A schema whose JSON Schema is not
// exactly as strict as zod gets none: transforms and preprocessors (zod states a pipe by its input side
// alone), and refinements, which zod drops from JSON Schema silently, unless the schema states the
// refinement in JSON Schema terms itself (`.meta({ ...STATED_REFINEMENT, maxProperties: 5 })`). It may
// refuse what zod accepts (a oneOf that two branches match): the caller then asks zod, so a refusal is
// never the last word, and zod's message is the one the user sees.
//
// A request body is checked only where zod's parse gives back the value it was given (what is sent is
// what the user wrote): objects that keep unknown keys (looseObject) or refuse them (strictObject), no
// defaults, no catch. A plain z.object strips unknown keys, so a body with one is left to zod.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { z } from 'zod';
import { STATED_REFINEMENT } from './schemas/common.js';

interface CompiledShapes {
  /** The module that replaces shape-validators.ts in the bundle: it imports each validator on first use. */
  index: string;
  /** `response:<operation>` or `body:<operation>` → an ES module exporting `validate`. */
  modules: Record<string, string>;
  /** The same keys: why zod alone checks it. */
  skipped: Record<string, string>;
}

/** An entry of the operation table (operations.ts); only its body and response schemas matter here. */
interface WithSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  [key: string]: unknown;
}

interface ZodDef {
  type: string;
  checks?: { _zod: { def: { check: string } } }[];
  catchall?: unknown;
}

/**
 * JSON Schema for one schema, or the reason it cannot stand in for zod. `identity`: also require that
 * zod's parse returns its input unchanged (request bodies).
 */
export function exactJsonSchema(schema: z.ZodType, opts: { identity?: boolean } = {}): { schema: Record<string, unknown> } | { reason: string } {
  let reason: string | undefined;
  let json: Record<string, unknown>;
  const marker = Object.keys(STATED_REFINEMENT)[0]!;
  // zod visits a schema given metadata and the schema it was made from (the same checks, no metadata):
  // a refinement counts as stated when any schema that carries it is marked.
  const stated = new Set<unknown>();
  const refinements: unknown[] = [];
  try {
    json = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-7',
      unrepresentable: 'throw',
      // A sub-schema used more than once (a recipient in `to` and in `actor`) becomes one definition, and one function in the code.
      reused: 'ref',
      override(ctx) {
        const def = (ctx.zodSchema as unknown as { _zod: { def: ZodDef } })._zod.def;
        const marked = (ctx.jsonSchema as Record<string, unknown>)[marker] === true;
        for (const c of def.checks ?? []) {
          if (c._zod.def.check !== 'custom') continue;
          refinements.push(c);
          if (marked) stated.add(c);
        }
        if (def.type === 'pipe' || def.type === 'transform' || def.type === 'custom') reason ??= `a ${def.type} (only zod can run it)`;
        if (opts.identity) {
          if (def.type === 'default' || def.type === 'prefault' || def.type === 'catch') reason ??= `a ${def.type} (zod's parse would change the value)`;
          if (def.type === 'object' && def.catchall === undefined) reason ??= 'an object that strips unknown keys (zod would change the value)';
        }
      },
    }) as Record<string, unknown>;
  } catch (e) {
    return { reason: `not expressible in JSON Schema (${(e as Error).message.split('\n')[0]})` };
  }
  if (refinements.some((c) => !stated.has(c))) reason ??= 'a refinement (not expressible in JSON Schema)';
  if (reason) return { reason };
  delete json.$schema;
  return { schema: JSON.parse(JSON.stringify(json, (k, v) => (k === marker ? undefined : v))) as Record<string, unknown> };
}

/** Standalone validator code for the bodies and answers of the operation table that JSON Schema states exactly. */
export function compileShapes(operations: Record<string, WithSchemas>): CompiledShapes {
  // A CommonJS module whose function is both module.exports and .default: the same function either way.
  type Standalone = typeof standalone.default;
  const mod = standalone as unknown as Standalone & { default?: Standalone };
  const standaloneCode = mod.default ?? mod;
  // As zod counts: string lengths in UTF-16 units (`unicode: false`), patterns without the u flag.
  const ajv = new Ajv({
    code: { source: true, esm: true },
    strict: false,
    allErrors: false,
    validateFormats: false,
    unicode: false,
    unicodeRegExp: false,
    logger: false,
    inlineRefs: false,
    // Only whether an answer passes is read (zod words the refusal): no error messages in the code.
    messages: false,
    // Long enums (the provider ids) and required lists as loops over the schema's array, not unrolled.
    loopEnum: 8,
    loopRequired: 8,
  });
  const modules: Record<string, string> = {};
  const skipped: Record<string, string> = {};
  const withoutResponse: string[] = [];
  const withoutInput: string[] = [];
  for (const [name, op] of Object.entries(operations)) {
    if (!op.response) withoutResponse.push(name);
    if (!op.params && !op.query && !op.body) withoutInput.push(name);
    for (const [kind, schema] of [
      ['response', op.response],
      ['body', op.body],
    ] as const) {
      if (!schema) continue;
      const key = `${kind}:${name}`;
      const r = exactJsonSchema(schema, { identity: kind === 'body' });
      if ('reason' in r) {
        skipped[key] = r.reason;
        continue;
      }
      ajv.addSchema(r.schema, key);
      modules[key] = standaloneCode(ajv, { validate: key });
    }
  }
  // One dynamic import per validator: the bundler makes each its own chunk, loaded by the command that
  // needs it. A table of small loaders, not one async function with a case per validator: V8 compiles a
  // function when it first runs, and a switch of some 200 awaits was a large one to compile on every
  // command that checks an answer (about a millisecond); a loader is a line.
  const loaders = Object.keys(modules).map((k) => `  ${JSON.stringify(k)}: () => import(${JSON.stringify(`svc-shape:${k}`)}),`);
  const index = [
    'const loaders = {',
    ...loaders,
    '};',
    'export const shapes = {',
    `  withoutResponse: ${JSON.stringify(withoutResponse)},`,
    `  withoutInput: ${JSON.stringify(withoutInput)},`,
    '  async validator(kind, name) {',
    '    const key = `${kind}:${name}`;',
    '    return Object.hasOwn(loaders, key) ? (await loaders[key]()).validate : undefined;',
    '  },',
    '};',
    '',
  ].join('\n');
  return { index, modules, skipped };
}

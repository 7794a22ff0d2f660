// Validators of request bodies and answers, compiled from the zod schemas of the operation table
// (shape-compile.ts). The build (scripts/build.mjs) replaces this module with the compiled code, a chunk
// per validator; run from source (tests, tsc) there is none, and zod alone checks everything.
type ShapeValidator = (data: unknown) => boolean;

interface Shapes {
  /** Operations that answer without a body to check (204). */
  withoutResponse: readonly string[];
  /** Operations that take nothing to check (no path parameters, query or body): the local service builds no schema for them. */
  withoutInput: readonly string[];
  /** The compiled validator, loaded on first use; undefined when zod alone checks it. */
  validator(kind: 'body' | 'response', name: string): Promise<ShapeValidator | undefined>;
}

export const shapes: Shapes | undefined = undefined;

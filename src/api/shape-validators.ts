// Validators of the answers' shapes, compiled from the zod response schemas (shape-compile.ts). The
// build (scripts/build.mjs) replaces this module with the compiled code, one chunk per operation; run
// from source (tests, tsc) there is none, and the session checks every answer with zod alone.
export type ShapeValidator = (data: unknown) => boolean;

export interface Shapes {
  /** Operations that answer without a body to check (204). */
  withoutResponse: readonly string[];
  /** The compiled validator of an operation's answer, loaded on first use; undefined when zod alone checks it. */
  validator(name: string): Promise<ShapeValidator | undefined>;
}

export const shapes: Shapes | undefined = undefined;

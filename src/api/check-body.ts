// A request body checked before it is sent: by the validator the build compiled from the operation's zod
// schema when there is one (no zod loaded), else, and whenever that refuses, by zod itself, whose message
// names the flag or field (exit 2, nothing sent).
import type { z } from 'zod';
import type { OperationName, operations } from './operations.js';
import { shapes } from './shape-validators.js';
import { parseOrUsage } from '../core/validate.js';

type BodyOf<N extends OperationName> = (typeof operations)[N] extends { body: infer S extends z.ZodType } ? z.output<S> : unknown;

export async function checkBody<N extends OperationName>(name: N, body: unknown, label: (path: string) => string): Promise<BodyOf<N>> {
  // A compiled body validator exists only where zod's parse gives back its input unchanged.
  if ((await shapes?.validator('body', name))?.(body)) return body as BodyOf<N>;
  const { operations: table } = await import('./operations.js');
  const schema = (table[name] as { body?: z.ZodType }).body;
  return (schema ? parseOrUsage(schema, body, label) : body) as BodyOf<N>;
}

// Turns zod validation failures into one-line messages that name the flag or field and what was
// expected. Used by the commands (before anything is sent) and by the local service (422 bodies).
import type { z } from 'zod';
import { UsageError } from './errors.js';

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `to[0].subscriberId`, `payload.user.name`. */
function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

/**
 * A union reports every branch's issues; the branch that got furthest into the value (deepest path,
 * then fewest issues) is the one the user meant, so its issues are the ones worth showing. Undefined
 * when no branch got into the value at all. The local service's 422 bodies use it too.
 */
export function pickUnionBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  let best: readonly Issue[] | undefined;
  for (const b of branches) {
    if (b.length === 0) continue;
    if (best === undefined || depth(b) > depth(best) || (depth(b) === depth(best) && b.length < best.length)) best = b;
  }
  return best && depth(best) > 0 ? best : undefined;
}

function flattenIssues(issues: readonly Issue[], prefix: Path = []): { path: Path; message: string }[] {
  const out: { path: Path; message: string }[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const best = issue.code === 'invalid_union' ? pickUnionBranch(issue.errors) : undefined;
    if (best) out.push(...flattenIssues(best, path));
    else out.push({ path, message: messageOf(issue) });
  }
  return out;
}

function depth(issues: readonly Issue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

function messageOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      // zod leaves `input` out of issues unless asked; its message names what it received.
      const got = 'input' in issue ? typeName(issue.input) : /received (\w+)/.exec(issue.message)?.[1];
      return got === 'undefined' ? 'is required' : `expected ${issue.expected}${got ? `, got ${got}` : ''}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field(s) ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'does not match any accepted form';
    default:
      return issue.message;
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

interface FieldProblem {
  field: string;
  message: string;
}

/** All problems of a failed parse, each with its dotted field path. */
export function problemsOf(error: z.ZodError): FieldProblem[] {
  return flattenIssues(error.issues).map((p) => ({ field: formatPath(p.path), message: p.message }));
}

/**
 * One line for the user. `label` maps a field path to what the user typed it as (a flag, an argument
 * or a field inside a JSON flag); the default shows the field path itself.
 */
export function describeZodError(error: z.ZodError, label: (path: string) => string = (p) => p || 'input'): string {
  const problems = problemsOf(error);
  const shown = problems.slice(0, 3).map((p) => `${label(p.field)}: ${p.message}`);
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return shown.join('; ') + more;
}

/** Parses or throws a UsageError naming the flag. */
export function parseOrUsage<T extends z.ZodType>(schema: T, value: unknown, label: (path: string) => string): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new UsageError(describeZodError(r.error, label));
}

/**
 * A label function from a table of top-level fields to flags: `{payload: '--payload', to: '--to'}`.
 * A nested field keeps its path after the flag (`--payload user.name`).
 */
export function flagLabels(map: Record<string, string>, fallback = 'input'): (path: string) => string {
  return (path) => {
    if (!path) return fallback;
    const top = /^[^.[]+/.exec(path)?.[0] ?? path;
    const flag = map[top];
    if (!flag) return path;
    const rest = path.slice(top.length).replace(/^\./, '');
    return rest ? `${flag} ${rest}` : flag;
  };
}

// The words of execution details: what a support person reads in `svc events get` to see why a step
// did or did not deliver. Each names the thing to fix (control, variable, line and column, condition).
import type { StepFilter } from '../../api/schemas/resources.js';
import type { TemplateError, UndefinedVariable } from '../engine/index.js';

/** `body (line 1, column 9): unexpected token in "{{ payload.name | }}"`. */
function templateErrorText(e: TemplateError): string {
  const where = e.line !== undefined ? ` (line ${e.line}, column ${e.column})` : '';
  const variable = e.variable ? `, variable ${e.variable}` : '';
  const filter = e.filter ? `, filter ${e.filter}` : '';
  const expression = e.expression ? ` in "${e.expression.length > 80 ? `${e.expression.slice(0, 77)}...` : e.expression}"` : '';
  return `${e.control ?? 'template'}${where}${variable}${filter}: ${e.message}${expression}`;
}

export function templateErrorsText(errors: readonly TemplateError[]): string {
  return `Template error: ${errors.map(templateErrorText).join('; ')}`;
}

export function undefinedVariablesText(list: readonly UndefinedVariable[]): string {
  return list.map((v) => `${v.variable} (${v.control ?? 'template'}, line ${v.line}, column ${v.column})`).join(', ');
}

const UNITS: [number, string][] = [
  [604_800_000, 'week'],
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
];

/** `1 hour 30 minutes`, `45 seconds`, `250 ms`: the two largest units. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [size, name] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
      rest -= n * size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** `(payload.tier EQUAL "pro" AND subscriber.email LIKE "%@acme.com")`, one group per filter. */
export function filtersText(filters: readonly StepFilter[]): string {
  return filters
    .map((f) => {
      const parts = (f.children ?? []).map((c) => `${c.on}.${c.field} ${c.operator} ${JSON.stringify(c.value)}`);
      const group = `(${parts.join(` ${f.value ?? 'AND'} `) || 'no conditions'})`;
      return f.isNegated ? `NOT ${group}` : group;
    })
    .join(' OR ');
}

/** A value as compact JSON, cut to `max` characters: conditions and outputs in details. */
export function jsonText(value: unknown, max = 300): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

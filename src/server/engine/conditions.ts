// Step conditions: the `skip` control (JSON logic, evaluated with json-logic-js) and the legacy step and
// integration filters (`StepFilter` groups of field comparisons on the subscriber or the payload).
import jsonLogic from 'json-logic-js';
import type { StepFilter } from '../../api/schemas/resources.js';
import type { TemplateScope } from './types.js';

/** `raw`, with an error: the rule and the reason, as JSON, for the execution detail's `raw`. */
type SkipDecision = { skip: boolean; error?: string; raw?: string };

// --- the service's rule-editor operators ---------------------------------------------------------
// The service registers its own operators with json-logic-js for the rules its skip-condition editor
// writes, and replaces the comparisons with ones that read "true"/"false", numbers in strings and ISO
// dates; they are registered once, here, so a rule evaluates in svc dev as it does there. The service's
// operators are false whenever an operand has the wrong type (a string operator on an array included).

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const has = (haystack: unknown, needle: unknown): boolean => {
  if (Array.isArray(haystack)) return haystack.some((h) => h === needle);
  if (typeof haystack === 'string' && needle !== undefined && needle !== null) return haystack.includes(String(needle));
  return false;
};
const isBlank = (a: unknown): boolean =>
  a === undefined || a === null || a === '' || (Array.isArray(a) && a.length === 0) || (typeof a === 'object' && a !== null && Object.keys(a).length === 0);

/** The service's string operators: both operands strings, else false (whatever the operator). */
const strings =
  (test: (input: string, value: string) => boolean) =>
  (a: unknown, b: unknown): boolean =>
    typeof a === 'string' && typeof b === 'string' && test(a, b);

/** `between`/`notBetween`: a number against `[min, max]` numbers, else false. */
const range =
  (test: (n: number, min: number, max: number) => boolean) =>
  (a: unknown, r: unknown): boolean =>
    typeof a === 'number' && Array.isArray(r) && r.length === 2 && typeof r[0] === 'number' && typeof r[1] === 'number' && test(a, r[0], r[1]);

const asBoolean = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);

/**
 * Two operands made comparable, as the service's comparisons read them: both booleans (or "true" /
 * "false"), else both numbers (`Number()` of each), else both dates; otherwise not comparable.
 */
function ruleComparable(a: unknown, b: unknown): [number | boolean, number | boolean] | undefined {
  const ba = asBoolean(a);
  const bb = asBoolean(b);
  if (ba !== undefined && bb !== undefined) return [ba, bb];
  const na = Number(a);
  const nb = Number(b);
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return [na, nb];
  if (typeof a === 'string' && typeof b === 'string') {
    const da = Date.parse(a);
    const db = Date.parse(b);
    if (!Number.isNaN(da) && !Number.isNaN(db)) return [da, db];
  }
  return undefined;
}
const comparing =
  (test: (a: number | boolean, b: number | boolean) => boolean) =>
  (a: unknown, b: unknown): boolean => {
    const c = ruleComparable(a, b);
    return c !== undefined && test(c[0], c[1]);
  };

/** `==` as the service has it: comparable operands by value, anything else strictly. */
function equal(a: unknown, b: unknown): boolean {
  const c = ruleComparable(a, b);
  return c === undefined ? a === b : c[0] === c[1];
}

const DATE_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
type DateUnit = (typeof DATE_UNITS)[number];
/** `{amount, unit}` of the relative-date operators (amount > 0), else undefined. */
function relative(v: unknown): { amount: number; unit: DateUnit } | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  const { amount, unit } = v as { amount?: unknown; unit?: unknown };
  if (typeof amount !== 'number' || amount <= 0 || !DATE_UNITS.includes(unit as DateUnit)) return undefined;
  return { amount, unit: unit as DateUnit };
}
/** `amount` `unit`s before now. */
function ago(amount: number, unit: DateUnit, now = new Date()): number {
  const d = new Date(now);
  if (unit === 'minutes') d.setUTCMinutes(d.getUTCMinutes() - amount);
  else if (unit === 'hours') d.setUTCHours(d.getUTCHours() - amount);
  else if (unit === 'days') d.setUTCDate(d.getUTCDate() - amount);
  else if (unit === 'weeks') d.setUTCDate(d.getUTCDate() - amount * 7);
  else if (unit === 'months') d.setUTCMonth(d.getUTCMonth() - amount);
  else d.setUTCFullYear(d.getUTCFullYear() - amount);
  return d.getTime();
}
const TOLERANCE_MS: Record<DateUnit, number> = {
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
  weeks: 86_400_000,
  months: 86_400_000,
  years: 7 * 86_400_000,
};
/** A relative-date operator: the value a date (ISO string or ms), the rule `{amount, unit}`, else false. */
const dated =
  (test: (t: number, target: number, unit: DateUnit) => boolean) =>
  (a: unknown, rule: unknown): boolean => {
    const r = relative(rule);
    const t = typeof a === 'string' || typeof a === 'number' ? new Date(a).getTime() : Number.NaN;
    return r !== undefined && !Number.isNaN(t) && test(t, ago(r.amount, r.unit), r.unit);
  };

/** The custom operators: name → implementation (arguments already evaluated). */
export const CUSTOM_SKIP_OPERATORS: Record<string, (...args: unknown[]) => unknown> = {
  // The service's own.
  '=': (a, b) => equal(a, b),
  startsWith: strings((a, b) => a.startsWith(b)),
  endsWith: strings((a, b) => a.endsWith(b)),
  contains: strings((a, b) => a.includes(b)),
  doesNotContain: strings((a, b) => !a.includes(b)),
  doesNotBeginWith: strings((a, b) => !a.startsWith(b)),
  doesNotEndWith: strings((a, b) => !a.endsWith(b)),
  null: (a) => a === null,
  notNull: (a) => a !== null,
  notIn: (a, list) => Array.isArray(list) && !list.includes(a),
  between: range((n, min, max) => n >= min && n <= max),
  notBetween: range((n, min, max) => n < min || n > max),
  moreThanXAgo: dated((t, target) => t < target),
  lessThanXAgo: dated((t, target) => t >= target),
  withinLast: dated((t, target) => t >= target && t <= Date.now()),
  notWithinLast: dated((t, target) => t < target),
  exactlyXAgo: dated((t, target, unit) => Math.abs(t - target) <= TOLERANCE_MS[unit]),
  // svc dev's additions (not in the service's editor): a string or array against a list of values,
  // and no value at all (undefined, null, "", [] or {}).
  containsAny: (a, list) => asList(list).some((v) => has(a, v)),
  containsAll: (a, list) => asList(list).length > 0 && asList(list).every((v) => has(a, v)),
  containsNone: (a, list) => !asList(list).some((v) => has(a, v)),
  isEmpty: (a) => isBlank(a),
  isNotEmpty: (a) => !isBlank(a),
};

/** json-logic's comparisons, replaced as the service replaces them (see `ruleComparable`). */
const SERVICE_COMPARISONS: Record<string, (...args: unknown[]) => boolean> = {
  '==': (a, b) => equal(a, b),
  '!=': (a, b) => !equal(a, b),
  '<': comparing((a, b) => a < b),
  '>': comparing((a, b) => a > b),
  '>=': comparing((a, b) => a >= b),
  // Three operands: between (`a <= b <= c`), as the rule editor writes it.
  '<=': (a, b, c) => {
    if (c === undefined) return comparing((x, y) => x <= y)(a, b);
    const first = ruleComparable(a, b);
    const second = ruleComparable(b, c);
    return first !== undefined && second !== undefined && first[0] <= first[1] && second[0] <= second[1];
  },
};

for (const [name, fn] of Object.entries(SERVICE_COMPARISONS)) {
  jsonLogic.rm_operation(name);
  jsonLogic.add_operation(name, fn);
}
for (const [name, fn] of Object.entries(CUSTOM_SKIP_OPERATORS)) jsonLogic.add_operation(name, fn);

function isEmptyRule(rule: unknown): boolean {
  return rule === undefined || rule === null || (typeof rule === 'object' && !Array.isArray(rule) && Object.keys(rule).length === 0);
}

/**
 * Whether the step is skipped. Per the API spec the `skip` control holds conditions "that skip the
 * step when they hold"; an empty object means no conditions. Variables read the scope, e.g.
 * `{"var": "payload.tier"}` or `{"var": "subscriber.data.role"}`. A rule json-logic cannot evaluate
 * (an unknown operator) does not skip and comes back as `error`, for the runner to fail the step
 * with that message rather than guess.
 */
export function shouldSkip(skip: unknown, scope: TemplateScope): SkipDecision {
  if (isEmptyRule(skip)) return { skip: false };
  // The raw detail words the failure as the service does: "Failed to evaluate rule: <why>".
  const failed = (reason: string, error: string): SkipDecision => ({
    skip: false,
    error,
    raw: JSON.stringify({ rule: skip, reason: `Failed to evaluate rule: ${reason}` }),
  });
  if (typeof skip !== 'object' || Array.isArray(skip)) {
    return failed('not a JSON-logic object', 'skip must be a JSON-logic object, e.g. {"==": [{"var": "payload.tier"}, "pro"]}');
  }
  try {
    return { skip: jsonLogic.truthy(jsonLogic.apply(skip as jsonLogic.RulesLogic, scope)) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return failed(reason, `skip condition could not be evaluated: ${reason}`);
  }
}

/** The data paths a JSON-logic rule reads (`var` operands), e.g. `payload.tier`. */
export function skipVariables(rule: unknown): string[] {
  const found: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item) => visit(item, depth + 1));
      return;
    }
    for (const [op, operand] of Object.entries(node)) {
      if (op === 'var') {
        const path = Array.isArray(operand) ? operand[0] : operand;
        if (typeof path === 'string' && path !== '') found.push(path);
        else if (typeof path === 'number') found.push(String(path));
      } else {
        visit(operand, depth + 1);
      }
    }
  };
  visit(rule, 0);
  return found;
}

/** Operators json-logic-js knows; anything else is an issue in a skip rule. */
export function unknownSkipOperators(rule: unknown): string[] {
  const unknown = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((item) => visit(item, depth + 1));
      return;
    }
    const keys = Object.keys(node);
    if (keys.length !== 1) return; // not a logic node: data
    const op = keys[0] as string;
    try {
      jsonLogic.apply({ [op]: [] } as jsonLogic.RulesLogic, {});
    } catch (err) {
      if (err instanceof Error && /Unrecognized operation/.test(err.message)) unknown.add(op);
    }
    visit((node as Record<string, unknown>)[op], depth + 1);
  };
  visit(rule, 0);
  return [...unknown];
}

// --- step and integration filters ----------------------------------------------------------------

export interface FilterSubject {
  subscriber?: Record<string, unknown> | null;
  payload?: Record<string, unknown> | null;
}

type FieldFilter = NonNullable<StepFilter['children']>[number];

function get(source: unknown, path: string): unknown {
  let current = source;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Text of any value, objects as JSON; never throws (String() does on prototype-less objects). */
function text(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The filter value is always a string; read it as the actual value's type, as the service does. */
function coerce(actual: unknown, value: string): unknown {
  if (typeof actual === 'number') return Number(value);
  if (typeof actual === 'boolean') return value === 'true';
  return value;
}

/** A comma-separated list, or a JSON array. */
function listOf(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map((v) => text(v));
    } catch {
      // fall through to the comma-separated form
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((v) => v.trim());
}

/** Numbers compare as numbers, ISO dates as instants, anything else as strings. */
function comparable(a: unknown, b: unknown): [number | string, number | string] | null {
  if (a === undefined || a === null || b === undefined || b === null) return null;
  const na = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : NaN;
  const nb = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return [na, nb];
  const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
  if (isDate(a) && isDate(b)) return [Date.parse(a as string), Date.parse(b as string)];
  return [text(a), text(b)];
}

function compare(actual: unknown, value: string, test: (a: number | string, b: number | string) => boolean): boolean {
  const pair = comparable(actual, value);
  return pair !== null && test(pair[0], pair[1]);
}

function between(actual: unknown, value: string): boolean | null {
  const [low, high] = listOf(value);
  if (low === undefined || high === undefined) return null;
  const lo = comparable(actual, low);
  const hi = comparable(actual, high);
  if (!lo || !hi) return null;
  return lo[0] >= lo[1] && hi[0] <= hi[1];
}

function likePattern(value: string): RegExp {
  const hasWildcard = /[%_]/.test(value);
  const body = value
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(hasWildcard ? `^${body}$` : body, 'i');
}

function contains(actual: unknown, item: string): boolean {
  if (Array.isArray(actual)) return actual.some((a) => text(a) === item);
  if (typeof actual === 'string') return actual.includes(item);
  return false;
}

/**
 * One comparison. Semantics (the spec names the operators, not their meaning; where the service
 * implements one, this follows it):
 * - EQUAL / NOT_EQUAL: strict equality after reading `value` as the actual value's type.
 * - LARGER, SMALLER, LARGER_EQUAL, SMALLER_EQUAL: numbers, ISO dates, else strings; false when absent.
 * - IN / NOT_IN: the actual value (an array or a string) contains `value` (the service's meaning).
 * - ANY_IN / ALL_IN: `value` is a list ("a,b" or a JSON array); any / all of it in the actual array,
 *   or equal to the actual scalar.
 * - BETWEEN / NOT_BETWEEN: `value` is "low,high", inclusive; false when either side is not comparable.
 * - LIKE / NOT_LIKE: case-insensitive; `%` and `_` are SQL wildcards, without them a substring match.
 */
export function matchesField(part: FieldFilter, subject: FilterSubject): boolean {
  const source = part.on === 'subscriber' ? subject.subscriber : subject.payload;
  const actual = get(source, part.field);
  const value = part.value;
  switch (part.operator) {
    case 'EQUAL':
      return actual === coerce(actual, value);
    case 'NOT_EQUAL':
      return actual !== coerce(actual, value);
    case 'LARGER':
      return compare(actual, value, (a, b) => a > b);
    case 'SMALLER':
      return compare(actual, value, (a, b) => a < b);
    case 'LARGER_EQUAL':
      return compare(actual, value, (a, b) => a >= b);
    case 'SMALLER_EQUAL':
      return compare(actual, value, (a, b) => a <= b);
    case 'IN':
      return contains(actual, value);
    case 'NOT_IN':
      return !contains(actual, value);
    case 'ANY_IN': {
      const items = listOf(value);
      return Array.isArray(actual) ? items.some((i) => contains(actual, i)) : actual !== undefined && items.includes(text(actual));
    }
    case 'ALL_IN': {
      const items = listOf(value);
      return Array.isArray(actual) ? items.every((i) => contains(actual, i)) : items.length > 0 && items.every((i) => i === text(actual));
    }
    case 'BETWEEN':
      return between(actual, value) === true;
    case 'NOT_BETWEEN':
      return between(actual, value) === false;
    case 'LIKE':
      return actual !== undefined && actual !== null && likePattern(value).test(text(actual));
    case 'NOT_LIKE':
      return actual === undefined || actual === null || !likePattern(value).test(text(actual));
    default:
      return false;
  }
}

function matchesGroup(filter: StepFilter, subject: FilterSubject): boolean {
  const children = filter.children ?? [];
  let result: boolean;
  if (children.length === 0) result = true;
  else if (filter.value === 'OR') result = children.some((c) => matchesField(c, subject));
  else result = children.every((c) => matchesField(c, subject));
  return filter.isNegated ? !result : result;
}

/**
 * Whether step (or integration) filters let a subscriber and payload through. As in the service,
 * no filters pass, and several filter groups pass when any one of them does; within a group the
 * children combine with the group's `value` (AND by default, or OR), and `isNegated` inverts it.
 */
export function matchesFilters(filters: readonly StepFilter[] | undefined, subject: FilterSubject): boolean {
  if (!filters || filters.length === 0) return true;
  return filters.some((f) => matchesGroup(f, subject));
}

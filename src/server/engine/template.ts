// Liquid rendering as the service does it: liquidjs with lenient variables and filters (an undefined
// variable prints nothing, an unknown filter passes the value through), the service's extra filters,
// and objects printed as single-quoted JSON. Every failure comes back as data; nothing is thrown.
import { LRUCache } from 'lru-cache';
import type { Liquid, Template } from 'liquidjs';
import { liquidjs } from './packages.js';
import { digest, pluralize, singleQuotedJson, toSentence } from './filters.js';
import type { TemplateScope } from './types.js';

type TemplateErrorKind = 'syntax' | 'unknown-filter' | 'filter-args' | 'render';

/** A template problem, located well enough for a person to fix it. */
export interface TemplateError {
  kind: TemplateErrorKind;
  /** What went wrong, without liquidjs' location suffix. */
  message: string;
  /** Dotted path of the control value holding the template, e.g. `primaryAction.redirect.url`. */
  control?: string;
  /** The `{{ ... }}` or `{% ... %}` source the problem is in. */
  expression?: string;
  variable?: string;
  filter?: string;
  /** 1-based. */
  line?: number;
  column?: number;
}

export interface UndefinedVariable {
  control?: string;
  variable: string;
  line: number;
  column: number;
}

type RenderResult = { ok: true; output: string; undefinedVariables: UndefinedVariable[] } | { ok: false; error: TemplateError };

// Limits keep a hostile or mistaken template (a huge range loop, a gigantic string) from stalling the
// service: liquidjs aborts the render with an error we report like any other.
const LIMITS = { parseLimit: 1_000_000, renderLimit: 2_000, memoryLimit: 50_000_000 };

/**
 * Inside a JSON template (an http_request body), an output must not break the JSON around it: strings
 * are escaped as JSON string content, objects and arrays print as JSON.
 */
function jsonOutputEscape(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return JSON.stringify(String(value)).slice(1, -1);
}

function buildEngine(outputEscape: (value: unknown) => string): Liquid {
  const engine = new (liquidjs().Liquid)({
    strictFilters: false,
    strictVariables: false,
    ownPropertyOnly: true,
    outputEscape,
    // An empty in-memory template map: `{% include %}`, `{% render %}` and `{% layout %}` must never
    // read files from the machine running the service.
    templates: {},
    ...LIMITS,
  });
  engine.registerFilter('json', (value: unknown, spaces?: number) => singleQuotedJson(value, Number(spaces) || 0));
  engine.registerFilter('digest', digest);
  engine.registerFilter('toSentence', toSentence);
  engine.registerFilter('pluralize', pluralize);
  return engine;
}

/** The rendering engine. Exported for the analysis code, which needs its filter table. */
// Built on first use: a service that renders nothing builds no engine.
let liquidEngine: Liquid | undefined;
let jsonEngine: Liquid | undefined;
/** The engine of controls' text (outputs escaped as single-quoted JSON where a value is an object). */
export const liquid = (): Liquid => (liquidEngine ??= buildEngine((value) => singleQuotedJson(value)));
const jsonLiquid = (): Liquid => (jsonEngine ??= buildEngine(jsonOutputEscape));

interface RenderOptions {
  /** `json` when the template produces JSON text: outputs are escaped to keep it valid. */
  escape?: 'text' | 'json';
}

// Parsing dominates the cost of rendering short templates, and the same few templates render for every
// recipient of a trigger: keep the most recent parses (of pure functions of the source: never stale).
const PARSE_CACHE_SIZE = 500;
const parseCache = new LRUCache<string, Template[]>({ max: PARSE_CACHE_SIZE });

type ParseResult = { ok: true; templates: Template[] } | { ok: false; error: TemplateError };

/** Parses with the text engine, or the JSON one (the output escape is fixed when parsing). */
export function parseTemplate(source: string, escape: 'text' | 'json' = 'text'): ParseResult {
  const key = `${escape}:${source}`;
  const cached = parseCache.get(key);
  if (cached) return { ok: true, templates: cached };
  try {
    const templates = (escape === 'json' ? jsonLiquid() : liquid()).parse(source);
    parseCache.set(key, templates);
    return { ok: true, templates };
  } catch (err) {
    return { ok: false, error: toTemplateError(err) };
  }
}

const LOCATION_SUFFIX = /, (?:file:[^,]*, )?line:\d+, col:\d+$/;

function lineAndColumn(input: string, offset: number): { line: number; column: number } {
  const before = input.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Turns whatever liquidjs (or a filter) threw into a located TemplateError. */
function toTemplateError(err: unknown, control?: string): TemplateError {
  const base: TemplateError = { kind: 'render', message: err instanceof Error ? err.message : String(err) };
  if (control !== undefined) base.control = control;
  if (!(err instanceof liquidjs().LiquidError)) return base;
  base.message = err.message.replace(LOCATION_SUFFIX, '');
  if (err.name === 'TokenizationError' || err.name === 'ParseError') base.kind = 'syntax';
  const badArgs = /^([A-Za-z_][\w-]*) expect(?:s)? \d+ arguments?/.exec(base.message);
  if (badArgs) {
    base.kind = 'filter-args';
    base.filter = badArgs[1] as string;
  }
  const undefinedFilter = /^undefined filter: (.+)$/.exec(base.message);
  if (undefinedFilter) {
    base.kind = 'unknown-filter';
    base.filter = undefinedFilter[1] as string;
  }
  const token = err.token as { input?: string; begin?: number; end?: number } | undefined;
  if (token && typeof token.input === 'string' && typeof token.begin === 'number') {
    Object.assign(base, lineAndColumn(token.input, token.begin));
    const end = typeof token.end === 'number' ? token.end : token.begin + 200;
    base.expression = token.input.slice(token.begin, Math.min(end, token.begin + 200));
    // `{{ payload.x | f }}`: the variable the output starts from.
    const subject = /^\{\{-?\s*([A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*)/.exec(base.expression);
    if (subject) base.variable = subject[1] as string;
  }
  return base;
}

/** `payload.items[0].name`: the form variables are named in issues and reports. */
export function formatPath(segments: ReadonlyArray<unknown>): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (typeof segment === 'string') path += path === '' ? segment : `.${segment}`;
    else if (Array.isArray(segment)) path += `[${formatPath(segment)}]`;
    else path += `[${String(segment)}]`;
  }
  return path;
}

function lookup(scope: object, segments: ReadonlyArray<unknown>): { found: boolean } {
  let current: unknown = scope;
  for (const segment of segments) {
    if (typeof segment !== 'string' && typeof segment !== 'number') return { found: true }; // computed: unknowable
    if (current === null || current === undefined) return { found: false };
    if (typeof current === 'string' && (segment === 'size' || segment === 'length')) return { found: true };
    if (Array.isArray(current) && (segment === 'size' || segment === 'first' || segment === 'last')) return { found: true };
    if (typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, segment)) return { found: false };
    current = (current as Record<string | number, unknown>)[segment];
  }
  return { found: current !== undefined };
}

interface GlobalUse {
  segments: ReadonlyArray<unknown>;
  variable: string;
  line: number;
  column: number;
}

// The globals of a parsed template never change; analysing once per parse keeps the per-recipient
// cost of the undefined-variable report to a few property lookups.
const globalsCache = new WeakMap<Template[], GlobalUse[]>();

function globalsOf(templates: Template[]): GlobalUse[] {
  let globals = globalsCache.get(templates);
  if (!globals) {
    globals = [];
    try {
      const analysis = liquid().analyzeSync(templates, { partials: false });
      for (const variables of Object.values(analysis.globals)) {
        for (const v of variables) globals.push({ segments: v.segments, variable: formatPath(v.toArray()), line: v.location.row, column: v.location.col });
      }
    } catch {
      // Analysis is a report, never a reason to fail a render that succeeded.
    }
    globalsCache.set(templates, globals);
  }
  return globals;
}

function undefinedVariablesOf(templates: Template[], scope: object, control?: string): UndefinedVariable[] {
  const found: UndefinedVariable[] = [];
  for (const use of globalsOf(templates)) {
    if (lookup(scope, use.segments).found) continue;
    const item: UndefinedVariable = { variable: use.variable, line: use.line, column: use.column };
    if (control !== undefined) item.control = control;
    found.push(item);
  }
  return found;
}

/**
 * A template that is only text and plain outputs (`{{ payload.code }}`: dotted names, no filters, no
 * tags, no whitespace control): its text parts and output paths. Most message templates are this,
 * and liquidjs' renderer spends a generator per output and per property read on them. Anything else
 * is null and goes through liquidjs.
 */
interface SimpleTemplate {
  text: string[];
  paths: string[][];
}

const SIMPLE_OUTPUT = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;
/** Names liquidjs reads as literals or as special properties (size, first, last): left to it. */
const NOT_PLAIN = new Set(['true', 'false', 'nil', 'null', 'empty', 'blank', 'size', 'first', 'last', 'toLiquid', '__proto__']);
/** Each source's plan, or false: not simple. */
const simpleCache = new LRUCache<string, SimpleTemplate | false>({ max: PARSE_CACHE_SIZE });

function simpleTemplate(source: string): SimpleTemplate | null {
  // Past liquidjs' parse limit the template fails to parse: liquidjs says so.
  if (source.length > LIMITS.parseLimit) return null;
  const known = simpleCache.get(source);
  if (known !== undefined) return known || null;
  let plan: SimpleTemplate | null = { text: [], paths: [] };
  let at = 0;
  for (const m of source.matchAll(SIMPLE_OUTPUT)) {
    plan.text.push(source.slice(at, m.index));
    plan.paths.push(m[1]!.split('.'));
    at = m.index + m[0].length;
  }
  plan.text.push(source.slice(at));
  if (plan.text.some((t) => t.includes('{{') || t.includes('{%')) || plan.paths.some((p) => p.some((k) => NOT_PLAIN.has(k)))) plan = null;
  simpleCache.set(source, plan ?? false);
  return plan;
}

/**
 * What liquidjs prints for a simple template with the text engine: each output's value read as own
 * properties, printed as singleQuotedJson prints a scalar. Undefined when an output is not a scalar
 * found in the scope (an undefined variable is reported, an object printed as JSON): liquidjs
 * renders those.
 */
function renderSimple(plan: SimpleTemplate, scope: TemplateScope): string | undefined {
  let out = plan.text[0]!;
  for (let i = 0; i < plan.paths.length; i++) {
    let current: unknown = scope;
    for (const key of plan.paths[i]!) {
      if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined;
      current = (current as Record<string, unknown>)[key];
    }
    if (current === null) out += '';
    else if (typeof current === 'string') out += current;
    else if (typeof current === 'number' || typeof current === 'boolean') out += String(current);
    else return undefined;
    out += plan.text[i + 1]!;
  }
  return out;
}

/** Renders one Liquid template against the scope. */
export function renderTemplate(source: string, scope: TemplateScope, control?: string, options: RenderOptions = {}): RenderResult {
  if (options.escape !== 'json') {
    const simple = simpleTemplate(source);
    const output = simple && renderSimple(simple, scope);
    if (output !== undefined && output !== null) return { ok: true, output, undefinedVariables: [] };
  }
  return renderWithLiquid(source, scope, control, options);
}

/** renderTemplate through liquidjs always (what the simple path must equal). */
export function renderWithLiquid(source: string, scope: TemplateScope, control?: string, options: RenderOptions = {}): RenderResult {
  const parsed = parseTemplate(source, options.escape);
  if (!parsed.ok) return { ok: false, error: control === undefined ? parsed.error : { ...parsed.error, control } };
  try {
    const engine = options.escape === 'json' ? jsonLiquid() : liquid();
    const output = String(engine.renderSync(parsed.templates, scope) ?? '');
    return { ok: true, output, undefinedVariables: undefinedVariablesOf(parsed.templates, scope, control) };
  } catch (err) {
    return { ok: false, error: toTemplateError(err, control) };
  }
}

interface ControlsRenderResult<T> {
  /** The controls with every string rendered; a string that failed keeps its template source. */
  values: T;
  errors: TemplateError[];
  undefinedVariables: UndefinedVariable[];
}

function joinPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Renders every string inside a control-values object (nested objects and arrays included). Top-level
 * keys in `exclude` are copied untouched: `skip` holds JSON logic, not templates.
 */
export function renderControls<T>(controls: T, scope: TemplateScope, exclude: readonly string[] = ['skip']): ControlsRenderResult<T> {
  const errors: TemplateError[] = [];
  const undefinedVariables: UndefinedVariable[] = [];
  const walk = (value: unknown, path: string, depth: number): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('{')) return value;
      const result = renderTemplate(value, scope, path);
      if (!result.ok) {
        errors.push(result.error);
        return value;
      }
      undefinedVariables.push(...result.undefinedVariables);
      return result.output;
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, joinPath(path, i), depth + 1));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        out[key] = depth === 0 && exclude.includes(key) ? item : walk(item, joinPath(path, key), depth + 1);
      }
      return out;
    }
    return value;
  };
  return { values: walk(controls, '', 0) as T, errors, undefinedVariables };
}

// Static analysis of the templates in a step's control values: which variables they read, which filters
// they call with which arguments, and which arrays they loop over. liquidjs parses and tracks scopes
// (loop and assign variables are local); this module walks its syntax tree for the rest.
import type { Template, Value } from 'liquidjs';
import { liquidjs } from './packages.js';
import { blockDocumentToLiquid, parseBlockDocument } from './block-editor.js';
import { formatPath, liquid, parseTemplate, type TemplateError } from './template.js';

export type Segment = string | number;

export interface VariableUse {
  /** e.g. `payload.items[0].name`. */
  path: string;
  /** Property names and indexes; null when a segment is computed (`payload[payload.key]`). */
  segments: Segment[] | null;
  root: string;
  line: number;
  column: number;
}

type FilterArgument =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'literal'; value: string }
  | { kind: 'variable'; path: string }
  | { kind: 'range' };

export interface FilterUse {
  name: string;
  /** Positional arguments; keyword arguments (`allow_false: true`) are listed in `named`. */
  args: FilterArgument[];
  named: string[];
  /** The variable the filter chain starts from, when it starts from one. */
  subject?: string;
  expression: string;
  line: number;
  column: number;
}

type TemplateAnalysis =
  | {
      ok: true;
      /** Variables read from outside the template (its globals). */
      variables: VariableUse[];
      filters: FilterUse[];
      /**
       * Paths the template reads, with loop items resolved to their collection: inside
       * `{% for c in payload.comments %}`, `c.author` is `payload.comments[0].author`.
       */
      dataPaths: Segment[][];
    }
  | { ok: false; error: TemplateError };

interface Located {
  input?: string;
  begin?: number;
  end?: number;
}

function locate(token: Located | undefined): { line: number; column: number; expression: string } {
  if (!token || typeof token.input !== 'string' || typeof token.begin !== 'number') return { line: 1, column: 1, expression: '' };
  const before = token.input.slice(0, token.begin);
  const line = before.split('\n').length;
  const expression = token.input.slice(token.begin, typeof token.end === 'number' ? token.end : token.begin);
  return { line, column: token.begin - before.lastIndexOf('\n'), expression };
}

function sourceOf(token: Located): string {
  return typeof token.input === 'string' && typeof token.begin === 'number' && typeof token.end === 'number'
    ? token.input.slice(token.begin, token.end).trim()
    : '';
}

function filterArgument(token: unknown): FilterArgument {
  if (liquidjs().TypeGuards.isQuotedToken(token)) return { kind: 'string', value: token.content };
  if (liquidjs().TypeGuards.isNumberToken(token)) return { kind: 'number', value: token.content };
  if (liquidjs().TypeGuards.isLiteralToken(token)) return { kind: 'literal', value: token.literal };
  if (liquidjs().TypeGuards.isRangeToken(token)) return { kind: 'range' };
  return { kind: 'variable', path: sourceOf(token as Located) };
}

function filtersOf(value: Value, statement: Located | undefined): FilterUse[] {
  const first = value.initial.postfix[0];
  const subject = liquidjs().TypeGuards.isPropertyAccessToken(first) ? sourceOf(first) : undefined;
  // liquidjs appends the output-escape function as an unnamed filter; it is not the author's.
  return value.filters
    .filter((filter) => /^[A-Za-z_][\w-]*$/.test(String(filter.name)))
    .map((filter) => {
      const token = (filter as unknown as { token?: Located }).token;
      const where = locate(statement ?? token);
      const args: FilterArgument[] = [];
      const named: string[] = [];
      for (const arg of filter.args) {
        if (Array.isArray(arg)) named.push(String(arg[0] ?? ''));
        else args.push(filterArgument(arg));
      }
      const use: FilterUse = { name: filter.name, args, named, expression: where.expression, line: where.line, column: where.column };
      if (subject !== undefined) use.subject = subject;
      return use;
    });
}

function childrenOf(template: Template): Template[] {
  if (typeof template.children !== 'function') return [];
  const generator = template.children(false, true);
  let step = generator.next();
  while (!step.done) step = generator.next();
  return Array.isArray(step.value) ? step.value : [];
}

interface Loop {
  alias: string;
  collection: Segment[] | null;
}

function walk(templates: Template[], filters: FilterUse[], loops: Loop[]): void {
  for (const template of templates) {
    const statement = template.token as Located;
    if (typeof template.arguments === 'function') {
      for (const argument of template.arguments()) {
        if (argument instanceof liquidjs().Value) filters.push(...filtersOf(argument, statement));
      }
    }
    if (template instanceof liquidjs().ForTag) {
      const collection = template.collection;
      const segments = liquidjs().TypeGuards.isPropertyAccessToken(collection) ? pathSegments(collection) : null;
      loops.push({ alias: template.variable, collection: segments });
    }
    walk(childrenOf(template), filters, loops);
  }
}

function pathSegments(token: { variable?: unknown; props: unknown[] }): Segment[] | null {
  const segments: Segment[] = [];
  const parts = token.variable === undefined ? token.props : [token.variable, ...token.props];
  for (const part of parts) {
    if (liquidjs().TypeGuards.isWordToken(part)) segments.push(part.content);
    else if (liquidjs().TypeGuards.isQuotedToken(part)) segments.push(part.content);
    else if (liquidjs().TypeGuards.isNumberToken(part)) segments.push(part.content);
    else if (liquidjs().TypeGuards.isLiteralToken(part)) segments.push(part.literal);
    else return null;
  }
  return segments;
}

function plainSegments(raw: ReadonlyArray<unknown>): Segment[] | null {
  return raw.every((s) => typeof s === 'string' || typeof s === 'number') ? (raw as Segment[]) : null;
}

/** Resolves loop aliases (nested loops included) to the collection's first item. */
function resolveLoopItem(segments: Segment[], loops: Loop[], depth = 0): Segment[] | null {
  const loop = loops.find((l) => l.alias === segments[0]);
  if (!loop) return segments;
  if (!loop.collection || depth > 8) return null;
  const resolved = resolveLoopItem(
    loop.collection,
    loops.filter((l) => l !== loop),
    depth + 1,
  );
  return resolved ? [...resolved, 0, ...segments.slice(1)] : null;
}

export function analyzeTemplate(source: string): TemplateAnalysis {
  const parsed = parseTemplate(source);
  if (!parsed.ok) return parsed;
  try {
    const analysis = liquid().analyzeSync(parsed.templates, { partials: false });
    const variables: VariableUse[] = [];
    for (const uses of Object.values(analysis.globals)) {
      for (const use of uses) {
        const segments = plainSegments(use.segments);
        const root = typeof use.segments[0] === 'string' ? use.segments[0] : String(use.segments[0]);
        variables.push({ path: formatPath(use.toArray()), segments, root, line: use.location.row, column: use.location.col });
      }
    }
    variables.sort((a, b) => a.line - b.line || a.column - b.column);
    const filters: FilterUse[] = [];
    const loops: Loop[] = [];
    walk(parsed.templates, filters, loops);
    const dataPaths: Segment[][] = [];
    for (const uses of Object.values(analysis.variables)) {
      for (const use of uses) {
        const segments = plainSegments(use.segments);
        const resolved = segments ? resolveLoopItem(segments, loops) : null;
        if (resolved) dataPaths.push(resolved);
      }
    }
    return { ok: true, variables, filters, dataPaths };
  } catch (err) {
    return { ok: false, error: { kind: 'syntax', message: err instanceof Error ? err.message : String(err) } };
  }
}

interface ControlTemplate {
  /** Dotted path of the control value, e.g. `primaryAction.redirect.url` or `headers[0].value`. */
  control: string;
  source: string;
}

/**
 * Every template inside a step's control values. `skip` is JSON logic, not a template; an email body
 * written with the block editor is analysed as the Liquid template it renders through.
 */
export function controlTemplates(controls: Record<string, unknown> | undefined): ControlTemplate[] {
  const out: ControlTemplate[] = [];
  const visit = (value: unknown, path: string, depth: number): void => {
    if (depth > 32) return;
    if (typeof value === 'string') {
      if (value.includes('{')) out.push({ control: path, source: value });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(item, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  };
  for (const [key, value] of Object.entries(controls ?? {})) {
    if (key === 'skip') continue;
    const doc = key === 'body' ? parseBlockDocument(value) : null;
    if (doc) out.push({ control: key, source: blockDocumentToLiquid(doc) });
    else visit(value, key, 0);
  }
  return out;
}

// Writes results to stdout: json, ndjson, yaml or table (cli.md, "Output"). Secrets the service returned
// are masked unless --show-secrets; --fields keeps dot paths; --query applies JMESPath. Lists print their
// records; the paging state goes to stderr. Table renderers and yaml load only when used.
import type { Deps } from '../deps.js';
import { maskData } from '../core/mask.js';
import { UsageError } from '../core/errors.js';
import type { ViewName } from './views.js';
import { loadJmespath, loadYaml } from '../core/lazy.js';

export interface PrintOptions {
  /** Which table layout to use for records of this kind. */
  view?: ViewName;
  /** The value is a paging envelope (`data` plus next/previous or page/hasMore). */
  list?: boolean;
}

const ENVELOPE_KEYS = new Set(['data', 'next', 'previous', 'totalCount', 'totalCountCapped', 'hasMore', 'page', 'pageSize']);

const MISSING = Symbol('missing');

/** One dot path out of a value, keeping its nesting; through an array, out of each element. */
function pickPath(v: unknown, path: string[]): unknown {
  if (path.length === 0) return v;
  const [seg, ...rest] = path as [string, ...string[]];
  if (Array.isArray(v) && !/^\d+$/.test(seg)) {
    const items = v.map((e) => pickPath(e, path));
    // Elements without the path stay as {} so that several paths merge element by element.
    return items.some((x) => x !== MISSING) ? items.map((x) => (x === MISSING ? {} : x)) : MISSING;
  }
  if (v !== null && typeof v === 'object' && Object.hasOwn(v, seg)) {
    const inner = pickPath((v as Record<string, unknown>)[seg], rest);
    return inner === MISSING ? MISSING : { [seg]: inner };
  }
  return MISSING;
}

function mergePicked(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return a.map((x, i) => mergePicked(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? mergePicked(out[k], v) : v;
    return out;
  }
  return b;
}

/**
 * Picks dot paths out of a record, keeping their nesting; a path through an array picks out of each
 * element (`steps.stepId`). Missing paths are left out.
 */
export function pickFields(record: unknown, fields: string[]): unknown {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return record;
  let out: unknown = {};
  for (const f of fields) {
    const picked = pickPath(record, f.split('.'));
    if (picked !== MISSING) out = mergePicked(out, picked);
  }
  return out;
}

/** A dot path's value, for table cells. */
export function getPath(record: unknown, path: string): unknown {
  let cur: unknown = record;
  for (const seg of path.split('.')) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (typeof cur === 'object') cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur;
}

/**
 * What the output formats print: for a list, its records — unless every --fields path names an
 * envelope member (`next`, `totalCount`, ...), in which case the envelope itself.
 */
export function shapeForOutput(value: unknown, opts: PrintOptions, fields: string[] | undefined): { value: unknown; isList: boolean } {
  if (opts.list && value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)) {
    const envelopeFields = fields && fields.length > 0 && fields.every((f) => ENVELOPE_KEYS.has(f.split('.')[0]!));
    if (envelopeFields) return { value: pickFields(value, fields), isList: false };
    const records = (value as { data: unknown[] }).data;
    return { value: fields?.length ? records.map((r) => pickFields(r, fields)) : records, isList: true };
  }
  if (fields?.length) {
    if (Array.isArray(value)) return { value: value.map((r) => pickFields(r, fields)), isList: true };
    return { value: pickFields(value, fields), isList: false };
  }
  return { value, isList: Array.isArray(value) };
}

export async function applyQuery(value: unknown, expression: string): Promise<unknown> {
  const jmespath = await loadJmespath();
  try {
    return jmespath.search(value as Parameters<typeof jmespath.search>[0], expression);
  } catch (e) {
    throw new UsageError(`--query: invalid JMESPath expression: ${(e as Error).message.split('\n')[0]}`);
  }
}

export function write(deps: Pick<Deps, 'io'>, text: string): void {
  deps.io.stdout.write(text);
}

/**
 * The API key in use, scrubbed from whatever is printed: an answer may quote it in a field whose name
 * says nothing of secrets.
 */
export function keyInUse(deps: Deps): string[] {
  try {
    const key = deps.settings().apiKey.value;
    return key ? [key] : [];
  } catch {
    return []; // no settings (an unknown profile): then no key is in use either
  }
}

export async function print(deps: Deps, raw: unknown, opts: PrintOptions = {}): Promise<void> {
  const g = deps.globals;
  const masked = g.showSecrets ? raw : maskData(raw, { knownSecrets: keyInUse(deps) });
  const format = deps.format();
  if (format === 'table' && !g.query) {
    const { renderTable } = await import('./table.js');
    write(deps, renderTable(deps, masked, opts));
    return;
  }
  let { value, isList } = shapeForOutput(masked, opts, g.fields);
  if (g.query) {
    value = await applyQuery(value, g.query);
    isList = Array.isArray(value);
  }
  if (format === 'table') {
    const { renderTable } = await import('./table.js');
    write(deps, renderTable(deps, value, {}));
  } else if (format === 'ndjson') {
    if (isList && Array.isArray(value)) for (const r of value) write(deps, `${JSON.stringify(r)}\n`);
    else write(deps, `${JSON.stringify(value)}\n`);
  } else if (format === 'yaml') {
    const { stringify } = await loadYaml();
    write(deps, stringify(value ?? null));
  } else {
    write(deps, `${JSON.stringify(value ?? null, null, 2)}\n`);
  }
}

/** The paging state of a list envelope, as a hint on stderr. */
export function pagingHint(value: unknown, opts: { asFields?: boolean } = {}): string | undefined {
  // The flags that fetch the next page: a list command's own, or `svc api`'s -f query fields.
  const flag = (name: string, v: unknown) => (opts.asFields ? `-f ${name}=${v}` : `--${name} ${v}`);
  if (!value || typeof value !== 'object') return undefined;
  const v = value as { next?: unknown; previous?: unknown; hasMore?: unknown; page?: unknown; totalCount?: unknown; totalCountCapped?: unknown; data?: unknown[] };
  const n = Array.isArray(v.data) ? v.data.length : 0;
  if ('next' in v || 'previous' in v) {
    const total = typeof v.totalCount === 'number' ? ` of ${v.totalCount}${v.totalCountCapped ? '+' : ''}` : '';
    const parts = [`${n} record${n === 1 ? '' : 's'}${total}`];
    if (typeof v.next === 'string' && v.next) parts.push(`next page: ${flag('after', v.next)}`);
    if (typeof v.previous === 'string' && v.previous) parts.push(`previous page: ${flag('before', v.previous)}`);
    return parts.join(' · ');
  }
  if ('hasMore' in v && typeof v.page === 'number') {
    const parts = [`page ${v.page}, ${n} record${n === 1 ? '' : 's'}`];
    parts.push(v.hasMore ? `more: ${flag('page', v.page + 1)}` : 'no more pages');
    return parts.join(' · ');
  }
  return undefined;
}

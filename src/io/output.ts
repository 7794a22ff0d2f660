// The one output path (cli.md, "Output"). Whatever prints a result — one answer, a list, pages streamed
// with --all, a watch — goes through prepare(): secrets the service returned masked unless
// --show-secrets, then --fields, then --query; then one renderer per format: json, ndjson, yaml, table
// or tsv. Lists print their records; the paging state goes to stderr. Table renderers, tsv and yaml load
// only when used.
import { maskData } from '../core/mask.js';
import { QueryError, UsageError } from '../core/errors.js';
import { loadJmespath, loadYaml } from '../core/lazy.js';
import { annotate } from './derived.js';
import { checkFields } from './fields.js';
import { pickFields } from './paths.js';
import { chars, safeDeep, safeJson } from './safe-text.js';
import type { Output, PrintOptions } from './types.js';

export { getPath, pickFields } from './paths.js';

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['data', 'next', 'previous', 'totalCount', 'totalCountCapped', 'hasMore', 'page', 'pageSize']);

/** The records a printed value holds, and the envelope members --fields may name beside theirs. */
function recordsOf(value: unknown, opts: PrintOptions): { records: unknown[]; envelope: string[] } {
  if (opts.list && value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)) {
    return { records: (value as { data: unknown[] }).data, envelope: [...ENVELOPE_KEYS] };
  }
  if (Array.isArray(value)) return { records: value, envelope: [] };
  return { records: value && typeof value === 'object' ? [value] : [], envelope: [] };
}

/** Step one of every output: the secrets the answer holds masked (unless --show-secrets). */
export function mask(out: Pick<Output, 'showSecrets' | 'secrets'>, value: unknown): unknown {
  return out.showSecrets ? value : maskData(value, { knownSecrets: [...out.secrets] });
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

/** Parses a --query expression without evaluating it: a bad one fails before anything is sent. */
export async function checkQuery(expression: string): Promise<void> {
  const { compile } = (await loadJmespath()) as unknown as { compile(expression: string): unknown };
  try {
    compile(expression);
  } catch (e) {
    throw new UsageError(`--query: invalid JMESPath expression: ${(e as Error).message.split('\n')[0]}`);
  }
}

export async function applyQuery(value: unknown, expression: string): Promise<unknown> {
  // A syntax error is bad usage (checkQuery already refused it before anything was sent).
  await checkQuery(expression);
  const jmespath = await loadJmespath();
  try {
    return jmespath.search(value as Parameters<typeof jmespath.search>[0], expression);
  } catch (e) {
    throw new QueryError(`--query: evaluating it on the result failed: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * A whole result prepared for printing: events given their derived field, masked, then for the formats other than a table (which shows
 * --fields as its columns) shaped by --fields, then --query. `table` says whether the table layouts of
 * `opts.view` still apply (not after --query).
 */
async function prepare(out: Output, raw: unknown, opts: PrintOptions): Promise<{ value: unknown; isList: boolean; layout: boolean }> {
  // Events carry svc's derived status beside the service's fields (io/derived.ts), masked with them.
  const annotated = annotate(raw, opts.view, opts.scope);
  if (out.fields?.length) {
    const { records, envelope } = recordsOf(annotated, opts);
    checkFields(out.fields, records, opts.view, envelope);
  }
  const masked = mask(out, annotated);
  // A table and TSV show --fields as their columns, so the records stay whole for them.
  if ((out.format === 'table' || out.format === 'tsv') && !out.query) return { value: masked, isList: Boolean(opts.list), layout: true };
  let { value, isList } = shapeForOutput(masked, opts, out.fields);
  if (out.query) {
    value = await applyQuery(value, out.query);
    isList = Array.isArray(value);
  }
  return { value, isList, layout: false };
}

export async function print(out: Output, raw: unknown, opts: PrintOptions = {}): Promise<void> {
  const { value, isList, layout } = await prepare(out, raw, opts);
  if (out.format === 'table') {
    const { renderTable } = await import('./table.js');
    // After --query the result has no known layout.
    // Service text made safe for the terminal before the renderers add their own colour.
    out.stdout.write(renderTable(out, safeDeep(value), layout ? opts : {}));
  } else if (out.format === 'tsv') {
    const { renderTsv, tsvRecords } = await import('./tsv.js');
    // After --query the result has no known columns: strings print bare, records by their keys.
    const quiet = out.quiet === true;
    out.stdout.write(
      layout
        ? renderTsv(tsvRecords(value, opts), { ...(out.fields ? { fields: out.fields } : {}), ...(opts.view ? { view: opts.view } : {}), quiet })
        : renderTsv(value, { quiet }),
    );
  } else if (out.format === 'ndjson') {
    if (isList && Array.isArray(value)) for (const r of value) out.stdout.write(`${safeJson(JSON.stringify(r))}\n`);
    else out.stdout.write(`${safeJson(JSON.stringify(value))}\n`);
  } else if (out.format === 'yaml') {
    out.stdout.write(yamlText(await loadYaml(), value ?? null));
  } else {
    out.stdout.write(`${safeJson(JSON.stringify(value ?? null, null, 2))}\n`);
  }
}

const YAML_UNSAFE = chars('');
const YAML_QUOTED = chars('\\u0000-\\u0008\\u000b-\\u001f');

/**
 * YAML for a terminal, still exact: the yaml package escapes C0 controls in double-quoted scalars but
 * writes DEL, C1 controls and bidi overrides raw. A scalar holding one is written double-quoted and the
 * character as the YAML escape (`\x7f`, `\u009b`, `\u202e`), which a YAML reader decodes back.
 */
export function yamlText(yaml: typeof import('yaml'), value: unknown): string {
  const doc = new yaml.Document(value);
  let quoted = false;
  yaml.visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && YAML_QUOTED.test(node.value)) {
        node.type = 'QUOTE_DOUBLE';
        quoted = true;
      }
    },
  });
  const text = doc.toString();
  if (!quoted || !YAML_UNSAFE.test(text)) return text;
  return text.replace(chars('', 'g'), (ch) =>
    ch.charCodeAt(0) <= 0xff ? `\\x${ch.charCodeAt(0).toString(16)}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The paging state of a list envelope, as a hint on stderr. */
export function pagingHint(value: unknown, opts: { asFields?: boolean } = {}): string | undefined {
  // The flags that fetch the next page: a list command's own, or `svc api`'s -f query fields.
  const flag = (name: string, v: unknown) => (opts.asFields ? `-f ${name}=${v}` : `--${name} ${v}`);
  if (!value || typeof value !== 'object') return undefined;
  const v = value as {
    next?: unknown;
    previous?: unknown;
    hasMore?: unknown;
    page?: unknown;
    totalCount?: unknown;
    totalCountCapped?: unknown;
    data?: unknown[];
  };
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

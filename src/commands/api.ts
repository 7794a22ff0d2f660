// svc api METHOD PATH [--data JSON] [-f k=v ...] [--paginate]: any operation, raw. The answer is
// printed as the service returned it, with a single-key {data} envelope removed.
import type { QueryInput } from '../api/request.js';
import { choiceArg, collect } from '../cli-args.js';
import { UsageError } from '../core/errors.js';
import { deepMerge, isPlainObject, parseSetPairs, quote } from '../core/input.js';
import type { Deps } from '../deps.js';
import { pagingHint } from '../io/output.js';
import { Argument, type ArgsOf, Command, examples, type OptsOf } from './define.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** GET, POST, PUT, PATCH or DELETE, in any case. */
function methodArgument() {
  const arg = new Argument('<method>', 'HTTP method').argParser((v: string) => choiceArg(METHODS)(v.toUpperCase()));
  arg.argChoices = METHODS;
  return arg;
}

export const command = () =>
  examples(
    new Command('api')
      .description('call any operation: prints the answer as returned (envelope removed)')
      .addArgument(methodArgument())
      .argument('<path>', 'path starting with /, e.g. /v1/notifications')
      .option('--data <json>', 'request body: inline JSON, @file or -')
      .option('-f, --field <key=value>', 'query parameter (GET/DELETE) or body field (repeatable; key:=<json>)', collect)
      .option('--paginate', 'follow cursors (next) or pages (hasMore) and stream every record'),
    [
      'svc api GET /v1/integrations/active',
      'svc api GET /v1/notifications -f limit=50 -f channels=email --paginate -o ndjson',
      'svc api POST /v2/contexts --data \'{"type":"tenant","id":"acme"}\'',
    ],
  );

/** `-f k=v` for a query string: repeated keys become arrays; `k:=<json>` sends the JSON's text. */
function queryFields(pairs: string[]): QueryInput {
  const out: Record<string, string | string[]> = {};
  for (const pair of pairs) {
    const m = /^([^=:]+)(:?=)(.*)$/s.exec(pair);
    if (!m) throw new UsageError(`-f/--field: expected key=value, got ${quote(pair)}`);
    const key = m[1]!.trim();
    const value = m[3]!;
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [givenMethod, rawPath]: ArgsOf<typeof command>): Promise<void> {
  const method = givenMethod.toUpperCase();
  if (!rawPath.startsWith('/')) throw new UsageError(`PATH: must start with "/", e.g. /v1/notifications (got ${quote(rawPath)})`);
  if (/\s/.test(rawPath)) throw new UsageError('PATH: must not contain spaces (encode them as %20)');
  const [path, inlineQuery] = rawPath.split('?', 2) as [string, string | undefined];
  const fields = opts.field ?? [];
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';

  let query: QueryInput = {};
  if (inlineQuery) for (const [k, v] of new URLSearchParams(inlineQuery)) query = { ...query, ...queryFields([`${k}=${v}`]) };
  let body: unknown;
  if (opts.data !== undefined) {
    if (!hasBody) throw new UsageError(`--data: ${method} requests have no body; use -f key=value for query parameters`);
    body = await deps.input.json('--data', opts.data);
  }
  if (fields.length) {
    if (hasBody) {
      if (body !== undefined && !isPlainObject(body)) throw new UsageError('-f/--field: cannot add fields to a --data body that is not an object');
      body = deepMerge((body as Record<string, unknown>) ?? {}, parseSetPairs('-f/--field', fields));
    } else query = { ...query, ...queryFields(fields) };
  }
  const req = { method, path, query, ...(body !== undefined ? { body } : {}) };

  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate: only GET requests can be paginated');
  const api = await deps.client();
  if (opts.paginate) {
    const writer = await deps.records();
    try {
      for await (const page of api.pages(req)) await writer.page(page.records);
    } finally {
      await writer.end();
    }
    return;
  }
  const res = await api.send(req, { bodyLabel: () => (opts.data !== undefined ? '--data' : '-f/--field') });
  if (!res) return;
  if (res.status === 204 || res.data === undefined) {
    deps.info(`${res.status} (no content)`);
    return;
  }
  const list = Boolean(res.data && typeof res.data === 'object' && Array.isArray((res.data as { data?: unknown }).data));
  await deps.print(res.data, { list });
  // A list's paging state goes to stderr, as for the list commands (cli.md, "Output").
  const hint = list ? pagingHint(res.data, { asFields: true }) : undefined;
  if (hint) deps.info(hint);
}

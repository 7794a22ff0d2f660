// svc layouts list [--search] [--order-by] [--order-direction] [--limit --offset] → GET /v2/layouts
import { intArg } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, choiceOption, Command, examples, type OptsOf } from '../define.js';

const ORDER_BY = ['createdAt', 'updatedAt', 'name'] as const;
/** The service's page size limit for this list. */
const MAX_LIMIT = 100;

export const command = () =>
  examples(
    new Command('list')
      .description(about('list email layouts, newest first', 'listLayouts'))
      // cli.md names it --query; written after `list` it is this search, not the global JMESPath flag.
      .option('--query <text>', 'name or layout id contains this (case-insensitive)')
      .option('--search <text>', 'same as --query (for JMESPath, write the global --query before `layouts`)')
      .addOption(choiceOption('--order-by <field>', ORDER_BY.join(', '), ORDER_BY))
      .addOption(choiceOption('--order-direction <dir>', 'ASC or DESC', ['ASC', 'DESC']))
      .option('--limit <n>', `layouts per page, 1 to ${MAX_LIMIT}`, intArg(1, MAX_LIMIT))
      .option('--offset <n>', 'skip this many layouts', intArg(0)),
    ['svc layouts list', 'svc layouts list --search brand --order-by name --order-direction ASC', 'svc layouts list -o json | jq -r ".[].layoutId"'],
  );

type ListAnswer = { layouts: Record<string, unknown>[]; totalCount: number };

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  if (opts.search !== undefined && opts.query !== undefined)
    throw new UsageError('--query and --search are the same filter: give one (a JMESPath --query goes before `layouts`)');
  const query = {
    query: opts.search ?? opts.query,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    limit: opts.limit,
    offset: opts.offset,
  };
  const res = await (await deps.client()).call('listLayouts', { query });
  if (!res) return;
  const { layouts, totalCount } = res.data as ListAnswer;
  await deps.print(layouts, { view: 'layouts' });
  const from = opts.offset ?? 0;
  const to = from + layouts.length;
  if (to < totalCount) deps.info(`${from + 1}-${to} of ${totalCount}; next page: --offset ${to}`);
}

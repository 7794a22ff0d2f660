// svc workflow list [--query|--search] [--tag] [--status] [--limit --offset | --all] → GET /v2/workflows
import { collect, intArg } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, choiceOption, choicesOption, Command, examples, type OptsOf } from '../define.js';
import { rememberIds } from '../events/cache.js';

const STATUSES = ['ACTIVE', 'INACTIVE', 'ERROR'] as const;
const ORDER_BY = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const;
/** The service's page size limit for this list. */
const MAX_LIMIT = 100;

export const command = () =>
  examples(
    new Command('list')
      .description(about('list workflows, newest first', 'listWorkflows'))
      // cli.md names it --query; written after `list` it is this search, not the global JMESPath flag.
      .option('--query <text>', 'name or workflow id contains this (case-insensitive)')
      .option('--search <text>', 'same as --query (for JMESPath, write the global --query before `workflow`)')
      .option('--tag <tag>', 'has this tag (repeatable: any of them)', collect)
      .addOption(choicesOption('--status <status>', 'ACTIVE, INACTIVE or ERROR (repeatable)', STATUSES))
      .addOption(choiceOption('--order-by <field>', ORDER_BY.join(', '), ORDER_BY))
      .addOption(choiceOption('--order-direction <dir>', 'ASC or DESC', ['ASC', 'DESC']))
      .option('--limit <n>', `workflows per page, 1 to ${MAX_LIMIT}`, intArg(1, MAX_LIMIT))
      .option('--offset <n>', 'skip this many workflows', intArg(0))
      .option('--all', 'follow every page to the end, streaming records'),
    ['svc workflow list', 'svc workflow list --query order --status ERROR', 'svc workflow list --all -o ndjson | jq -r .workflowId'],
  );

type ListAnswer = { workflows: Record<string, unknown>[]; totalCount: number };

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  if (opts.search !== undefined && opts.query !== undefined)
    throw new UsageError('--query and --search are the same filter: give one (a JMESPath --query goes before `workflow`)');
  const api = await deps.client();
  const query = {
    query: opts.search ?? opts.query,
    tags: opts.tag,
    status: opts.status,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    limit: opts.limit ?? (opts.all ? MAX_LIMIT : undefined),
    offset: opts.offset,
  };
  if (!opts.all) {
    const res = await api.call('listWorkflows', { query });
    if (!res) return;
    const { workflows, totalCount } = res.data as ListAnswer;
    // Workflow ids seen here are offered by Tab later (the completion cache).
    await rememberIds(deps, workflows);
    await deps.print(workflows, { view: 'workflows', list: true });
    const from = opts.offset ?? 0;
    const to = from + workflows.length;
    if (to < totalCount) deps.info(`${from + 1}-${to} of ${totalCount}; next page: --offset ${to}`);
    return;
  }
  const writer = await deps.records({ view: 'workflows' });
  let offset = opts.offset ?? 0;
  try {
    for (;;) {
      const res = await api.call('listWorkflows', { query: { ...query, offset } });
      if (!res) break;
      const { workflows, totalCount } = res.data as ListAnswer;
      await writer.page(workflows);
      offset += workflows.length;
      if (workflows.length === 0 || offset >= totalCount || deps.signal.aborted) break;
    }
  } finally {
    await writer.end();
  }
  if (!deps.globals.dryRun) deps.info(`${writer.count} record${writer.count === 1 ? '' : 's'}`);
}

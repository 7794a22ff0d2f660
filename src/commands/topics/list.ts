// svc topics list [--key K] [--name N] [--limit N] [--after C] → GET /v2/topics
import { intArg } from '../../cli-args.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('list')
      .description(about('list topics', 'listTopics'))
      .option('--key <key>', 'only the topic with this key')
      .option('--name <text>', 'topics whose name contains this text')
      .option('--limit <n>', 'records per page, 1 to 100', intArg(1, 100))
      .option('--after <cursor>', 'cursor: records after this one')
      .option('--before <cursor>', 'cursor: records before this one'),
    ['svc topics list', 'svc topics list --name ops -o json'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = {
    ...(opts.key !== undefined && { key: opts.key }),
    ...(opts.name !== undefined && { name: opts.name }),
    ...(opts.limit !== undefined && { limit: opts.limit }),
    ...(opts.after !== undefined && { after: opts.after }),
    ...(opts.before !== undefined && { before: opts.before }),
  };
  const res = await (await deps.client()).call('listTopics', { query });
  if (!res) return;
  // A table shows what fits in 80 columns; the other formats the topics as the service answers them.
  if (deps.format() === 'table' && !deps.globals.fields && !deps.globals.query) {
    const page = res.data as { data: { key: string; name?: string | null; updatedAt?: string }[] };
    return deps.print(page.data.map((t) => ({ KEY: t.key, NAME: t.name ?? '', UPDATED: t.updatedAt ?? '' })));
  }
  await deps.print(res.data, { list: true });
}

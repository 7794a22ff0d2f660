// svc topics list [--key K] [--name N] [--limit N] [--after C | --before C] [--all] → GET /v2/topics
import { intArg } from '../../cli-args.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { cursorQuery, runList } from '../shared.js';

export const command = () =>
  examples(
    new Command('list')
      .description(about('list topics', 'listTopics'))
      .option('--key <key>', 'only the topic with this key')
      .option('--name <text>', 'topics whose name contains this text')
      .option('--limit <n>', 'records per page, 1 to 100', intArg(1, 100))
      .option('--after <cursor>', 'cursor: records after this one')
      .option('--before <cursor>', 'cursor: records before this one')
      .option('--all', 'follow every cursor to the end, streaming records'),
    ['svc topics list', 'svc topics list --name eng -o json', 'svc topics list --all -o ndjson'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const { limit, after, before } = cursorQuery(opts);
  const query = { key: opts.key, name: opts.name, limit, after, before };
  await runList(deps, 'listTopics', query, { view: 'topics', mode: 'cursor', all: opts.all, allLimit: 100 });
}

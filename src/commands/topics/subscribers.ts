// svc topics subscribers TOPIC_KEY [--subscriber ID] [--limit N] [--after C] [--all]
//   → GET /v2/topics/{topicKey}/subscriptions
import { intArg } from '../../cli-args.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { runList } from '../shared.js';

export const command = () =>
  examples(
    new Command('subscribers')
      .description(about("list a topic's subscribers (its subscriptions)", 'listTopicSubscriptions'))
      .argument('<topicKey>', 'topic key')
      .option('--subscriber <id>', 'only this subscriber: is it subscribed?')
      .option('--limit <n>', 'records per page, 1 to 100', intArg(1, 100))
      .option('--after <cursor>', 'cursor: records after this one')
      .option('--all', 'follow every cursor to the end, streaming records'),
    ['svc topics subscribers engineering', 'svc topics subscribers engineering --all -o ndjson', 'svc topics subscribers engineering --subscriber ada'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [key]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  const query = {
    subscriberId: opts.subscriber === undefined ? undefined : checkId('--subscriber', opts.subscriber),
    limit: opts.limit,
    after: opts.after,
  };
  await runList(deps, 'listTopicSubscriptions', query, { view: 'subscriptions', mode: 'cursor', all: opts.all, allLimit: 100, params: { topicKey } });
}

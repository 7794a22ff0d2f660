// svc messages list [--subscriber] [--channel] [--transaction-id] → GET /v1/messages
import { CHANNELS } from '../../api/enum-values.js';
import { collect, intArg } from '../../cli-args.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, choiceOption, Command, examples, type OptsOf } from '../define.js';
import { contextKeys, runList } from '../shared.js';

export const command = () =>
  examples(
    new Command('list')
      .description(about('list messages', 'listMessages'))
      .option('--subscriber <id>', 'subscriber id')
      .addOption(choiceOption('--channel <channel>', 'channel', CHANNELS))
      .option('--transaction-id <id>', 'transaction id (repeatable)', collect)
      .option('--context <type:id>', 'context key TYPE:ID (repeatable)', collect)
      .option('--page <n>', 'page number, from 0', intArg(0))
      .option('--limit <n>', 'messages per page, 1 to 1000', intArg(1, 1000))
      .option('--all', 'follow every page to the end, streaming records'),
    ['svc messages list --subscriber ada --channel in_app', 'svc messages list --transaction-id 9f1c... --json'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = {
    subscriberId: opts.subscriber !== undefined ? checkId('--subscriber', opts.subscriber) : undefined,
    channel: opts.channel,
    transactionId: opts.transactionId?.map((t) => checkId('--transaction-id', t)),
    contextKeys: contextKeys('--context', opts.context),
    page: opts.page,
    limit: opts.limit,
  };
  await runList(deps, 'listMessages', query, { view: 'messages', mode: 'page', all: opts.all, allLimit: 100 });
}

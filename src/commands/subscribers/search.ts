// svc subscribers search [filters] → GET /v2/subscribers
import { SUBSCRIBER_ORDER_BY } from '../../api/enum-values.js';
import type { Deps } from '../../deps.js';
import { about, Command, cursorPaging, examples, type OptsOf } from '../define.js';
import { cursorQuery, runList } from '../shared.js';

export const command = () =>
  examples(
    cursorPaging(
      new Command('search')
        .description(about('search subscribers; email, phone and name match partially, subscriber id exactly', 'searchSubscribers'))
        .option('--email <email>', 'email (partial, case sensitive)')
        .option('--name <name>', 'name over "first last" (partial)')
        .option('--phone <phone>', 'phone number or a part of it')
        .option('--subscriber-id <id>', 'subscriber id (exact)'),
      SUBSCRIBER_ORDER_BY,
    ),
    ['svc subscribers search --email @acme.com', 'svc subscribers search --name Ada --limit 5 --json'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = { email: opts.email, name: opts.name, phone: opts.phone, subscriberId: opts.subscriberId, ...cursorQuery(opts) };
  await runList(deps, 'searchSubscribers', query, { view: 'subscribers', mode: 'cursor', all: opts.all, allLimit: 100 });
}

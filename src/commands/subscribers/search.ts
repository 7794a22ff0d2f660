// svc subscribers search [filters] → GET /v2/subscribers
import { SUBSCRIBER_ORDER_BY } from '../../api/enum-values.js';
import type { Deps } from '../../deps.js';
import { about, Command, cursorPaging, examples, type OptsOf } from '../define.js';
import { cursorQuery, runList } from '../shared.js';

export const command = () =>
  examples(
    cursorPaging(
      new Command('search')
        .description(about('search subscribers; email and name match a part in any case, phone and id the whole value', 'searchSubscribers'))
        .option('--email <text>', 'a part of the email, any case (ada@ finds Ada@Example.com)')
        .option('--name <text>', 'a part of "first last", any case (ada finds Ada Lovelace)')
        .option('--phone <number>', 'the whole stored number, e.g. +15550100001 (a part finds nothing)')
        .option('--subscriber-id <id>', 'the subscriber id, exact and case sensitive'),
      SUBSCRIBER_ORDER_BY,
    ),
    ['svc subscribers search --email @acme.com', 'svc subscribers search --name ada --limit 5 --json', "svc subscribers search --phone '+15550100001'"],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = { email: opts.email, name: opts.name, phone: opts.phone, subscriberId: opts.subscriberId, ...cursorQuery(opts) };
  await runList(deps, 'searchSubscribers', query, { view: 'subscribers', mode: 'cursor', all: opts.all, allLimit: 100 });
}

// svc subscribers search [filters] → GET /v2/subscribers
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { cursorQuery, runList, type CursorOptions } from '../shared.js';

export interface SearchOptions extends CursorOptions {
  email?: string;
  name?: string;
  phone?: string;
  subscriberId?: string;
}

export async function run(deps: Deps, opts: SearchOptions): Promise<void> {
  const query = { email: opts.email, name: opts.name, phone: opts.phone, subscriberId: opts.subscriberId, ...cursorQuery(opts) };
  await runList(deps, operations.searchSubscribers, query, { view: 'subscribers', mode: 'cursor', all: opts.all, allLimit: 100 });
}

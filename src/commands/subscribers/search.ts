// svc subscribers search [filters] → GET /v2/subscribers
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { rejectAfterAndBefore, runList } from '../shared.js';

export interface SearchOptions {
  email?: string;
  name?: string;
  phone?: string;
  subscriberId?: string;
  limit?: number;
  after?: string;
  before?: string;
  orderBy?: string;
  orderDirection?: string;
  includeCursor?: boolean;
  all?: boolean;
}

export async function run(deps: Deps, opts: SearchOptions): Promise<void> {
  rejectAfterAndBefore(opts);
  const query = {
    email: opts.email,
    name: opts.name,
    phone: opts.phone,
    subscriberId: opts.subscriberId,
    limit: opts.limit,
    after: opts.after,
    before: opts.before,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    includeCursor: opts.includeCursor,
  };
  await runList(deps, operations.searchSubscribers, query, { view: 'subscribers', mode: 'cursor', all: opts.all, allLimit: 100 });
}

// svc connections list [filters] → GET /v1/channel-connections
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { contextKeys, rejectAfterAndBefore, runList } from '../shared.js';

export interface ListOptions {
  subscriber?: string;
  context?: string[];
  channel?: string;
  provider?: string;
  integration?: string;
  limit?: number;
  after?: string;
  before?: string;
  orderBy?: string;
  orderDirection?: string;
  includeCursor?: boolean;
  all?: boolean;
}

export async function run(deps: Deps, opts: ListOptions): Promise<void> {
  rejectAfterAndBefore(opts);
  const query = {
    subscriberId: opts.subscriber,
    contextKeys: contextKeys('--context', opts.context),
    channel: opts.channel,
    providerId: opts.provider,
    integrationIdentifier: opts.integration,
    limit: opts.limit,
    after: opts.after,
    before: opts.before,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    includeCursor: opts.includeCursor,
  };
  await runList(deps, operations.listChannelConnections, query, { view: 'connections', mode: 'cursor', all: opts.all, allLimit: 100 });
}

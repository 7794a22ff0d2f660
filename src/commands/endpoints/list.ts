// svc endpoints list [filters] → GET /v1/channel-endpoints
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { contextKeys, rejectAfterAndBefore, runList } from '../shared.js';
import type { ListOptions } from '../connections/list.js';

export async function run(deps: Deps, opts: ListOptions & { connection?: string }): Promise<void> {
  rejectAfterAndBefore(opts);
  const query = {
    subscriberId: opts.subscriber,
    contextKeys: contextKeys('--context', opts.context),
    channel: opts.channel,
    providerId: opts.provider,
    integrationIdentifier: opts.integration,
    connectionIdentifier: opts.connection,
    limit: opts.limit,
    after: opts.after,
    before: opts.before,
    orderBy: opts.orderBy,
    orderDirection: opts.orderDirection,
    includeCursor: opts.includeCursor,
  };
  await runList(deps, operations.listChannelEndpoints, query, { view: 'endpoints', mode: 'cursor', all: opts.all, allLimit: 100 });
}

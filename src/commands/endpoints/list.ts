// svc endpoints list [filters] → GET /v1/channel-endpoints
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { channelQuery, runList, type ChannelFilterOptions } from '../shared.js';

export async function run(deps: Deps, opts: ChannelFilterOptions & { connection?: string }): Promise<void> {
  const query = { ...channelQuery(opts), connectionIdentifier: opts.connection };
  await runList(deps, operations.listChannelEndpoints, query, { view: 'endpoints', mode: 'cursor', all: opts.all, allLimit: 100 });
}

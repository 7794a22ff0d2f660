// svc connections list [filters] → GET /v1/channel-connections
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { channelQuery, runList, type ChannelFilterOptions } from '../shared.js';

export async function run(deps: Deps, opts: ChannelFilterOptions): Promise<void> {
  await runList(deps, operations.listChannelConnections, channelQuery(opts), { view: 'connections', mode: 'cursor', all: opts.all, allLimit: 100 });
}

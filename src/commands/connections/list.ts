// svc connections list [filters] → GET /v1/channel-connections
import { ENDPOINT_ORDER_BY } from '../../api/enum-values.js';
import type { Deps } from '../../deps.js';
import { about, channelFilters, Command, cursorPaging, examples, type OptsOf } from '../define.js';
import { channelQuery, runList } from '../shared.js';

export const command = () =>
  examples(cursorPaging(channelFilters(new Command('list').description(about('list channel connections', 'listChannelConnections'))), ENDPOINT_ORDER_BY, 100), [
    'svc connections list --subscriber ada',
  ]);

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  await runList(deps, 'listChannelConnections', channelQuery(opts), { view: 'connections', mode: 'cursor', all: opts.all, allLimit: 100 });
}

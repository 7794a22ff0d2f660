// svc endpoints list [filters] → GET /v1/channel-endpoints
import { ENDPOINT_ORDER_BY } from '../../api/enum-values.js';
import type { Deps } from '../../deps.js';
import { about, channelFilters, Command, cursorPaging, examples, type OptsOf } from '../define.js';
import { channelQuery, runList } from '../shared.js';

export const command = () =>
  examples(
    cursorPaging(
      channelFilters(new Command('list').description(about('list channel endpoints', 'listChannelEndpoints'))).option(
        '--connection <identifier>',
        'channel connection identifier',
      ),
      ENDPOINT_ORDER_BY,
      100,
    ),
    ['svc endpoints list --subscriber ada --channel chat', 'svc endpoints list --all -o ndjson'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = { ...channelQuery(opts), connectionIdentifier: opts.connection };
  await runList(deps, 'listChannelEndpoints', query, { view: 'endpoints', mode: 'cursor', all: opts.all, allLimit: 100 });
}

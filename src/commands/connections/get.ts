// svc connections get IDENTIFIER → GET /v1/channel-connections/{identifier}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('get').description(about('show a channel connection', 'getChannelConnection')).argument('<identifier>', 'connection identifier'),
    ['svc connections get chconn_abc123def456', 'svc connections get chconn_abc123def456 --show-secrets --json'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  const res = await (await deps.client()).call('getChannelConnection', { params: { identifier } });
  if (res) await deps.print(res.data, { view: 'connections' });
}

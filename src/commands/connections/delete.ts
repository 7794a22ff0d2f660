// svc connections delete IDENTIFIER → DELETE /v1/channel-connections/{identifier}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete').description(about('delete a channel connection', 'deleteChannelConnection')).argument('<identifier>', 'connection identifier'),
    ['svc connections delete chconn_abc123def456'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  const res = await (await deps.client()).call('deleteChannelConnection', { params: { identifier } });
  if (res) deps.info(`deleted channel connection ${identifier}`);
}

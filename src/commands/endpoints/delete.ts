// svc endpoints delete IDENTIFIER → DELETE /v1/channel-endpoints/{identifier}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(new Command('delete').description(about('delete a channel endpoint', 'deleteChannelEndpoint')).argument('<identifier>'), [
    'svc endpoints delete chendp_abc123def456',
  ]);

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  const res = await (await deps.client()).call('deleteChannelEndpoint', { params: { identifier } });
  if (res) deps.info(`deleted channel endpoint ${identifier}`);
}

// svc connections delete IDENTIFIER → DELETE /v1/channel-connections/{identifier}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete a channel connection (asks first on a terminal)', 'deleteChannelConnection'))
      .argument('<identifier>', 'connection identifier')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc connections delete chconn_abc123def456', 'svc connections delete chconn_abc123def456 --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  if (!(await confirmed(deps, `channel connection ${identifier}`, opts.yes))) return;
  const res = await (await deps.client()).call('deleteChannelConnection', { params: { identifier } });
  if (res) deps.info(`deleted channel connection ${identifier}`);
}

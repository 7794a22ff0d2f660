// svc connections update IDENTIFIER --workspace-id W (--access-token T | --access-token-stdin)
// → PATCH /v1/channel-connections/{identifier}; the service replaces workspace and auth together.
import { checkId } from '../../core/input.js';
import { parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { LABELS } from './create.js';
import { accessToken, tokenOptions, workspace } from './token.js';

export const command = () =>
  examples(
    tokenOptions(
      new Command('update')
        .description(about("replace a connection's workspace and token", 'updateChannelConnection'))
        .argument('<identifier>', 'connection identifier'),
    ),
    ['svc connections update chconn_abc123def456 --workspace-id T123 --access-token-stdin < token.txt'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  const { UpdateConnectionBody } = await import('../../api/schemas/requests.js');
  const body = parseOrUsage(UpdateConnectionBody, { workspace: workspace(opts), auth: { accessToken: await accessToken(deps, opts) } }, LABELS);
  const res = await (await deps.client()).call('updateChannelConnection', { params: { identifier }, body });
  if (res) await deps.print(res.data, { view: 'connections' });
}

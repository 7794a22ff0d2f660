// svc endpoints get IDENTIFIER → GET /v1/channel-endpoints/{identifier}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(new Command('get').description(about('show a channel endpoint', 'getChannelEndpoint')).argument('<identifier>'), ['svc endpoints get chendp_abc123def456']);

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const identifier = checkId('IDENTIFIER', id);
  const res = await (await deps.client()).call('getChannelEndpoint', { params: { identifier } });
  if (res) await deps.print(res.data, { view: 'endpoints' });
}

// svc endpoints get IDENTIFIER → GET /v1/channel-endpoints/{identifier}
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const identifier = checkId('IDENTIFIER', String(args[0]));
  const res = await call(deps, operations.getChannelEndpoint, { params: { identifier } });
  if (res) await deps.print(res.data, { view: 'endpoints' });
}

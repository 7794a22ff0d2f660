// svc connections update IDENTIFIER --workspace-id W (--access-token T | --access-token-stdin)
// → PATCH /v1/channel-connections/{identifier}; the service replaces workspace and auth together.
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { UpdateConnectionBody } from '../../api/schemas/requests.js';
import { accessToken, workspace, type TokenOptions } from './token.js';
import { LABELS } from './create.js';

export async function run(deps: Deps, opts: TokenOptions, args: unknown[]): Promise<void> {
  const identifier = checkId('IDENTIFIER', String(args[0]));
  const body = parseOrUsage(UpdateConnectionBody, { workspace: workspace(opts), auth: { accessToken: await accessToken(deps, opts) } }, LABELS);
  const res = await call(deps, operations.updateChannelConnection, { params: { identifier }, body });
  if (res) await deps.print(res.data, { view: 'connections' });
}

// svc integrations primary ID|IDENTIFIER → POST /v1/integrations/{id}/set-primary
// An identifier (e.g. `postmark`) is looked up among the active integrations first (resolve.ts).
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { firstFound, integrationIds } from './resolve.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('primary')
      .description(about('make an email or sms integration the primary one', 'setPrimaryIntegration'))
      .argument('<integration>', "the integration's _id, or the identifier of an active integration"),
    ['svc integrations primary postmark', 'svc integrations primary 6761f0c2a3b4c5d6e7f80912'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const arg = checkId('INTEGRATION', given);
  const api = await deps.client();
  const ids = await integrationIds(deps, api, arg);
  const res = await firstFound(ids, (integrationId) => api.call('setPrimaryIntegration', { params: { integrationId } }));
  if (res) await deps.print(res.data);
}

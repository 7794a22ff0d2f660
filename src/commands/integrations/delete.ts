// svc integrations delete INTEGRATION_ID [--yes] → DELETE /v1/integrations/{integrationId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { firstFound, integrationIds } from './resolve.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete an integration (asks first on a terminal)', 'deleteIntegration'))
      .argument('<integrationId>', "the integration's _id, or its identifier")
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc integrations delete chat-webhook-x1y2z3', 'svc integrations delete 6615a2e8f0c1d2b3a4c5d6e7 --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const arg = checkId('INTEGRATION_ID', id);
  if (!(await confirmed(deps, `integration ${arg}`, opts.yes))) return;
  const api = await deps.client();
  const ids = await integrationIds(deps, api, arg, 'all');
  const res = await firstFound(ids, (integrationId) => api.call('deleteIntegration', { params: { integrationId } }));
  if (!res) return;
  // The answer is the environment's remaining integrations: data for a script, a line for a person.
  if (deps.format() !== 'table') await deps.print(res.data);
  deps.info(`deleted integration ${arg}`);
}

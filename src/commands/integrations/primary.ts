// svc integrations primary ID → POST /v1/integrations/{id}/set-primary
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('primary')
      .description(about('make an email or sms integration the primary one', 'setPrimaryIntegration'))
      .argument('<integrationId>', 'integration _id'),
    ['svc integrations primary 6761f0c2a3b4c5d6e7f80912'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const integrationId = checkId('INTEGRATION_ID', id);
  const res = await (await deps.client()).call('setPrimaryIntegration', { params: { integrationId } });
  if (res) await deps.print(res.data);
}

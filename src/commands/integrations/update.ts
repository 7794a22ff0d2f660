// svc integrations update INTEGRATION_ID [--name N] [--active on|off] [--credentials JSON] [--hmac on|off]
//   → PUT /v1/integrations/{integrationId}
import { UsageError } from '../../core/errors.js';
import { checkId, isPlainObject, parseJsonText } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, choiceOption, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('update')
      .description(about('change an integration: name, active, credentials (merged), HMAC of the in-app Inbox', 'updateIntegration'))
      .argument('<integrationId>', 'integration id (svc integrations active shows it)')
      .option('--name <name>', 'new name')
      .addOption(choiceOption('--active <on|off>', 'activate or deactivate', ['on', 'off']))
      .option('--credentials <json>', 'credentials to set, as a JSON object (merged with the others)')
      .addOption(choiceOption('--hmac <on|off>', 'the in-app Inbox requires subscriberHash (HMAC of the subscriber id)', ['on', 'off'])),
    ['svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --hmac on', 'svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --name "Inbox" --active off'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const integrationId = checkId('INTEGRATION_ID', id);
  let credentials: Record<string, unknown> | undefined;
  if (opts.credentials !== undefined) {
    const parsed = parseJsonText('--credentials', opts.credentials);
    if (!isPlainObject(parsed)) throw new UsageError('--credentials: must be a JSON object, e.g. {"apiKey": "…"}');
    credentials = parsed;
  }
  if (opts.hmac !== undefined) credentials = { ...credentials, hmac: opts.hmac === 'on' };
  const body = {
    ...(opts.name !== undefined && { name: opts.name }),
    ...(opts.active !== undefined && { active: opts.active === 'on' }),
    ...(credentials !== undefined && { credentials }),
  };
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give at least one of --name, --active, --credentials, --hmac');
  const res = await (await deps.client()).call('updateIntegration', { params: { integrationId }, body });
  if (res) await deps.print(res.data);
}

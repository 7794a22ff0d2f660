// svc integrations update INTEGRATION_ID [--name N] [--active true|false] [--credentials JSON] [--hmac on|off]
//   → PUT /v1/integrations/{integrationId}
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, choiceOption, examples, type OptsOf } from '../define.js';

// The spec's true|false, and on|off as --hmac takes.
const ACTIVE = ['true', 'false', 'on', 'off'];

export const command = () =>
  examples(
    new Command('update')
      .description(about('change an integration: name, active, credentials (merged), HMAC of the in-app Inbox', 'updateIntegration'))
      .argument('<integrationId>', 'integration id (svc integrations active shows it)')
      .option('--name <name>', 'new name')
      .addOption(choiceOption('--active <true|false>', 'activate (true or on) or deactivate (false or off)', ACTIVE))
      .option('--credentials <json>', 'credentials to set, a JSON object (inline, @file or -), merged with the others')
      .addOption(choiceOption('--hmac <on|off>', 'the in-app Inbox requires subscriberHash (HMAC of the subscriber id)', ['on', 'off'])),
    [
      'svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --hmac on',
      'svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --name "Inbox" --active false',
      'svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --credentials @sendgrid.json',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const integrationId = checkId('INTEGRATION_ID', id);
  let credentials: Record<string, unknown> | undefined;
  if (opts.credentials !== undefined) credentials = await deps.input.jsonObject('--credentials', opts.credentials);
  if (opts.hmac !== undefined) credentials = { ...credentials, hmac: opts.hmac === 'on' };
  const body = {
    ...(opts.name !== undefined && { name: opts.name }),
    ...(opts.active !== undefined && { active: opts.active === 'true' || opts.active === 'on' }),
    ...(credentials !== undefined && { credentials }),
  };
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: give at least one of --name, --active, --credentials, --hmac');
  const res = await (await deps.client()).call('updateIntegration', { params: { integrationId }, body });
  if (res) await deps.print(res.data);
}

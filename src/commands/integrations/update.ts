// svc integrations update INTEGRATION_ID|IDENTIFIER [--name N] [--active true|false] [--credentials JSON] [--hmac on|off]
//   → PUT /v1/integrations/{integrationId}
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { firstFound, integrationIds } from './resolve.js';
import { about, type ArgsOf, Command, choiceOption, examples, type OptsOf } from '../define.js';
import { hmacNote } from './hmac.js';

// The spec's true|false, and on|off as --hmac takes.
const ACTIVE = ['true', 'false', 'on', 'off'];

export const command = () =>
  examples(
    new Command('update')
      .description(about('change an integration: name, active, credentials (merged), HMAC of the in-app Inbox', 'updateIntegration'))
      .argument('<integrationId>', "the integration's _id, or the identifier of an active integration")
      .option('--name <name>', 'new name')
      .addOption(choiceOption('--active <true|false>', 'activate (true or on) or deactivate (false or off)', ACTIVE))
      .option('--credentials <json>', 'credentials to set, a JSON object (inline, @file or -), merged with the others')
      .addOption(choiceOption('--hmac <on|off>', 'the in-app Inbox requires subscriberHash (HMAC of the subscriber id)', ['on', 'off'])),
    [
      'svc integrations update svc-in-app --hmac on',
      'svc integrations update postmark --name "Postmark (backup)" --active false',
      'svc integrations update 6615a2e8f0c1d2b3a4c5d6e7 --active true   # an inactive one: by its _id',
      'svc integrations update sendgrid --credentials @sendgrid.json',
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
  const api = await deps.client();
  const ids = await integrationIds(deps, api, integrationId);
  const bodyLabel = (field: string) => `--${field}`;
  const res = await firstFound(ids, (id) => api.call('updateIntegration', { params: { integrationId: id }, body }, { bodyLabel }));
  if (!res) return;
  await deps.print(res.data);
  hmacNote(deps, res.data, credentials?.hmac);
}

// svc integrations create --provider-id P --channel C [--name N] [--identifier ID] [--credentials JSON]
//   [--active true|false] → POST /v1/integrations
import { CHANNELS, PROVIDER_IDS } from '../../api/enum-values.js';
import { checkBody } from '../../api/check-body.js';
import { checkId } from '../../core/input.js';
import { flagLabels } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, Command, choiceOption, examples, type OptsOf } from '../define.js';
import { hmacNote } from './hmac.js';

export const command = () =>
  examples(
    new Command('create')
      .description(about('add a delivery provider integration (inactive unless --active true)', 'createIntegration'))
      .addOption(
        choiceOption('--provider-id <id>', 'provider, e.g. sendgrid, chat-webhook (svc help providers lists them)', PROVIDER_IDS).makeOptionMandatory(),
      )
      .addOption(choiceOption('--channel <channel>', `channel: ${CHANNELS.join(', ')}`, CHANNELS).makeOptionMandatory())
      .option('--name <name>', 'name (default: the provider id, capitalised)')
      .option('--identifier <id>', 'identifier, unique in the organisation (default: made from the name)')
      .option('--credentials <json>', 'credentials, a JSON object (inline, @file or -), e.g. {"webhookUrl":"https://…"}')
      .addOption(choiceOption('--active <true|false>', 'whether it delivers from now on (default false)', ['true', 'false'])),
    [
      'svc integrations create --provider-id chat-webhook --channel chat --credentials \'{"webhookUrl":"http://localhost:4000/hook"}\' --active true',
      'svc integrations create --provider-id sendgrid --channel email --name "SendGrid (EU)" --credentials @sendgrid.json',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const body: Record<string, unknown> = { providerId: opts.providerId, channel: opts.channel };
  if (opts.name !== undefined) body.name = opts.name;
  if (opts.identifier !== undefined) body.identifier = checkId('--identifier', opts.identifier);
  if (opts.credentials !== undefined) body.credentials = await deps.input.jsonObject('--credentials', opts.credentials);
  if (opts.active !== undefined) body.active = opts.active === 'true';
  const labels = flagLabels({ providerId: '--provider-id', credentials: '--credentials', name: '--name', identifier: '--identifier' });
  const valid = await checkBody('createIntegration', body, labels);
  const res = await (await deps.client()).call('createIntegration', { body: valid }, { bodyLabel: labels });
  if (!res) return;
  await deps.print(res.data);
  const made = res.data as { identifier?: string; active?: boolean };
  deps.info(`created integration ${made.identifier ?? ''}${made.active ? '' : ' (inactive; --active true turns it on)'}`);
  hmacNote(deps, res.data, opts.credentials !== undefined ? (body.credentials as Record<string, unknown>).hmac : undefined);
}

// svc subscribers credentials remove SUBSCRIBER_ID --provider ID → DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}
import { CHAT_PUSH_PROVIDER_IDS } from '../../../api/enum-values.js';
import { UsageError } from '../../../core/errors.js';
import { checkId } from '../../../core/input.js';
import type { Deps } from '../../../deps.js';
import { about, type ArgsOf, choiceOption, Command, examples, type OptsOf } from '../../define.js';

export const command = () =>
  examples(
    new Command('remove')
      .description(about("forget a subscriber's credentials for a provider (every integration of it)", 'deleteSubscriberCredentials'))
      .argument('<subscriberId>', 'subscriber id')
      .addOption(choiceOption('--provider <providerId>', 'the push or chat provider, e.g. fcm, slack', CHAT_PUSH_PROVIDER_IDS)),
    ['svc subscribers credentials remove ada --provider fcm', 'svc subscribers credentials remove ada --provider slack --quiet'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  if (opts.provider === undefined) throw new UsageError("missing required option '--provider <providerId>'");
  const res = await (await deps.client()).call('deleteSubscriberCredentials', { params: { subscriberId, providerId: opts.provider } });
  if (res) deps.info(`deleted ${opts.provider} credentials of subscriber ${subscriberId}`);
}

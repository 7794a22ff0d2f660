// svc subscribers credentials set SUBSCRIBER_ID --provider ID (--token T ... | --webhook-url URL) [--integration ID] [--append]
//   → PUT /v1/subscribers/{subscriberId}/credentials (PATCH with --append)
import { CHAT_PUSH_PROVIDER_IDS } from '../../../api/enum-values.js';
import { collect } from '../../../cli-args.js';
import { UsageError } from '../../../core/errors.js';
import { checkId, quote } from '../../../core/input.js';
import type { Deps } from '../../../deps.js';
import { about, type ArgsOf, choiceOption, Command, examples, type OptsOf } from '../../define.js';

export const command = () =>
  examples(
    new Command('set')
      .description(
        about(
          "store a subscriber's device tokens (push) or webhook URL (chat) for a provider: push and chat steps deliver there",
          'updateSubscriberCredentials',
        ),
      )
      .argument('<subscriberId>', 'subscriber id')
      .addOption(choiceOption('--provider <providerId>', 'the push or chat provider, e.g. fcm, apns, expo, slack, discord, msteams', CHAT_PUSH_PROVIDER_IDS))
      .option('--token <deviceToken>', 'a device token (repeatable); replaces the tokens kept for the provider, or adds to them with --append', collect)
      .option('--webhook-url <url>', 'the chat webhook URL (http or https)')
      .option('--integration <identifier>', "the provider's integration, when the environment has more than one (default: the newest active)")
      .option('--append', 'add the tokens to those kept instead of replacing them (PATCH)'),
    [
      'svc subscribers credentials set ada --provider fcm --token fMqT0k3n',
      'svc subscribers credentials set ada --provider fcm --token t2 --append   # keep the others',
      'svc subscribers credentials set ada --provider slack --webhook-url https://hooks.slack.com/services/T0/B0/x',
      'svc subscribers credentials set ada --provider expo --token "ExponentPushToken[x]" --integration expo-staging --json',
    ],
  );

/** The webhook URL as given (an http or https URL), or a usage error naming the flag. */
function webhookUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`--webhook-url: expected an http:// or https:// URL (got ${quote(value)})`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--webhook-url: expected an http:// or https:// URL (got ${quote(value)})`);
  return value;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  if (opts.provider === undefined) throw new UsageError("missing required option '--provider <providerId>'");
  const tokens = opts.token ?? [];
  if (tokens.length > 0 && opts.webhookUrl !== undefined)
    throw new UsageError('--token and --webhook-url cannot be used together: one is for push, the other for chat');
  if (tokens.length === 0 && opts.webhookUrl === undefined)
    throw new UsageError('give the credentials: --token T (repeatable, push) or --webhook-url URL (chat)');
  if (opts.append && tokens.length === 0) throw new UsageError('--append only applies with --token');
  const credentials = tokens.length > 0 ? { deviceTokens: tokens.map((t) => checkId('--token', t)) } : { webhookUrl: webhookUrl(opts.webhookUrl!) };
  const body = {
    providerId: opts.provider,
    credentials,
    ...(opts.integration !== undefined && { integrationIdentifier: checkId('--integration', opts.integration) }),
  };
  const operation = opts.append ? 'appendSubscriberCredentials' : 'updateSubscriberCredentials';
  const res = await (await deps.client()).call(operation, { params: { subscriberId }, body });
  if (!res) return;
  // At a terminal, what the subscriber can now be reached at; scripts get the service's subscriber.
  await deps.print(deps.format() === 'table' ? channelRows(res.data as Reached) : res.data);
}

type Reached = { channels?: { providerId: string; integrationIdentifier?: string; credentials?: { deviceTokens?: string[]; webhookUrl?: string } }[] };

/** One row per provider integration: how many device tokens, and where a webhook goes (its origin only: the path is a secret). */
export function channelRows(sub: Reached): Record<string, string>[] {
  return (sub.channels ?? []).map((c) => {
    const tokens = c.credentials?.deviceTokens?.length ?? 0;
    let webhook = '';
    if (c.credentials?.webhookUrl) {
      try {
        webhook = `${new URL(c.credentials.webhookUrl).origin}/…`;
      } catch {
        webhook = '(not a URL)';
      }
    }
    return { PROVIDER: c.providerId, INTEGRATION: c.integrationIdentifier ?? '', DEVICE_TOKENS: tokens ? String(tokens) : '', WEBHOOK: webhook };
  });
}

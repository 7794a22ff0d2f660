// svc messages get MESSAGE_ID: the message as sent, with the checks a person would otherwise do by
// hand (core/message-checks.ts): an email's headers, text, links, images and size against the point
// where Gmail clips it; an SMS's encoding and segments; a push's payload against the APNs and FCM
// limits. svc dev answers by id (GET /v1/svc-dev/messages/{id}, with the email's sender); the hosted
// service has no such route, so its GET /v1/messages pages are looked through, newest first.
import { CHANNELS, OBJECT_ID_RE } from '../../api/enum-values.js';
import type { Message } from '../../api/schemas/resources.js';
import type { Api } from '../../api/session.js';
import { EXIT, SvcError, UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Mailbox } from '../../core/email-source.js';
import { inspectMessage } from '../../core/message-checks.js';
import type { Deps } from '../../deps.js';
import { about, Command, choiceOption, examples, helpNote, type ArgsOf, type OptsOf } from '../define.js';

/** Pages of 100 looked through on the hosted service before giving up. */
const MAX_PAGES = 50;

export const command = () =>
  examples(
    helpNote(
      new Command('get')
        .description(about('show a message as sent, with its checks (size, links, SMS segments, push payload)', 'listMessages'))
        .argument('<messageId>', 'the 24-character message id')
        .option('--subscriber <id>', 'narrows the search on the hosted service: the recipient')
        .option('--transaction-id <id>', 'narrows the search on the hosted service: the trigger transaction id')
        .addOption(choiceOption('--channel <channel>', 'narrows the search on the hosted service: the channel', CHANNELS)),
      [
        'Each check is a line that says what exceeded what: Gmail clips an email whose HTML is over 102 KB; an',
        'SMS is GSM-7 (160 characters, 153 per part) or UCS-2 (70, 67 per part); APNs and FCM refuse a push',
        'payload over 4 KB. With -o json the message record gets an `outbox` field holding the same.',
      ].join(' '),
    ),
    ['svc messages get 6761f0c2a3b4c5d6e7f80912', 'svc messages get 6761f0c2a3b4c5d6e7f80912 -o json --query outbox.checks'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  if (!OBJECT_ID_RE.test(id)) throw new UsageError(`MESSAGE_ID: expected a 24-character hexadecimal id, got "${id.slice(0, 40)}"`);
  const narrow = {
    subscriberId: opts.subscriber !== undefined ? checkId('--subscriber', opts.subscriber) : undefined,
    transactionId: opts.transactionId !== undefined ? [checkId('--transaction-id', opts.transactionId)] : undefined,
    channel: opts.channel,
  };
  const api = await deps.client();
  const { hasExtension } = await import('../../api/local-service.js');
  let message: (Message & { sender?: Mailbox }) | undefined;
  if (await hasExtension(api, 'messages.get', { dryRun: deps.globals.dryRun })) {
    message = (await api.call<Message & { sender?: Mailbox }>('getMessage', { params: { messageId: id } }))?.data;
  } else {
    const found = await search(api, id.toLowerCase(), narrow);
    if (found === null) {
      throw new SvcError(
        `message ${id} not found among the newest ${MAX_PAGES * 100} messages`,
        'not_found',
        EXIT.notFound,
        'narrow the search with --subscriber, --transaction-id or --channel',
      );
    }
    message = found;
  }
  if (!message) return;
  const outbox = inspectMessage(message, { from: message.sender });
  await deps.print({ ...message, outbox }, { view: 'message' });
}

/** The message from the hosted service's pages; null when it is not in them, undefined on a dry run. */
async function search(api: Api, id: string, query: Record<string, unknown>): Promise<Message | undefined | null> {
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await api.call<{ data: Message[]; hasMore?: boolean }>('listMessages', { query: { ...query, page, limit: 100 } });
    if (!res) return undefined;
    const hit = res.data.data.find((m) => m._id === id);
    if (hit) return hit;
    if (!res.data.hasMore || res.data.data.length === 0) break;
  }
  return null;
}

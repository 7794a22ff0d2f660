// svc messages mark-as SUBSCRIBER_ID read|seen|unread|unseen MESSAGE_ID... → POST /v1/subscribers/{id}/messages/mark-as
// The service answers with the messages it changed. None changed (no id is a message of that
// subscriber) exits 5, as a lookup that found nothing does: a script must not take it for success.
import { MARK_AS, OBJECT_ID_RE } from '../../api/enum-values.js';
import { EXIT, SvcError, UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, Argument, type ArgsOf, Command, examples, helpNote, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    helpNote(
      new Command('mark-as')
        .description(about('mark in-app messages read, seen, unread or unseen', 'markMessagesAs'))
        .argument('<subscriberId>', 'subscriber id')
        .addArgument(new Argument('<state>', 'read, seen, unread or unseen').choices(MARK_AS))
        .argument('<messageIds...>', 'one or more 24-character message ids'),
      'Exit code 5 when no message was changed (no id is a message of that subscriber).',
    ),
    ['svc messages mark-as ada read 6761f0c2a3b4c5d6e7f80912', 'svc messages mark-as ada seen 6761f0c2a3b4c5d6e7f80912 6761f0c2a3b4c5d6e7f80913'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [subscriber, markAs, ids]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', subscriber);
  for (const id of ids) {
    if (!OBJECT_ID_RE.test(id)) throw new UsageError(`MESSAGE_ID: expected 24-character hexadecimal ids, got "${id.slice(0, 40)}"`);
  }
  const messageId = ids.length === 1 ? ids[0] : ids;
  const res = await (await deps.client()).call<unknown[]>('markMessagesAs', { params: { subscriberId }, body: { messageId, markAs } });
  if (!res) return;
  await deps.print(res.data, { view: 'messages' });
  const changed = Array.isArray(res.data) ? res.data.length : 0;
  if (changed === 0 && !deps.globals.dryRun)
    throw new SvcError(
      `no message was marked ${markAs}: none of the ${ids.length} message id(s) is a message of ${subscriberId}`,
      'nothing_changed',
      EXIT.notFound,
      `svc messages list --subscriber ${subscriberId} shows their message ids`,
    );
  if (changed < ids.length) deps.warn(`${ids.length - changed} of ${ids.length} message id(s) do not belong to ${subscriberId} and were not changed`);
}

// svc messages mark-as SUBSCRIBER_ID read|seen|unread|unseen MESSAGE_ID... → POST /v1/subscribers/{id}/messages/mark-as
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', String(args[0]));
  const markAs = String(args[1]);
  const ids = (args[2] as string[]) ?? [];
  for (const id of ids) {
    if (!OBJECT_ID_RE.test(id)) throw new UsageError(`MESSAGE_ID: expected 24-character hexadecimal ids, got "${id.slice(0, 40)}"`);
  }
  const messageId = ids.length === 1 ? ids[0] : ids;
  const res = await call<unknown[]>(deps, operations.markMessagesAs, { params: { subscriberId }, body: { messageId, markAs } });
  if (!res) return;
  await deps.print(res.data, { view: 'messages' });
  const changed = Array.isArray(res.data) ? res.data.length : 0;
  if (changed < ids.length) deps.warn(`${ids.length - changed} of ${ids.length} message id(s) do not belong to ${subscriberId} and were not changed`);
}

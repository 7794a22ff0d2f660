// svc subscribers online ID true|false → PATCH /v1/subscribers/{id}/online-status
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', String(args[0]));
  const isOnline = args[1] === true;
  const res = await call(deps, operations.updateOnlineStatus, { params: { subscriberId }, body: { isOnline } });
  if (res) await deps.print(res.data);
}

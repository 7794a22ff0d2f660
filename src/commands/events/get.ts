// svc events get ID → GET /v1/notifications/{id}, shown as a timeline of jobs and execution details.
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const id = String(args[0]);
  if (!OBJECT_ID_RE.test(id)) throw new UsageError(`NOTIFICATION_ID: expected a 24-character hexadecimal id, got "${id.slice(0, 40)}"`);
  const res = await call(deps, operations.getEvent, { params: { notificationId: id } });
  if (res) await deps.print(res.data, { view: 'event' });
}

// What `svc topics add` and `svc topics remove` share: the subscriber ids and the report of a change.
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';

const MAX = 100;

export function subscriberIds(subscribers: string[]): string[] {
  if (subscribers.length > MAX) throw new UsageError(`SUBSCRIBER: at most ${MAX} per call (got ${subscribers.length})`);
  return subscribers.map((s) => checkId('SUBSCRIBER', s));
}

export type Result = { data: unknown[]; meta: { successful: number; failed: number }; errors: { subscriberId: string; message: string }[] };

export async function report(deps: Deps, verb: string, key: string, r: Result): Promise<void> {
  await deps.print(r);
  deps.info(`${verb} ${r.meta.successful} subscriber${r.meta.successful === 1 ? '' : 's'} ${verb === 'added' ? 'to' : 'from'} topic ${key}`);
  for (const e of r.errors) deps.warn(`${e.subscriberId}: ${e.message}`);
}

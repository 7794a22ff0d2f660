// What `svc topics add` and `svc topics remove` share: the subscriber ids and the report of a change.
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';

const MAX = 100;

export function subscriberIds(subscribers: string[]): string[] {
  if (subscribers.length > MAX) throw new UsageError(`SUBSCRIBER: at most ${MAX} per call (got ${subscribers.length})`);
  return subscribers.map((s) => checkId('SUBSCRIBER', s));
}

export type Result = {
  data: unknown[];
  meta: { successful: number; failed: number };
  errors?: { subscriberId: string; code?: string; message: string }[];
};

/**
 * The change's outcome: the subscriptions it made or removed (a table of them at a terminal, the whole
 * answer in JSON), a count on stderr, and each subscriber it could not change named with the reason
 * (exit 5 or 6, see item-errors.ts).
 */
export async function report(deps: Deps, verb: 'added' | 'removed', key: string, r: Result): Promise<void> {
  if (deps.format() === 'table') {
    if (r.data.length) await deps.print(r.data, { view: 'subscriptions' });
  } else await deps.print(r);
  const n = r.meta?.successful ?? r.data.length;
  deps.info(`${verb} ${n} subscriber${n === 1 ? '' : 's'} ${verb === 'added' ? 'to' : 'from'} topic ${key}`);
  const errors = r.errors ?? [];
  if (errors.length === 0) return;
  const { ItemErrors } = await import('../item-errors.js');
  const what = verb === 'added' ? `not added to topic ${key}` : `not removed from topic ${key}`;
  throw new ItemErrors(
    `${errors.length} subscriber${errors.length === 1 ? '' : 's'} ${what}`,
    errors.map((e) => ({ item: e.subscriberId, code: e.code, message: e.message })),
  );
}

// svc events get REF → GET /v1/notifications/{id}, shown as a timeline of jobs and execution details.
// REF is a notification id, a transaction id (every recipient's event, via GET /v1/notifications
// ?transactionId=), or a short id a table printed (core/event-ref.ts).
import { ApiError, SvcError } from '../../core/errors.js';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import { resolveEvents } from '../../core/event-ref.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { printedEventIds, rememberIds } from './cache.js';

export const command = () =>
  examples(
    new Command('get')
      .description(about('show one event with every job and its execution details', 'getEvent'))
      .argument('<notificationId|transactionId>', 'notification id, transaction id, or a short id from svc events list')
      .option('--raw', "show each provider's or bridge's raw answer whole in the timeline (folded to its size otherwise; -o json has it)"),
    [
      'svc events get 6761f0c2a3b4c5d6e7f80912',
      'svc events get 3f1c2a4e-9b7d-4c1e-8a2f-5d6e7f809123   # a transaction: every recipient',
      'svc events get 6761f0c2a3b4c5d6e7f80912 --json | jq .jobs',
    ],
  );

type Event = { _id?: string };

export async function run(deps: Deps, opts: OptsOf<typeof command>, [ref]: ArgsOf<typeof command>): Promise<void> {
  const api = await deps.client();
  if (deps.globals.dryRun) {
    // What would be sent for the common case: the notification id, else the transaction lookup.
    if (OBJECT_ID_RE.test(ref)) await api.call('getEvent', { params: { notificationId: ref } });
    else await api.call('listEvents', { query: { transactionId: ref, page: 0, limit: 50 } });
    return;
  }
  // The service's own 404 for the id REF named: what is reported when no transaction has that id either.
  let notFound: ApiError | undefined;
  const remembered = await printedEventIds(deps);
  const lookup = {
    remembered,
    async get(id: string) {
      try {
        return (await api.call<Event>('getEvent', { params: { notificationId: id } }))?.data;
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) {
          if (id === ref.trim()) notFound = e;
          return undefined;
        }
        throw e;
      }
    },
    async list(query: { transactionId?: string; page: number; limit: number }) {
      const res = await api.call<{ data: Event[]; hasMore?: boolean }>('listEvents', { query });
      return res?.data ?? { data: [] };
    },
  };
  const found = await resolveEvents<Event>(lookup, ref).catch((e: unknown) => {
    throw notFound && e instanceof SvcError && e.exitCode === 5 ? notFound : e;
  });
  // A notification id (or short id) prints the record as before; a transaction prints each of its
  // events (JSON: an array when there are several).
  await rememberIds(deps, found.events);
  const view = { view: 'event' as const, ...(opts.raw ? { raw: true } : {}) };
  if (found.events.length === 1) return void (await deps.print(found.events[0], view));
  deps.info(`transaction ${ref}: ${found.events.length} events (one per recipient)`);
  await deps.print(found.events, view);
}

// svc events list [filters] → GET /v1/notifications
import { intArg } from '../../cli-args.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { runList } from '../shared.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';

/** The feed's largest page (api-spec.md, operation 14). */
const EVENTS_MAX_LIMIT = 50;

export const command = () =>
  examples(
    eventFilters(new Command('list').description(about('list triggered events', 'listEvents')))
      .option('--page <n>', 'page number, from 0', intArg(0))
      .option('--limit <n>', `events per page, 1 to ${EVENTS_MAX_LIMIT}`, intArg(1, EVENTS_MAX_LIMIT))
      .option('--all', 'follow every page to the end, streaming records'),
    [
      'svc events list --subscriber user-1 --since 2h',
      'svc events list --channel email --channel sms --limit 50',
      'svc events list --all -o ndjson > events.ndjson',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const query = await resolveWorkflows(deps, { ...eventsQuery(opts, deps.now()), page: opts.page, limit: opts.limit });
  await runList(deps, 'listEvents', query, { view: 'events', mode: 'page', all: opts.all, allLimit: EVENTS_MAX_LIMIT });
}

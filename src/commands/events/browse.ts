// svc events browse [filters]: a full-screen browser of the activity feed for a person at a terminal
// (src/tui/app.ts): arrow keys, / to filter by subscriber, workflow or status, Enter for an event's
// timeline, r to trigger it again to the same subscriber, q to quit. It refreshes as events arrive.
// It never starts without a terminal: scripts get `events list` / `events watch`.
import { durationArg } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';

export const command = () =>
  examples(
    eventFilters(new Command('browse').description(about('browse the activity feed full-screen (needs a terminal)', 'listEvents')))
      .option('--status <status>', 'show only events of this overall status at first (delivered, failed, pending, merged, throttled, skipped)')
      .option('--interval <duration>', 'time between refreshes (default 3s)', durationArg),
    ['svc events browse', 'svc events browse --subscriber ada --since 2h', 'svc events browse --status failed'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const { stdin, stdout } = deps.io;
  if (!stdout.isTTY || !stdin.isTTY) {
    throw new UsageError('events browse needs a terminal (stdin and stdout a TTY); in scripts use svc events list or svc events watch');
  }
  const query = await resolveWorkflows(deps, eventsQuery(opts, deps.now()));
  const api = await deps.client();
  const { runBrowse } = await import('../../tui/app.js');
  type Ev = import('../../tui/model.js').BrowseEvent;
  await runBrowse(
    {
      async list() {
        // The newest 100: two pages of the feed's largest page.
        const out: Ev[] = [];
        for (let page = 0; page < 2; page++) {
          const res = await api.call<{ data: Ev[]; hasMore?: boolean }>('listEvents', { query: { ...query, page, limit: 50 } });
          out.push(...(res?.data.data ?? []));
          if (!res?.data.hasMore) break;
        }
        return out;
      },
      async get(id) {
        const res = await api.call<Ev>('getEvent', { params: { notificationId: id } });
        return res?.data ?? {};
      },
      async retrigger(e) {
        const name = e.template?.triggers?.[0]?.identifier;
        const to = e.subscriber?.subscriberId;
        if (!name || !to) throw new Error('this event has no workflow identifier or subscriber id to trigger again');
        const res = await api.call<{ transactionId?: string; status?: string }>('triggerEvent', { body: { name, to, payload: e.payload ?? {} } });
        if (res?.data.status && res.data.status !== 'processed') throw new Error(`not processed: ${res.data.status}`);
        return res?.data.transactionId ?? '?';
      },
    },
    {
      filter: opts.status ? { status: opts.status } : {},
      time: { utc: deps.globals.utc === true },
      refreshMs: opts.interval ?? 3000,
      stdin: stdin as NodeJS.ReadStream,
      stdout: stdout as NodeJS.WriteStream,
    },
  );
}

// svc events watch [filters]: polls the activity feed and prints each new event once, as it arrives
// (table lines on a terminal, NDJSON when piped). Polls every --interval, slower when the rate limit
// runs low; Ctrl-C stops it and says how to continue from where it got to (--since). A line fits the
// terminal: the time, the end of the id (events get takes it), workflow, subscriber, the derived status
// (core/status.ts) and as much of the reason as there is room for; --wide shows whole ids and the
// transaction. --status prints an event once it reaches one of those statuses: an event still pending
// when it arrives is looked at again on each poll until it settles (the poll reaches back to the oldest
// one followed), so a failure that comes a minute after the trigger is not missed.
import { durationArg } from '../../cli-args.js';
import { InterruptedError } from '../../core/errors.js';
import { isSettled, matchesStatus, eventStatus, type StatusJob } from '../../core/status.js';
import type { Deps } from '../../deps.js';
import { mask } from '../../io/output.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';
import { STATUS_FILTERS, statusOption } from './status-list.js';
import type { WatchEvent } from '../../io/watch-line.js';

export const command = () =>
  examples(
    eventFilters(new Command('watch').description(about('print new events as they arrive', 'listEvents', 'polls ')))
      .option('--interval <duration>', 'time between polls (default 2s; slower when the rate limit runs low)', durationArg)
      .addOption(
        statusOption(
          `print events once they reach this derived status (repeatable or comma list): ${STATUS_FILTERS.join(', ')}; with --channel, that channel's own outcome`,
        ),
      ),
    [
      'svc events watch --subscriber ada',
      'svc events watch --status failed,partial',
      'svc events watch --workflow welcome -o ndjson | jq .transactionId',
      'svc events watch --since 2026-11-22T10:00:00Z   # continue where an earlier watch stopped',
    ],
  );

type Event = WatchEvent & { jobs?: StatusJob[] };

/** Pending events followed at most, by --status, until they settle (the oldest are let go first). */
const FOLLOWED = 1000;

/** Ids already printed; only the most recent are remembered (overlapping polls repeat a few). */
class Seen {
  private ids = new Set<string>();
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > 10_000) this.ids.delete(this.ids.values().next().value!);
  }
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const started = deps.now();
  const query = await resolveWorkflows(deps, eventsQuery(opts, started));
  let watermark = (query.after as string | undefined) ?? new Date(started).toISOString();
  const api = await deps.client();
  if (deps.globals.dryRun) {
    // The first poll, printed instead of sent; a dry run does not watch.
    await api.call('listEvents', { query: { ...query, after: watermark, page: 0, limit: 50 } });
    return;
  }
  const base = opts.interval ?? 2000;
  let interval = base;
  const seen = new Seen();
  const explicit = deps.globals.output !== undefined || deps.globals.json || deps.globals.query !== undefined;
  const lines = !explicit && deps.format() === 'table';
  const writer = lines
    ? undefined
    : await deps.records({ view: 'events', queryEach: true, scope: { channels: opts.channel }, ...(deps.globals.output ? {} : { format: 'ndjson' }) });
  const chalk = lines ? new (await import('chalk')).Chalk({ level: deps.color() ? 1 : 0 }) : undefined;
  const colour = lines ? (await import('../../io/table.js')).colourStatus : undefined;
  // The line's layout (terminal widths, the sanitiser) loads only for a watch on a terminal.
  const { line } = lines ? await import('../../io/watch-line.js') : { line: undefined };
  const width = deps.io.stdout.isTTY && deps.io.stdout.columns ? deps.io.stdout.columns : undefined;
  const out = deps.output();
  const scope = { channels: opts.channel };
  const layout = { width, wide: deps.globals.wide === true || width === undefined, utc: deps.globals.utc === true, scope };
  const wanted = opts.status;
  // --status: events seen while still pending, by id, with their creation time (the poll reaches back to the oldest).
  const followed = new Map<string, string>();
  const decide = (e: Event): 'print' | 'follow' | 'drop' => {
    if (!wanted?.length) return 'print';
    const status = eventStatus(e.jobs as StatusJob[] | undefined, scope);
    if (wanted.some((w) => matchesStatus(status, w))) return 'print';
    return (e.jobs ?? []).every((j) => isSettled(j.status)) && (e.jobs ?? []).length > 0 ? 'drop' : 'follow';
  };
  deps.info(
    `watching events after ${watermark}${wanted?.length ? ` that reach status ${wanted.join(' or ')}` : ''} (every ${Math.round(base / 100) / 10}s; Ctrl-C to stop)`,
  );

  try {
    while (!deps.signal.aborted) {
      const fresh: Event[] = [];
      let rateLow = false;
      // ISO times in one format compare as strings: the earliest of the followed ones, or the watermark.
      const oldest = [...followed.values(), watermark].sort()[0]!;
      for (let page = 0; page < 100; page++) {
        const res = await api.call<{ data: Event[]; hasMore?: boolean }>('listEvents', { query: { ...query, after: oldest, page, limit: 50 } });
        if (!res) break;
        for (const e of res.data.data) if (e._id && !seen.has(e._id)) fresh.push(e);
        const rl = res.rateLimit;
        if (rl.limit !== undefined && rl.remaining !== undefined && rl.remaining < rl.limit * 0.2) rateLow = true;
        if (!res.data.hasMore || res.data.data.length === 0) break;
      }
      fresh.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
      for (const e of fresh) {
        if (e.createdAt && e.createdAt > watermark) watermark = e.createdAt;
        const what = decide(e);
        if (what === 'follow') {
          followed.set(e._id!, e.createdAt ?? watermark);
          if (followed.size > FOLLOWED) followed.delete(followed.keys().next().value!);
          continue;
        }
        followed.delete(e._id!);
        seen.add(e._id!);
        if (what === 'drop') continue;
        if (writer) await writer.page([e]);
        // Secrets masked as every other output masks them (unless --show-secrets).
        else deps.io.stdout.write(`${line!(mask(out, e) as Event, chalk!, colour!, layout)}\n`);
      }
      interval = rateLow ? Math.min(30_000, interval * 2) : base;
      // Ctrl-C ends the wait at once; the timer's listener goes with it (a watch polls for hours).
      // Not imported at the top: this module loads with every command (the command tree), the timers only here.
      await process.getBuiltinModule('node:timers/promises').setTimeout(interval, undefined, { signal: deps.signal });
    }
  } catch (e) {
    if (!(e instanceof InterruptedError) && !deps.signal.aborted) {
      await writer?.end();
      throw e;
    }
  }
  await writer?.end();
  // Ctrl-C is how a watch ends: said on stderr as a note, not as an error; the exit code stays 130.
  deps.info(`stopped watching; to continue from here: svc events watch --since ${watermark}`);
  throw new WatchStopped();
}

/** Ctrl-C ended the watch: exit 130 (cli.md), and nothing more to say than the note already printed. */
class WatchStopped extends InterruptedError {
  readonly said = true;
}

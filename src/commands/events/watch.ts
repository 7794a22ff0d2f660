// svc events watch [filters]: polls the activity feed and prints each new event once, as it arrives
// (table lines on a terminal, NDJSON when piped). Polls every --interval, slower when the rate limit
// runs low; Ctrl-C stops it and says how to continue from where it got to (--since). A line fits the
// terminal: the time, the end of the id (events get takes it), workflow, subscriber, the overall status
// and as much of the failure reason as there is room for; --wide shows whole ids and the transaction.
import { durationArg } from '../../cli-args.js';
import { InterruptedError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';

export const command = () =>
  examples(
    eventFilters(new Command('watch').description(about('print new events as they arrive', 'listEvents', 'polls '))).option(
      '--interval <duration>',
      'time between polls (default 2s; slower when the rate limit runs low)',
      durationArg,
    ),
    [
      'svc events watch --subscriber ada',
      'svc events watch --workflow welcome -o ndjson | jq .transactionId',
      'svc events watch --since 2026-11-22T10:00:00Z   # continue where an earlier watch stopped',
    ],
  );

type Event = import('../../io/watch-line.js').WatchEvent;

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
  const writer = lines ? undefined : await deps.records({ view: 'events', queryEach: true, ...(deps.globals.output ? {} : { format: 'ndjson' }) });
  const chalk = lines ? new (await import('chalk')).Chalk({ level: deps.color() ? 1 : 0 }) : undefined;
  const colour = lines ? (await import('../../io/table.js')).colourStatus : undefined;
  // The line's layout (terminal widths, the sanitiser) loads only for a watch on a terminal.
  const { line } = lines ? await import('../../io/watch-line.js') : { line: undefined };
  const { mask } = await import('../../io/output.js');
  const width = deps.io.stdout.isTTY && deps.io.stdout.columns ? deps.io.stdout.columns : undefined;
  const out = deps.output();
  const layout = { width, wide: deps.globals.wide === true || width === undefined, utc: deps.globals.utc === true };
  deps.info(`watching events after ${watermark} (every ${Math.round(base / 100) / 10}s; Ctrl-C to stop)`);

  try {
    while (!deps.signal.aborted) {
      const fresh: Event[] = [];
      let rateLow = false;
      for (let page = 0; page < 100; page++) {
        const res = await api.call<{ data: Event[]; hasMore?: boolean }>('listEvents', { query: { ...query, after: watermark, page, limit: 50 } });
        if (!res) break;
        for (const e of res.data.data) if (e._id && !seen.has(e._id)) fresh.push(e);
        const rl = res.rateLimit;
        if (rl.limit !== undefined && rl.remaining !== undefined && rl.remaining < rl.limit * 0.2) rateLow = true;
        if (!res.data.hasMore || res.data.data.length === 0) break;
      }
      fresh.sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)));
      for (const e of fresh) {
        seen.add(e._id!);
        if (e.createdAt && e.createdAt > watermark) watermark = e.createdAt;
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
  throw new InterruptedError('stopped watching', `to continue from here: svc events watch --since ${watermark}`);
}

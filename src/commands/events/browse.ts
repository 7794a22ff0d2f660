// svc events browse [filters]: a full-screen browser of the activity feed for a person at a terminal
// (src/tui/app.ts): arrow keys, / to filter by subscriber, workflow or status, Enter for an event's
// timeline, r to trigger it again to the same subscriber, ? for the keys, q to quit. It refreshes as
// events arrive and loads older pages as the cursor goes down. The subscriber and workflow filters
// (flags or /) are the feed's own query parameters, so the service filters all its events, not the
// ones loaded. What it shows is masked and made safe for the terminal as every other output is.
// It never starts without a terminal: scripts get `events list` / `events watch`.
import { durationArg } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';
import { safeDeep, safeText } from '../../io/safe-text.js';
import { mask } from '../../io/output.js';
import { rememberBrowsed } from './cache.js';
import { eventFilters, eventsQuery, resolveWorkflows } from './filters.js';
import { STATUS_FILTERS, statusOption } from './status-list.js';

export const command = () =>
  examples(
    eventFilters(new Command('browse').description(about('browse the activity feed full-screen (needs a terminal)', 'listEvents')))
      .addOption(
        statusOption(`show only events of this derived status at first (comma list): ${STATUS_FILTERS.join(', ')}; with --channel, that channel's own outcome`),
      )
      .option('--interval <duration>', 'time between refreshes (default 3s)', durationArg),
    ['svc events browse', 'svc events browse --subscriber ada --since 2h', 'svc events browse --status failed'],
  );

/** The feed's largest page. */
const PAGE = 50;

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const { stdin, stdout } = deps.io;
  if (!stdout.isTTY || !stdin.isTTY) {
    throw new UsageError('events browse needs a terminal (stdin and stdout a TTY); in scripts use svc events list or svc events watch');
  }
  const query = await resolveWorkflows(deps, eventsQuery(opts, deps.now()));
  const api = await deps.client();
  // svc dev filters by derived status in its store: `status:` is then asked of it, over the whole feed.
  const { hasExtension } = await import('../../api/local-service.js');
  const statusByService = await hasExtension(api, 'listEvents.svcStatus', { dryRun: deps.globals.dryRun });
  const { runBrowse } = await import('../../tui/app.js');
  type Ev = import('../../tui/model.js').BrowseEvent;
  const out = deps.output();
  // What reaches the screen: secrets masked (unless --show-secrets), control characters made visible.
  const shown = <T>(v: T): T => safeDeep(mask(out, v) as T);
  // Workflow identifiers typed after / are looked up once each (the feed filters by the workflow's id).
  const workflowIds = new Map<string, string[]>();
  const templatesFor = async (workflow: string): Promise<string[]> => {
    let ids = workflowIds.get(workflow);
    if (!ids) {
      const q = await resolveWorkflows(deps, { templates: [workflow] });
      ids = (q.templates as string[] | undefined) ?? [];
      if (ids.length === 0) throw new Error(`no workflow ${workflow}`);
      workflowIds.set(workflow, ids);
    }
    return ids;
  };
  // Each loaded event's payload as the service sent it, for a re-trigger.
  const payloads = new Map<string, Ev['payload']>();
  const remembered = browsedIds(deps);
  // A single --subscriber or --workflow is the browser's own filter (shown, changed with /, cleared
  // with Esc); every other flag stays in the query for the session and is named in the header.
  const initial = {
    ...(opts.subscriber?.length === 1 ? { subscriber: opts.subscriber[0]! } : {}),
    ...(opts.workflow?.length === 1 ? { workflow: opts.workflow[0]! } : {}),
  };
  const scope = fixedScope(opts);
  try {
    await runBrowse(
      {
        async page(filter, page) {
          const q = { ...query };
          if (filter.subscriber) q.subscriberIds = [filter.subscriber];
          else if (initial.subscriber) delete q.subscriberIds;
          if (filter.workflow) q.templates = await templatesFor(filter.workflow);
          else if (initial.workflow) delete q.templates;
          if (filter.status?.length) q.svcStatus = filter.status;
          const res = await api.call<{ data: Ev[]; hasMore?: boolean }>('listEvents', { query: { ...q, page, limit: PAGE } });
          const data = res?.data.data ?? [];
          for (const e of data) if (e._id) payloads.set(e._id, e.payload);
          remembered.loaded(data.flatMap((e) => (e._id ? [e._id] : [])));
          return { data: shown(data), hasMore: res?.data.hasMore === true };
        },
        async get(id) {
          const res = await api.call<Ev>('getEvent', { params: { notificationId: id } });
          return shown(res?.data ?? {});
        },
        async retrigger(e) {
          const name = e.template?.triggers?.[0]?.identifier;
          const to = e.subscriber?.subscriberId;
          if (!name || !to) throw new Error('this event has no workflow identifier or subscriber id to trigger again');
          // The payload as the service holds it, not as shown (a masked value would be sent masked).
          const payload = (e._id ? payloads.get(e._id) : undefined) ?? {};
          const res = await api.call<{ transactionId?: string; status?: string }>('triggerEvent', { body: { name, to, payload } });
          if (res?.data.status && res.data.status !== 'processed') throw new Error(`not processed: ${res.data.status}`);
          return res?.data.transactionId ?? '?';
        },
        shown(ids) {
          remembered.shown(ids);
        },
      },
      {
        // A single --subscriber is the filter / shows and Esc clears; several stay in the query.
        filter: { ...(opts.status?.length ? { status: opts.status.join(',') } : {}), ...initial },
        statusByService,
        judgeScope: { channels: opts.channel },
        time: { utc: deps.globals.utc === true },
        refreshMs: opts.interval ?? 3000,
        ...(scope ? { scope: safeText(scope) } : {}),
        stdin: stdin as NodeJS.ReadStream,
        stdout: stdout as NodeJS.WriteStream,
      },
    );
  } finally {
    await remembered.flush();
  }
}

/**
 * The ids `events get SHORT` resolves later: those the screen showed first (most recent first), then
 * those loaded; one list of at most 200 that replaces its own earlier form, written at most once a
 * quarter second while the person scrolls, and once more at the end.
 */
function browsedIds(deps: Deps) {
  let browsed: string[] = [];
  const browseKey = `browse:${process.pid}:${Date.now()}`;
  let saveTimer: NodeJS.Timeout | undefined;
  const save = () => {
    saveTimer = undefined;
    return rememberBrowsed(deps, browsed, browseKey);
  };
  const keep = (first: readonly string[], then: readonly string[]) => {
    const next = [...new Set([...first, ...then])].slice(0, 200);
    if (next.length === browsed.length && next.every((x, i) => x === browsed[i])) return;
    browsed = next;
    saveTimer ??= setTimeout(() => void save(), 250);
  };
  return {
    loaded: (ids: readonly string[]) => keep(browsed, ids),
    shown: (ids: readonly string[]) => keep(ids, browsed),
    // What the screen showed last is remembered even when the browser ends at once after it.
    async flush() {
      if (!saveTimer) return;
      clearTimeout(saveTimer);
      await save();
    },
  };
}

/** The flags that stay in the query for the session (all but a single --subscriber or --workflow), for the header. */
function fixedScope(opts: OptsOf<typeof command>): string {
  const fixed: [string, string[] | string | undefined][] = [
    ['--subscriber', opts.subscriber && opts.subscriber.length > 1 ? opts.subscriber : undefined],
    ['--workflow', opts.workflow && opts.workflow.length > 1 ? opts.workflow : undefined],
    ['--channel', opts.channel],
    ['--email', opts.email],
    ['--severity', opts.severity],
    ['--transaction-id', opts.transactionId],
    ['--topic-key', opts.topicKey],
    ['--subscription-id', opts.subscriptionId],
    ['--context', opts.context],
    ['--since', opts.since],
    ['--until', opts.until],
  ];
  return fixed.flatMap(([flag, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => `${flag} ${x}`))).join(' ');
}

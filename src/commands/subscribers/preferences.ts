// svc subscribers preferences SUBSCRIBER_ID [--workflow W] [--set CHANNEL=on|off ...]
//   → GET /v2/subscribers/{subscriberId}/preferences (one workflow's with --workflow), or PATCH it with the switches given.
import { EXIT, SvcError, UsageError } from '../../core/errors.js';
import { checkId, quote } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { collect } from '../../cli-args.js';
import { INBOX_CHANNELS } from '../../api/inbox-values.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

const ON = new Set(['on', 'true', 'yes', '1']);
const OFF = new Set(['off', 'false', 'no', '0']);

export const command = () =>
  examples(
    new Command('preferences')
      .description(about("show or change a subscriber's channel preferences", 'getSubscriberPreferences'))
      .argument('<subscriberId>', 'subscriber id')
      .option('--workflow <workflowId>', 'the workflow to show, or that --set changes (global preferences without it)')
      .option('--set <channel=on|off>', `switch a channel: ${INBOX_CHANNELS.join(', ')} (repeatable)`, collect),
    [
      'svc subscribers preferences ada',
      'svc subscribers preferences ada --set email=off   # every workflow',
      'svc subscribers preferences ada --workflow welcome --set in_app=off --set email=on',
      'svc subscribers preferences ada --workflow welcome   # that workflow only',
    ],
  );

/** `--set email=off` → {email: false}; anything else is a usage error naming the value. */
export function parseSwitches(pairs: string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const channel = at < 0 ? pair : pair.slice(0, at);
    const value = at < 0 ? '' : pair.slice(at + 1).toLowerCase();
    if (!(INBOX_CHANNELS as readonly string[]).includes(channel)) {
      throw new UsageError(`--set: unknown channel ${quote(channel)}: use one of ${INBOX_CHANNELS.join(', ')}`);
    }
    if (!ON.has(value) && !OFF.has(value)) throw new UsageError(`--set ${channel}: give on or off (got ${quote(value)})`);
    out[channel] = ON.has(value);
  }
  return out;
}

type View = {
  global: { channels: Record<string, boolean> };
  workflows: { enabled: boolean; channels: Record<string, boolean>; workflow: { identifier: string; name: string; critical?: boolean } }[];
};

/** One row per workflow (and the global one), a column per channel: on, off, or - where it has no step. */
function rows(v: View): Record<string, string>[] {
  const cell = (c: Record<string, boolean>, k: string) => (c[k] === undefined ? '-' : c[k] ? 'on' : 'off');
  const row = (name: string, c: Record<string, boolean>, note = '') => ({
    WORKFLOW: name,
    ...Object.fromEntries(INBOX_CHANNELS.map((k) => [k.toUpperCase(), cell(c, k)])),
    NOTE: note,
  });
  return [row('(global)', v.global.channels), ...v.workflows.map((w) => row(w.workflow.identifier, w.channels, w.workflow.critical ? 'critical' : ''))];
}

function onlyWorkflow(v: View, workflow: string, subscriberId: string): View {
  const match = v.workflows.filter((w) =>
    [w.workflow.identifier, (w.workflow as { slug?: string }).slug, (w.workflow as { id?: string }).id].includes(workflow),
  );
  if (match.length === 0) {
    const known = v.workflows.map((w) => w.workflow.identifier).join(', ') || '(none)';
    throw new SvcError(`no workflow ${workflow} among the preferences of ${subscriberId}; its workflows: ${known}`, 'not_found', EXIT.notFound);
  }
  return { ...v, workflows: match };
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  const channels = parseSwitches(opts.set ?? []);
  if (opts.workflow !== undefined) checkId('--workflow', opts.workflow);
  const client = await deps.client();
  const res =
    Object.keys(channels).length === 0
      ? await client.call('getSubscriberPreferences', { params: { subscriberId } })
      : await client.call('patchSubscriberPreferences', {
          params: { subscriberId },
          body: { channels, ...(opts.workflow !== undefined && { workflowId: opts.workflow }) },
        });
  if (!res) return;
  // --workflow without --set shows that workflow's preferences (and the global ones), in the same shape.
  if (opts.workflow !== undefined && Object.keys(channels).length === 0)
    res.data = onlyWorkflow(res.data as unknown as View, opts.workflow, subscriberId) as never;
  if (deps.format() === 'table' && !deps.globals.fields && !deps.globals.query) return deps.print(rows(res.data as unknown as View));
  await deps.print(res.data);
}

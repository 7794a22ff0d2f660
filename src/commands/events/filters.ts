// The activity feed's filters, shared by `events list` and `events watch`: their flags and the query
// they make.
import type * as Typed from '@commander-js/extra-typings';
import { CHANNELS, OBJECT_ID_RE, SEVERITIES } from '../../api/enum-values.js';
import type { QueryInput } from '../../api/request.js';
import { collect } from '../../cli-args.js';
import { parseTime } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { choicesOption, type Command } from '../define.js';
import { contextKeys } from '../shared.js';

export function eventFilters<A extends unknown[], O extends Typed.OptionValues>(cmd: Command<A, O>) {
  return cmd
    .addOption(choicesOption('--channel <channel>', `channel (repeatable): ${CHANNELS.join(', ')}`, CHANNELS))
    .option('--workflow <id>', 'workflow identifier or id (repeatable)', collect)
    .option('--email <email>', 'subscriber email (repeatable)', collect)
    .option('--subscriber <id>', 'subscriber id (repeatable)', collect)
    .addOption(choicesOption('--severity <level>', `severity (repeatable): ${SEVERITIES.join(', ')}`, SEVERITIES))
    .option('--transaction-id <id>', 'transaction id')
    .option('--topic-key <key>', 'topic key')
    .option('--subscription-id <id>', 'topic subscription id')
    .option('--context <type:id>', 'context key TYPE:ID (repeatable; exact set match)', collect)
    .option('--since <time>', 'events after this time: ISO 8601 or an age such as 90s, 15m, 2h, 7d')
    .option('--until <time>', 'events before this time: ISO 8601 or an age');
}

export interface EventFilterOptions {
  channel?: string[];
  workflow?: string[];
  email?: string[];
  subscriber?: string[];
  severity?: string[];
  transactionId?: string;
  topicKey?: string;
  subscriptionId?: string;
  context?: string[];
  since?: string;
  until?: string;
}

function time(flag: string, value: string | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  const t = parseTime(value, now);
  if (t === undefined) throw new UsageError(`${flag}: expected an ISO 8601 time (2026-11-22T10:00:00Z) or an age such as 90s, 15m, 2h, 7d`);
  return t;
}

/** The feed's query from the filter flags. */
export function eventsQuery(opts: EventFilterOptions, now: number): QueryInput {
  const ids = (flag: string, v: string[] | undefined) => v?.map((x) => checkId(flag, x));
  const after = time('--since', opts.since, now);
  const before = time('--until', opts.until, now);
  if (after && before && after > before) throw new UsageError('--since must be earlier than --until');
  return {
    channels: opts.channel,
    templates: ids('--workflow', opts.workflow),
    emails: ids('--email', opts.email),
    subscriberIds: ids('--subscriber', opts.subscriber),
    severity: opts.severity,
    transactionId: opts.transactionId !== undefined ? checkId('--transaction-id', opts.transactionId) : undefined,
    topicKey: opts.topicKey !== undefined ? checkId('--topic-key', opts.topicKey) : undefined,
    subscriptionId: opts.subscriptionId !== undefined ? checkId('--subscription-id', opts.subscriptionId) : undefined,
    contextKeys: contextKeys('--context', opts.context),
    after,
    before,
  };
}

/**
 * The feed filters by workflow database id; people know their workflows by identifier. Identifiers
 * are looked up (GET /v2/workflows/{id}) so that `--workflow welcome` works; ids pass through.
 */
export async function resolveWorkflows(deps: Deps, query: QueryInput): Promise<QueryInput> {
  const given = query.templates as string[] | undefined;
  if (!given?.length || given.every((t) => OBJECT_ID_RE.test(t)) || deps.globals.dryRun) return query;
  const api = await deps.client();
  const ids: string[] = [];
  for (const t of given) {
    if (OBJECT_ID_RE.test(t)) ids.push(t);
    else {
      const res = await api.call<{ _id: string }>('getWorkflow', { params: { workflowId: t } });
      if (res?.data?._id) ids.push(res.data._id);
    }
  }
  return { ...query, templates: ids };
}

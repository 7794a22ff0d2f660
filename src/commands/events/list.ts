// svc events list [filters] → GET /v1/notifications
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { parseTime } from '../../core/duration.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { EVENTS_MAX_LIMIT } from '../../api/schemas/requests.js';
import type { QueryInput } from '../../api/request.js';
import { contextKeys, runList } from '../shared.js';

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

/** The feed's query from the filter flags; shared with `events watch`. */
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

const OBJECT_ID_RE = /^[0-9a-fA-F]{24}$/;

/**
 * The feed filters by workflow database id; people know their workflows by identifier. Identifiers
 * are looked up (GET /v2/workflows/{id}) so that `--workflow welcome` works; ids pass through.
 */
export async function resolveWorkflows(deps: Deps, query: QueryInput): Promise<QueryInput> {
  const given = query.templates as string[] | undefined;
  if (!given?.length || given.every((t) => OBJECT_ID_RE.test(t)) || deps.globals.dryRun) return query;
  const { call } = await import('../../api/call.js');
  const ids: string[] = [];
  for (const t of given) {
    if (OBJECT_ID_RE.test(t)) ids.push(t);
    else {
      const res = await call<{ _id: string }>(deps, operations.getWorkflow, { params: { workflowId: t } });
      if (res?.data?._id) ids.push(res.data._id);
    }
  }
  return { ...query, templates: ids };
}

export async function run(deps: Deps, opts: EventFilterOptions & { page?: number; limit?: number; all?: boolean }): Promise<void> {
  const query = await resolveWorkflows(deps, { ...eventsQuery(opts, deps.now()), page: opts.page, limit: opts.limit });
  await runList(deps, operations.listEvents, query, { view: 'events', mode: 'page', all: opts.all, allLimit: EVENTS_MAX_LIMIT });
}

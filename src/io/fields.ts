// `--fields` names what to print; a name the resource does not have is a mistake to say at once (exit 2,
// naming it and the fields there are), not a list of empty records. A field is known when the
// resource's schema declares it (the service leaves optional ones out of its answers) or a printed
// record has it; svc's own `derived` field is known for events. The first segment of a dot path is
// checked: deeper ones may name an optional member no record printed has.
import { UsageError } from '../core/errors.js';
import { DERIVED_FIELD, EVENT_VIEWS } from './derived.js';
import type { ViewName } from './views.js';

/**
 * The top-level fields of each resource as its schema in src/api/schemas declares them (a test keeps
 * the two equal; the output layer does not load the API's schemas).
 */
export const SCHEMA_FIELDS: Partial<Record<ViewName, readonly string[]>> = {
  events: [
    '_id',
    '_environmentId',
    '_organizationId',
    '_subscriberId',
    'transactionId',
    '_templateId',
    '_digestedNotificationId',
    'createdAt',
    'updatedAt',
    'channels',
    'subscriber',
    'template',
    'jobs',
    'payload',
    'tags',
    'controls',
    'to',
    'topics',
    'severity',
    'critical',
    'contextKeys',
  ],
  subscribers: [
    '_id',
    'firstName',
    'lastName',
    'email',
    'phone',
    'avatar',
    'locale',
    'channels',
    'topics',
    'isOnline',
    'lastOnlineAt',
    '__v',
    'data',
    'timezone',
    'subscriberId',
    '_organizationId',
    '_environmentId',
    'deleted',
    'createdAt',
    'updatedAt',
  ],
  integrations: [
    '_id',
    '_environmentId',
    '_organizationId',
    'name',
    'identifier',
    'providerId',
    'channel',
    'kind',
    'credentials',
    'configurations',
    'active',
    'deleted',
    'deletedAt',
    'deletedBy',
    'primary',
    'conditions',
  ],
  endpoints: [
    'identifier',
    'channel',
    'providerId',
    'integrationIdentifier',
    'connectionIdentifier',
    'subscriberId',
    'contextKeys',
    'type',
    'endpoint',
    'createdAt',
    'updatedAt',
  ],
  connections: ['identifier', 'channel', 'providerId', 'integrationIdentifier', 'subscriberId', 'contextKeys', 'workspace', 'auth', 'createdAt', 'updatedAt'],
  messages: [
    '_id',
    '_templateId',
    '_environmentId',
    '_messageTemplateId',
    '_organizationId',
    '_notificationId',
    '_subscriberId',
    'subscriber',
    'template',
    'templateIdentifier',
    'createdAt',
    'deliveredAt',
    'lastSeenDate',
    'lastReadDate',
    'content',
    'transactionId',
    'subject',
    'channel',
    'read',
    'seen',
    'snoozedUntil',
    'email',
    'phone',
    'directWebhookUrl',
    'providerId',
    'deviceTokens',
    'title',
    'cta',
    '_feedId',
    'status',
    'errorId',
    'errorText',
    'payload',
    'overrides',
    'contextKeys',
  ],
  contexts: ['type', 'id', 'data', 'createdAt', 'updatedAt'],
  trigger: ['acknowledged', 'status', 'error', 'transactionId', 'activityFeedLink', 'jobData'],
  workflow: [
    'name',
    'description',
    'tags',
    'active',
    'validatePayload',
    'payloadSchema',
    'isTranslationEnabled',
    '_id',
    'workflowId',
    'slug',
    'updatedAt',
    'createdAt',
    'updatedBy',
    'lastPublishedAt',
    'lastPublishedBy',
    'steps',
    'origin',
    'preferences',
    'status',
    'issues',
    'lastTriggeredAt',
    'payloadExample',
    'severity',
  ],
  workflows: [
    'name',
    'tags',
    'updatedAt',
    'createdAt',
    'updatedBy',
    'lastPublishedAt',
    'lastPublishedBy',
    '_id',
    'workflowId',
    'slug',
    'status',
    'origin',
    'lastTriggeredAt',
    'stepTypeOverviews',
    'isTranslationEnabled',
    'steps',
  ],
  preview: ['previewPayloadExample', 'schema', 'svcSignature', 'result'],
  topics: ['_id', 'key', 'name', 'createdAt', 'updatedAt'],
  subscriptions: ['_id', 'topic', 'subscriber', 'createdAt', 'updatedAt'],
};

/** The fields of svc's own reports, which no schema of the service declares. */
const OWN_FIELDS: Partial<Record<ViewName, readonly string[]>> = {
  wait: ['trigger', 'transactionId', 'outcome', 'waitedMs', 'recipients'],
};

/** The single-record views that show the same resource as a list view. */
const SAME_AS: Partial<Record<ViewName, ViewName>> = { event: 'events' };

const PLURAL: Partial<Record<ViewName, string>> = {
  event: 'events',
  workflow: 'workflows',
  trigger: 'trigger results',
  preview: 'previews',
  wait: 'wait reports',
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The resource records of no named layout are (`subscribers get` prints a subscriber as a plain
 * record): the schema that holds nearly all of their fields, and at least three of them.
 */
function resourceOf(records: readonly unknown[]): ViewName | undefined {
  const keys = new Set(records.filter(isRecord).flatMap((r) => Object.keys(r)));
  if (keys.size < 3) return undefined;
  let best: { view: ViewName; score: number; size: number } | undefined;
  for (const [view, fields] of Object.entries(SCHEMA_FIELDS) as [ViewName, readonly string[]][]) {
    const shared = [...keys].filter((k) => fields.includes(k)).length;
    const score = shared / keys.size;
    if (shared < 3 || score < 0.8) continue;
    if (!best || score > best.score || (score === best.score && fields.length < best.size)) best = { view, score, size: fields.length };
  }
  return best?.view;
}

/** The fields known for these records of `view`: the schema's, svc's own, and those the records have. */
function knownFields(records: readonly unknown[], view: ViewName | undefined): Set<string> {
  const known = new Set<string>(view ? (SCHEMA_FIELDS[view] ?? SCHEMA_FIELDS[SAME_AS[view]!] ?? OWN_FIELDS[view] ?? []) : []);
  if (view && EVENT_VIEWS.has(view)) known.add(DERIVED_FIELD);
  for (const r of records) if (isRecord(r)) for (const k of Object.keys(r)) known.add(k);
  return known;
}

/**
 * Refuses a --fields name the resource does not have (exit 2), naming it and the known fields. Nothing
 * to judge by (no schema, and no record printed) lets every name pass: an empty list prints nothing.
 * `envelope`: the names of a list envelope's own members, which --fields may select too.
 */
export function checkFields(
  fields: readonly string[] | undefined,
  records: readonly unknown[],
  view: ViewName | undefined,
  envelope: readonly string[] = [],
): void {
  if (!fields?.length) return;
  // A plain record (no layout named): judged as the resource its fields say it is; one that is no
  // resource (a --dry-run request, an answer of `svc api`) is not judged.
  if (!view || view === 'record') {
    view = resourceOf(records);
    if (!view) return;
  }
  const known = knownFields(records, view);
  if (known.size === 0) return;
  for (const e of envelope) known.add(e);
  const unknown = fields.filter((f) => !known.has(f.split('.')[0]!));
  if (unknown.length === 0) return;
  const what = view ? (PLURAL[view] ?? view) : 'these records';
  const names = unknown.map((f) => `'${f}'`).join(', ');
  throw new UsageError(`--fields: ${what} have no field ${names}; known fields: ${[...known].filter((k) => !envelope.includes(k)).join(', ')}`);
}

/** What a command prints that is no resource of a schema: its own fields, and what to call it. */
interface OwnRecord {
  what: string;
  fields: readonly string[];
}

type Printed = ViewName | OwnRecord | undefined;

/**
 * What each command prints, by command path, where that is known before anything is sent: its --fields
 * are judged by those fields first, so that a mistyped name creates or triggers nothing. Commands that
 * change something are here; so are those whose answer is no resource the printed record would be
 * recognised by (a topic with its subscribers, the preferences, the settings in use). A trigger with
 * --wait prints the wait report; one from a recipients file prints the run's summary, judged when
 * printed. Every other command's --fields are judged when its answer is printed.
 */
const PRINTED_BY: Record<string, Printed | ((opts: Record<string, unknown>, format: string) => Printed)> = {
  trigger: (opts) => (opts.recipientsFile !== undefined ? undefined : opts.wait ? 'wait' : 'trigger'),
  'subscribers create': 'subscribers',
  'subscribers update': 'subscribers',
  'subscribers online': 'subscribers',
  'subscribers preferences': { what: 'subscriber preferences', fields: ['global', 'workflows'] },
  'topics create': 'topics',
  'topics get': (opts) => (opts.subscribers === false ? 'topics' : { what: 'topics', fields: [...SCHEMA_FIELDS.topics!, 'subscribers', 'subscriberCount'] }),
  // At a terminal the subscriptions made or removed are shown; elsewhere the whole answer.
  'topics add': (_, format) => (format === 'table' ? 'subscriptions' : { what: 'topic subscription changes', fields: ['data', 'meta', 'errors'] }),
  'topics remove': (_, format) => (format === 'table' ? 'subscriptions' : { what: 'topic subscription changes', fields: ['data', 'meta', 'errors'] }),
  'workflow create': 'workflow',
  'workflow update': 'workflow',
  'workflow activate': 'workflow',
  'workflow deactivate': 'workflow',
  'workflow sync': 'workflows',
  'workflow preview': 'preview',
  'integrations create': 'integrations',
  'integrations update': 'integrations',
  'integrations primary': 'integrations',
  'integrations delete': 'integrations',
  'connections create': 'connections',
  'connections update': 'connections',
  'endpoints create': 'endpoints',
  'contexts create': 'contexts',
  'messages mark-as': 'messages',
  'profile show': { what: 'profile settings', fields: ['profile', 'baseUrl', 'apiKey', 'readOnly', 'configFile', 'applicationIdentifier'] },
};

/**
 * Refuses, before anything is sent, a --fields name what the command prints does not have (exit 2,
 * naming it and the known fields). Under --dry-run the request itself is printed, and judged then.
 */
export function checkFieldsBeforeSending(
  fields: readonly string[] | undefined,
  commandPath: string,
  opts: Record<string, unknown>,
  { dryRun = false, format = 'json' }: { dryRun?: boolean; format?: string } = {},
): void {
  if (!fields?.length || dryRun) return;
  const entry = PRINTED_BY[commandPath];
  const printed = typeof entry === 'function' ? entry(opts, format) : entry;
  if (printed === undefined) return;
  if (typeof printed === 'string') return checkFields(fields, [], printed);
  const unknown = fields.filter((f) => !printed.fields.includes(f.split('.')[0]!));
  if (unknown.length === 0) return;
  throw new UsageError(`--fields: ${printed.what} have no field ${unknown.map((f) => `'${f}'`).join(', ')}; known fields: ${printed.fields.join(', ')}`);
}

// Table layouts: which columns a list of each kind of record shows, and how each gives way when the
// terminal is narrow (io/fit.ts): ids shortened or kept whole, columns dropped in order, text cut, the
// reason taking what is left. Data only; table.ts renders them.
import { type Derived, derivedOf } from './derived.js';
import { getPath } from './paths.js';
import { channelsOf } from './timeline.js';

export type ViewName =
  | 'events'
  | 'event'
  | 'subscribers'
  | 'integrations'
  | 'all-integrations'
  | 'endpoints'
  | 'connections'
  | 'messages'
  | 'message'
  | 'contexts'
  | 'trigger'
  | 'triggers'
  | 'wait'
  | 'workflow'
  | 'workflows'
  | 'preview'
  | 'profiles'
  | 'settings'
  | 'record'
  | 'topics'
  | 'subscriptions'
  | 'environments'
  | 'layouts';

export interface Column {
  header: string;
  /** A dot path of the record, or a function of it. */
  value: string | ((r: Record<string, unknown>) => unknown);
  /** The value is a status word and is coloured. */
  status?: boolean;
  /** The value is a time and is shown shorter. */
  time?: boolean;
  /** Never shortened: ids are copied into the next command. */
  full?: boolean;
  /** `id`: shortened git-style when the terminal is narrow (the command that takes it accepts a prefix). */
  kind?: 'id' | 'key' | 'status' | 'text';
  /** Dropped when the table does not fit, the lowest first (never when absent). */
  dropOrder?: number;
  /** Takes the width that is left (the failure reason). */
  flex?: boolean;
  /** The narrowest a text column is cut to. */
  min?: number;
  /** When the table does not fit, a text column is cut to this before any column is dropped. */
  max?: number;
  /** A flexible column: columns with a drop order up to this are left out rather than it cut. */
  dropFor?: number;
  /** A flexible column: columns with a drop order up to `readableFor` are left out rather than it narrower than this. */
  readable?: number;
  readableFor?: number;
}

const joinList = (v: unknown) => (Array.isArray(v) ? v.join(', ') : v);

/** An event's derived status as the output path added it (io/derived.ts), or judged here. */
const derived = (r: Record<string, unknown>): Derived | undefined => (r.derived as Derived | undefined) ?? derivedOf(r);

export const LIST_VIEWS: Partial<Record<ViewName, Column[]>> = {
  events: [
    // `events get` accepts the short id a narrow table shows.
    { header: 'ID', value: '_id', kind: 'id' },
    { header: 'CREATED', value: 'createdAt', time: true, dropOrder: 4 },
    {
      header: 'WORKFLOW',
      value: (r) => getPath(r, 'template.triggers.0.identifier') ?? getPath(r, 'template.name') ?? r._templateId,
      min: 10,
      max: 16,
      // Left out before the reason is cut below what reads (--wide shows it).
      dropOrder: 3,
    },
    // One very long subscriber id is cut before the time of every row is left out.
    { header: 'SUBSCRIBER', value: 'subscriber.subscriberId', min: 8, max: 16 },
    { header: 'CHANNELS', value: (r) => channelsOf(r).join(', '), dropOrder: 2 },
    { header: 'STATUS', value: (r) => derived(r)?.status ?? '-', status: true },
    // The reason matters more than the channels and the transaction id (--wide shows them), and stays
    // readable (40 columns) before the workflow is shown.
    { header: 'REASON', value: (r) => derived(r)?.reason ?? '', flex: true, min: 16, dropFor: 2, readable: 40, readableFor: 3 },
    { header: 'TRANSACTION', value: 'transactionId', full: true, dropOrder: 1 },
  ],
  subscribers: [
    { header: 'SUBSCRIBER ID', value: 'subscriberId', full: true },
    { header: 'NAME', value: (r) => [r.firstName, r.lastName].filter(Boolean).join(' ') },
    { header: 'EMAIL', value: 'email', min: 12 },
    { header: 'PHONE', value: 'phone', dropOrder: 2 },
    { header: 'ONLINE', value: 'isOnline', dropOrder: 1 },
    { header: 'UPDATED', value: 'updatedAt', time: true, dropOrder: 3 },
  ],
  integrations: [
    { header: 'ID', value: '_id', full: true },
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'NAME', value: 'name' },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'PRIMARY', value: 'primary' },
    // The list is of active integrations: the column says little.
    { header: 'ACTIVE', value: 'active', dropOrder: 1 },
  ],
  // Every integration, active or not (`integrations list`): whether it is active comes first; the
  // identifier names it to update and delete, the _id is left out before it is cut.
  'all-integrations': [
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'ACTIVE', value: 'active' },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'PRIMARY', value: 'primary', dropOrder: 2 },
    { header: 'NAME', value: 'name', dropOrder: 1 },
    { header: 'ID', value: '_id', full: true, dropOrder: 3 },
  ],
  endpoints: [
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'TYPE', value: 'type' },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'SUBSCRIBER', value: 'subscriberId' },
    { header: 'ENDPOINT', value: (r) => Object.values((r.endpoint as Record<string, unknown>) ?? {}).join(' '), min: 12 },
    { header: 'CONTEXT', value: (r) => joinList(r.contextKeys), dropOrder: 1 },
  ],
  connections: [
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'INTEGRATION', value: 'integrationIdentifier' },
    { header: 'SUBSCRIBER', value: 'subscriberId' },
    { header: 'WORKSPACE', value: (r) => getPath(r, 'workspace.name') ?? getPath(r, 'workspace.id'), min: 10 },
    { header: 'CONTEXT', value: (r) => joinList(r.contextKeys), dropOrder: 1 },
  ],
  messages: [
    { header: 'ID', value: '_id', full: true },
    { header: 'CREATED', value: 'createdAt', time: true, dropOrder: 2 },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'SUBSCRIBER', value: (r) => getPath(r, 'subscriber.subscriberId') ?? r._subscriberId },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'READ', value: 'read' },
    { header: 'SEEN', value: 'seen', dropOrder: 1 },
    {
      header: 'CONTENT',
      value: (r) => r.subject ?? (typeof r.content === 'string' ? r.content : Array.isArray(r.content) ? '[blocks]' : ''),
      flex: true,
    },
  ],
  workflows: [
    { header: 'WORKFLOW ID', value: 'workflowId', full: true },
    { header: 'NAME', value: 'name' },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'STEPS', value: (r) => joinList(r.stepTypeOverviews) },
    { header: 'ORIGIN', value: 'origin', dropOrder: 1 },
    { header: 'TAGS', value: (r) => joinList(r.tags) },
    { header: 'UPDATED', value: 'updatedAt', time: true },
  ],
  triggers: [
    { header: '#', value: (r) => r.__index },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'TRANSACTION', value: 'transactionId', full: true },
    { header: 'ERROR', value: (r) => joinList(r.error), flex: true },
  ],
  profiles: [
    { header: '', value: (r) => (r.current ? '*' : '') },
    { header: 'NAME', value: 'name' },
    { header: 'BASE URL', value: 'baseUrl' },
    { header: 'API KEY', value: 'apiKey' },
    { header: 'READ-ONLY', value: (r) => (r.readOnly ? 'yes' : '') },
  ],
  topics: [
    { header: 'KEY', value: 'key', full: true },
    { header: 'NAME', value: 'name', min: 10 },
    { header: 'CREATED', value: 'createdAt', time: true, dropOrder: 1 },
    { header: 'UPDATED', value: 'updatedAt', time: true, dropOrder: 2 },
  ],
  // The organisation's environments: the id `environments delete` takes, the application identifier an
  // Inbox names, and the caller's own key (masked by the output path unless --show-secrets).
  environments: [
    { header: 'ID', value: '_id', full: true },
    { header: 'NAME', value: 'name', min: 10 },
    { header: 'APP IDENTIFIER', value: 'identifier', full: true },
    { header: 'KEY', value: 'apiKeys.0.key', dropOrder: 2 },
    { header: 'CREATED', value: 'createdAt', time: true, dropOrder: 1 },
  ],
  // Email layouts: the identifier a step's layoutId names, and which one is the environment's default.
  layouts: [
    { header: 'LAYOUT ID', value: 'layoutId', full: true },
    { header: 'NAME', value: 'name', min: 10 },
    { header: 'DEFAULT', value: (r) => (r.isDefault ? 'yes' : '') },
    { header: 'EDITOR', value: 'controls.values.email.editorType', dropOrder: 2 },
    { header: 'UPDATED', value: 'updatedAt', time: true, dropOrder: 1 },
  ],
  // A topic's subscriptions: who is subscribed, and since when.
  subscriptions: [
    { header: 'SUBSCRIBER ID', value: 'subscriber.subscriberId', full: true },
    { header: 'NAME', value: (r) => [getPath(r, 'subscriber.firstName'), getPath(r, 'subscriber.lastName')].filter(Boolean).join(' ') },
    { header: 'EMAIL', value: 'subscriber.email', min: 12, dropOrder: 2 },
    { header: 'SUBSCRIBED', value: 'createdAt', time: true, dropOrder: 1 },
  ],
};

// Table layouts: which columns a list of each kind of record shows. Data only; table.ts renders them.
import { statusOf } from '../core/activity.js';
import { getPath } from './paths.js';

export type ViewName =
  | 'events' | 'event' | 'subscribers' | 'integrations' | 'endpoints' | 'connections' | 'messages' | 'contexts'
  | 'trigger' | 'triggers' | 'wait' | 'workflow' | 'workflows' | 'preview' | 'profiles' | 'settings' | 'record';

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
}

const joinList = (v: unknown) => (Array.isArray(v) ? v.join(', ') : v);

export const LIST_VIEWS: Partial<Record<ViewName, Column[]>> = {
  events: [
    { header: 'ID', value: '_id', full: true },
    { header: 'CREATED', value: 'createdAt', time: true },
    {
      header: 'WORKFLOW',
      value: (r) => getPath(r, 'template.triggers.0.identifier') ?? getPath(r, 'template.name') ?? r._templateId,
    },
    { header: 'SUBSCRIBER', value: 'subscriber.subscriberId' },
    { header: 'CHANNELS', value: (r) => joinList(r.channels) },
    { header: 'STATUS', value: (r) => statusOf(r.jobs as never), status: true },
    { header: 'TRANSACTION', value: 'transactionId', full: true },
  ],
  subscribers: [
    { header: 'SUBSCRIBER ID', value: 'subscriberId', full: true },
    { header: 'NAME', value: (r) => [r.firstName, r.lastName].filter(Boolean).join(' ') },
    { header: 'EMAIL', value: 'email' },
    { header: 'PHONE', value: 'phone' },
    { header: 'ONLINE', value: 'isOnline' },
    { header: 'UPDATED', value: 'updatedAt', time: true },
  ],
  integrations: [
    { header: 'ID', value: '_id', full: true },
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'NAME', value: 'name' },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'PRIMARY', value: 'primary' },
    { header: 'ACTIVE', value: 'active' },
  ],
  endpoints: [
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'TYPE', value: 'type' },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'SUBSCRIBER', value: 'subscriberId' },
    { header: 'ENDPOINT', value: (r) => Object.values((r.endpoint as Record<string, unknown>) ?? {}).join(' ') },
    { header: 'CONTEXT', value: (r) => joinList(r.contextKeys) },
  ],
  connections: [
    { header: 'IDENTIFIER', value: 'identifier', full: true },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'PROVIDER', value: 'providerId' },
    { header: 'INTEGRATION', value: 'integrationIdentifier' },
    { header: 'SUBSCRIBER', value: 'subscriberId' },
    { header: 'WORKSPACE', value: (r) => getPath(r, 'workspace.name') ?? getPath(r, 'workspace.id') },
    { header: 'CONTEXT', value: (r) => joinList(r.contextKeys) },
  ],
  messages: [
    { header: 'ID', value: '_id', full: true },
    { header: 'CREATED', value: 'createdAt', time: true },
    { header: 'CHANNEL', value: 'channel' },
    { header: 'SUBSCRIBER', value: (r) => getPath(r, 'subscriber.subscriberId') ?? r._subscriberId },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'READ', value: 'read' },
    { header: 'SEEN', value: 'seen' },
    {
      header: 'CONTENT',
      value: (r) => r.subject ?? (typeof r.content === 'string' ? r.content : Array.isArray(r.content) ? '[blocks]' : ''),
    },
  ],
  workflows: [
    { header: 'WORKFLOW ID', value: 'workflowId', full: true },
    { header: 'NAME', value: 'name' },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'STEPS', value: (r) => joinList(r.stepTypeOverviews) },
    { header: 'TAGS', value: (r) => joinList(r.tags) },
    { header: 'UPDATED', value: 'updatedAt', time: true },
  ],
  triggers: [
    { header: '#', value: (r) => r.__index },
    { header: 'STATUS', value: 'status', status: true },
    { header: 'TRANSACTION', value: 'transactionId', full: true },
    { header: 'ERROR', value: (r) => joinList(r.error) },
  ],
  profiles: [
    { header: '', value: (r) => (r.current ? '*' : '') },
    { header: 'NAME', value: 'name' },
    { header: 'BASE URL', value: 'baseUrl' },
    { header: 'API KEY', value: 'apiKey' },
    { header: 'READ-ONLY', value: (r) => (r.readOnly ? 'yes' : '') },
  ],
};

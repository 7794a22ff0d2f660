// Subscriber preferences as the Inbox and the operator API show them, and the subscriber's choice the
// engine asks for before a channel step delivers. A subscriber's workflow-level switch wins over their
// global one; the workflow's own preferences come first (a channel it turns off stays off, read-only
// preferences ignore the subscriber), and a critical workflow always delivers.
import type { InboxPreference } from '../../api/schemas/inbox.js';
import { channelPreference } from '../engine/workflow-preferences.js';
import { CHANNEL_KINDS, type ChannelKind } from '../engine/types.js';
import { HttpError } from '../errors.js';
import type { Environment, Store } from '../store/index.js';
import { type ChannelSwitches, GLOBAL } from '../store/subscriber-preferences.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { definitionOf } from '../workflow/runtime.js';

/** The subscriber's own switch for the channel (workflow level first, then global), if they set one. */
export function subscriberChoice(
  store: Store,
  subscriberDbId: string | undefined,
  workflowDbId: string,
  channel: ChannelKind,
): { enabled: boolean; level: 'global' | 'workflow' } | undefined {
  if (subscriberDbId === undefined) return undefined;
  const own = store.preferences.get(subscriberDbId, workflowDbId)?.channels[channel];
  if (own !== undefined) return { enabled: own, level: 'workflow' };
  const global = store.preferences.get(subscriberDbId, GLOBAL)?.channels[channel];
  return global !== undefined ? { enabled: global, level: 'global' } : undefined;
}

/** The channel kinds the workflow has steps of, in the usual order. */
function channelsOf(w: StoredWorkflow): ChannelKind[] {
  const kinds = new Set<string>(w.steps.map((s) => s.type));
  return CHANNEL_KINDS.filter((c) => kinds.has(c));
}

const workflowOf = (w: StoredWorkflow) => ({
  id: w._id,
  identifier: w.workflowId,
  name: w.name,
  critical: w.critical,
  tags: w.tags,
  severity: w.severity,
});

export function globalPreference(store: Store, subscriberDbId: string): InboxPreference {
  const row = store.preferences.get(subscriberDbId, GLOBAL);
  const channels = Object.fromEntries(CHANNEL_KINDS.map((c) => [c, row?.channels[c] ?? true])) as ChannelSwitches;
  return {
    level: 'global',
    enabled: true,
    channels,
    ...(row?.schedule !== undefined && { schedule: row.schedule as InboxPreference['schedule'] }),
  };
}

/** The workflow's channels as they would be decided for this subscriber now. */
function forWorkflow(store: Store, subscriberDbId: string, w: StoredWorkflow): InboxPreference {
  const definition = definitionOf(w);
  const channels: ChannelSwitches = {};
  for (const c of channelsOf(w)) {
    const choice = w.critical ? undefined : subscriberChoice(store, subscriberDbId, w._id, c);
    channels[c] = channelPreference(definition, c, choice).enabled;
  }
  const values = Object.values(channels);
  return { level: 'template', enabled: values.length === 0 || values.some(Boolean), channels, workflow: workflowOf(w) };
}

export function workflowPreference(store: Store, env: Environment, subscriberDbId: string, workflowDbId: string): InboxPreference {
  const w = store.workflows.findById(workflowDbId);
  if (!w || w._environmentId !== env.id) throw new HttpError(404, `Workflow with id: ${workflowDbId} is not found`);
  return forWorkflow(store, subscriberDbId, w);
}

/** The global preference, then one per active workflow (critical ones only when asked for). */
export function listPreferences(
  store: Store,
  env: Environment,
  subscriberDbId: string,
  opts: { tags?: string[]; criticality?: 'critical' | 'nonCritical' | 'all' } = {},
): InboxPreference[] {
  const criticality = opts.criticality ?? 'nonCritical';
  const workflows = store.workflows
    .all(env.id)
    .filter((w) => w.active)
    .filter((w) => criticality === 'all' || (criticality === 'critical') === w.critical)
    .filter((w) => !opts.tags?.length || w.tags.some((t) => opts.tags!.includes(t)))
    .reverse();
  return [globalPreference(store, subscriberDbId), ...workflows.map((w) => forWorkflow(store, subscriberDbId, w))];
}

/**
 * Sets the subscriber's switches, globally (`workflow` undefined) or for a workflow named by its
 * trigger identifier or id; the workflow's _id (GLOBAL for the global row).
 */
export function setPreference(
  store: Store,
  env: Environment,
  subscriberDbId: string,
  workflow: string | undefined,
  channels: ChannelSwitches,
  schedule?: Record<string, unknown>,
): string {
  const clean = Object.fromEntries(Object.entries(channels).filter(([, v]) => v !== undefined)) as ChannelSwitches;
  if (workflow === undefined) {
    store.preferences.set(subscriberDbId, GLOBAL, clean, schedule);
    return GLOBAL;
  }
  const w = store.workflows.find(env.id, workflow);
  if (!w) throw new HttpError(404, `Workflow with id: ${workflow} is not found`);
  if (w.critical) throw new HttpError(400, `Workflow ${w.workflowId} is critical: its preferences cannot be changed`);
  store.preferences.set(subscriberDbId, w._id, clean);
  return w._id;
}

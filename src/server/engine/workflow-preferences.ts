// Workflow preferences: the defaults every channel gets, and whether a channel step may deliver.
import type { z } from 'zod';
import type { WorkflowPreferences } from '../../api/schemas/workflow.js';
import { CHANNEL_KINDS, type ChannelKind, type WorkflowDefinition } from './types.js';

export type Preferences = z.infer<typeof WorkflowPreferences>;

/** Fills what a partial preferences object leaves out: channels not named follow `all`. */
function completePreferences(partial: Partial<Preferences> | null | undefined, critical = false): Preferences {
  const all = { enabled: partial?.all?.enabled ?? true, readOnly: partial?.all?.readOnly ?? false };
  // A critical workflow is delivered whatever the subscriber prefers, so its preferences are read-only.
  if (critical) all.readOnly = true;
  const channels: Preferences['channels'] = {};
  for (const channel of CHANNEL_KINDS) channels[channel] = { enabled: partial?.channels?.[channel]?.enabled ?? all.enabled };
  for (const [channel, value] of Object.entries(partial?.channels ?? {})) channels[channel] ??= { enabled: value.enabled ?? all.enabled };
  return { all, channels };
}

/** The workflow response's `preferences`: `user` as given (or null), `default` completed. */
export function workflowPreferences(workflow: WorkflowDefinition): { user: Preferences | null; default: Preferences } {
  const user = workflow.preferences?.user ? completePreferences(workflow.preferences.user, workflow.critical) : null;
  return { user, default: completePreferences(workflow.preferences?.workflow, workflow.critical) };
}

/** `by`: whose preference turned the channel off (the workflow's, or the subscriber's own). */
type ChannelDecision = { enabled: boolean; reason: string; by?: 'workflow' | 'subscriber' };

/**
 * Whether a channel step delivers for a subscriber. A critical workflow always delivers (the service
 * skips the preference check for critical workflows). Otherwise the workflow's preferences decide
 * first (`user` when set, else `default`); a subscriber's own choice for the channel applies unless
 * the preferences are read-only.
 */
export function channelPreference(
  workflow: WorkflowDefinition,
  channel: ChannelKind,
  subscriberChoice?: { enabled?: boolean; level?: 'global' | 'workflow' } | null,
): ChannelDecision {
  if (workflow.critical) return { enabled: true, reason: 'the workflow is critical' };
  const prefs = workflowPreferences(workflow);
  const effective = prefs.user ?? prefs.default;
  const workflowEnabled = effective.channels[channel]?.enabled ?? effective.all.enabled;
  if (!workflowEnabled) return { enabled: false, reason: `the ${channel} channel is turned off in the workflow's preferences`, by: 'workflow' };
  if (effective.all.readOnly) return { enabled: true, reason: "the workflow's preferences are read-only" };
  if (subscriberChoice && subscriberChoice.enabled === false) {
    const where = subscriberChoice.level === 'global' ? 'in their global preferences' : 'for this workflow';
    return { enabled: false, reason: `the subscriber turned the ${channel} channel off ${where}`, by: 'subscriber' };
  }
  return { enabled: true, reason: 'enabled' };
}

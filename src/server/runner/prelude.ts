// What every step of the engine checks before doing its own work, in the service's order: the `skip`
// condition, the step filters, the workflow's channel preferences (channel steps), and the step's
// control issues. Each outcome is a StepResult with an execution detail that names the reason.
import { channelPreference, describeIssues, hasIssues, matchesFilters, shouldSkip, type ChannelKind } from '../engine/index.js';
import { subscriberChoice } from '../inbox/preferences.js';
import { filtersText, jsonText } from './describe.js';
import type { StepContext, StepResult } from './types.js';

/** Undefined when the step goes ahead; memoized per job attempt, so its details are added once. */
export function prelude(ctx: StepContext, channel?: ChannelKind): StepResult | undefined {
  return ctx.memo('prelude', () => check(ctx, channel));
}

function check(ctx: StepContext, channel: ChannelKind | undefined): StepResult | undefined {
  const { step } = ctx;
  const scope = ctx.scope();
  const skip = shouldSkip(step.controls.skip, scope);
  if (skip.error) return { status: 'failed', error: `Skip condition of step '${step.stepId}': ${skip.error}`, source: 'Payload', raw: skip.raw };
  if (skip.skip) {
    ctx.detail({ status: 'Success', detail: `Step skipped: its skip condition holds: ${jsonText(step.controls.skip)}`, source: 'Payload' });
    return { status: 'skipped' };
  }
  if (step.filters.length > 0 && !matchesFilters(step.filters, { subscriber: scope.subscriber, payload: scope.payload })) {
    ctx.detail({
      status: 'Success',
      detail: `Step filtered: the step's filters do not match this subscriber and payload: ${filtersText(step.filters)}`,
      source: 'Payload',
    });
    return { status: 'skipped' };
  }
  if (channel) {
    const choice = ctx.workflow.critical ? undefined : subscriberChoice(ctx.store, ctx.subscriber._id, ctx.workflow._id, channel);
    const preference = channelPreference(ctx.runtime.definition, channel, choice);
    if (!preference.enabled) {
      const whose = preference.by === 'subscriber' ? 'subscriber preferences' : 'preferences';
      ctx.detail({ status: 'Warning', detail: `Step filtered by ${whose}: ${preference.reason}`, source: 'Internal' });
      return { status: 'skipped' };
    }
  }
  if (hasIssues(step.issues)) {
    return {
      status: 'failed',
      error: `Step '${step.stepId}' has issues (svc workflow get shows them): ${describeIssues(step.issues).join('; ')}`,
    };
  }
  return undefined;
}

// What every step of the engine checks before doing its own work, in the service's order: the
// subscriber's delivery schedule (channel steps but in-app, as the service's job runner checks it
// first), the `skip` condition, the step filters, the workflow's channel preferences (channel steps),
// and the step's control issues. Each outcome is a StepResult with an execution detail that names the
// reason. A code-first step is checked the same way before its app is called (runner/bridge-step.ts).
import {
  channelPreference,
  describeIssues,
  hasIssues,
  matchesFilters,
  shouldSkip,
  wallClockText,
  withinSchedule,
  type ChannelKind,
  type DeliverySchedule,
} from '../engine/index.js';
import { subscriberChoice } from '../inbox/preference-views.js';
import { GLOBAL } from '../store/subscriber-preferences.js';
import { filtersText, jsonText } from './describe.js';
import type { StepContext, StepResult } from './types.js';

/** Undefined when the step goes ahead; memoized per job attempt, so its details are added once. */
export function prelude(ctx: StepContext, channel?: ChannelKind): StepResult | undefined {
  return ctx.memo('prelude', () => check(ctx, channel));
}

/** The subscriber's delivery schedule (their global preference's), when they have an enabled one. */
export function deliverySchedule(ctx: StepContext): DeliverySchedule | undefined {
  return ctx.memo('schedule', () => {
    if (ctx.workflow.critical || ctx.subscriber._id === undefined) return undefined;
    const schedule = ctx.store.preferences.get(ctx.subscriber._id, GLOBAL)?.schedule as DeliverySchedule | undefined;
    return schedule?.isEnabled ? schedule : undefined;
  });
}

const timezoneOf = (ctx: StepContext) => (typeof ctx.subscriber.timezone === 'string' ? ctx.subscriber.timezone : null);

/** Outside the schedule now: the words that say so (`Saturday 10:12 in Europe/Paris`), else undefined. */
export function outsideSchedule(ctx: StepContext): string | undefined {
  const schedule = deliverySchedule(ctx);
  const now = ctx.clock.now();
  if (!schedule || withinSchedule(schedule, now, timezoneOf(ctx))) return undefined;
  return wallClockText(now, timezoneOf(ctx));
}

function check(ctx: StepContext, channel: ChannelKind | undefined): StepResult | undefined {
  const { step } = ctx;
  // In-app messages wait in the Inbox and are always delivered; a critical workflow ignores schedules.
  if (channel !== undefined && channel !== 'in_app') {
    const when = outsideSchedule(ctx);
    if (when !== undefined) {
      ctx.detail({
        status: 'Success',
        detail: `Step skipped: outside the subscriber's delivery schedule (it is ${when})`,
        source: 'Internal',
        raw: JSON.stringify({ schedule: deliverySchedule(ctx), timezone: timezoneOf(ctx) }),
      });
      return { status: 'skipped' };
    }
  }
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

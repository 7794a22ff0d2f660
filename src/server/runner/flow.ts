// Flow-control steps through the workflow engine. Their timing is persisted in the jobs table and
// nowhere else, so a restart resumes them:
// - delay: the job is `delayed` with run_at = the release time; it runs again then and completes.
// - digest: the first event of a group (workflow, step, subscriber, digest-key value) becomes the
//   group's open digest, `delayed` until its window ends; later events' digest jobs find it by
//   `group_key` and are `merged` into it (their following steps do not run). When the window ends the
//   first job gathers every merged event and completes with `steps.<id>.events`/`eventCount`.
// - throttle: the executions it let through keep the group's `group_key` and their run time; over the
//   threshold the job completes as throttled and the following steps are skipped.
// - custom: its `custom` control values, rendered, are its output.
import type { JsonObject } from '../../api/schemas/common.js';
import {
  delayUntil,
  digestGroupKey,
  digestKeyValue,
  digestOutput,
  digestWindow,
  nextScheduledTime,
  renderCustomOutput,
  throttleDecision,
  throttleGroupKey,
  type DelayControlsInput,
  type DigestControlsInput,
  type DigestEvent,
  type ThrottleControlsInput,
} from '../engine/index.js';
import { durationText, isoOf, jsonText, templateErrorsText } from './describe.js';
import { deliverySchedule, outsideSchedule, prelude } from './prelude.js';
import type { StepContext, StepHandler, StepRegistry, StepResult } from './types.js';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

// --- delay ---------------------------------------------------------------------------------------

interface DelayState {
  until?: number;
  durationMs?: number;
  /** The step asked to be extended to the subscriber's delivery schedule (`extendToSchedule`). */
  extendToSchedule?: boolean;
  /** How many times its release was held for the schedule. */
  scheduleExtensions?: number;
}

/** The most times a release is held for the schedule; then it goes out as it is. */
const MAX_SCHEDULE_EXTENSIONS = 3;

/**
 * A delay or digest released outside the subscriber's delivery schedule, which asked to be extended
 * to it: held until the schedule's next time, at most MAX_SCHEDULE_EXTENSIONS times (as the service).
 */
function extendToSchedule(ctx: StepContext, state: DelayState): StepResult | undefined {
  if (state.extendToSchedule !== true) return undefined;
  const when = outsideSchedule(ctx);
  if (when === undefined) return undefined;
  const done = state.scheduleExtensions ?? 0;
  if (done >= MAX_SCHEDULE_EXTENSIONS) {
    ctx.detail({
      status: 'Success',
      detail: `Step not held again: it was extended to the subscriber's delivery schedule ${done} times, the most there are`,
      source: 'Internal',
    });
    return undefined;
  }
  const timezone = typeof ctx.subscriber.timezone === 'string' ? ctx.subscriber.timezone : null;
  const until = nextScheduledTime(deliverySchedule(ctx), ctx.clock.now(), timezone);
  if (until <= ctx.clock.now()) return undefined;
  const next = ctx.job.state.collectingUntil !== undefined ? { collectingUntil: until } : { until };
  ctx.setState({ ...ctx.job.state, ...next, scheduleExtensions: done + 1 });
  ctx.detail({
    status: 'Pending',
    detail: `Step extended to the subscriber's delivery schedule: it is ${when}, held until ${isoOf(until)} (extension ${done + 1} of ${MAX_SCHEDULE_EXTENSIONS})`,
    source: 'Internal',
  });
  return { status: 'delayed', until };
}

const delay: StepHandler = {
  run(ctx) {
    const state = ctx.job.state as DelayState;
    const now = ctx.clock.now();
    if (num(state.until) !== undefined) {
      if (now < state.until!) return { status: 'delayed', until: state.until! };
      const held = extendToSchedule(ctx, state);
      if (held) return held;
      ctx.setOutput({ duration: state.durationMs ?? 0 });
      ctx.detail({ status: 'Success', detail: `Delay finished: waited ${durationText(state.durationMs ?? 0)}`, source: 'Internal' });
      return { status: 'completed' };
    }
    const pre = prelude(ctx);
    if (pre) return pre;
    const controls = ctx.step.controls as DelayControlsInput;
    const decision = delayUntil(controls, ctx.scope(), now);
    if (!decision.ok) {
      const dynamic = controls.type === 'dynamic' || controls.type === 'scheduled';
      return { status: 'failed', error: `Delay: ${decision.error}`, source: dynamic ? 'Payload' : 'Internal' };
    }
    ctx.setState({
      ...ctx.job.state,
      until: decision.until,
      durationMs: decision.durationMs,
      ...(ctx.step.controls.extendToSchedule === true && { extendToSchedule: true }),
    });
    if (decision.until <= now) {
      ctx.setOutput({ duration: 0 });
      ctx.detail({
        status: 'Success',
        detail: `Step not delayed: the ${decision.type} delay's time ${isoOf(decision.until)} has already passed`,
        source: 'Payload',
      });
      return { status: 'completed' };
    }
    const how =
      decision.type === 'timed'
        ? `, next time of cron "${controls.cron}"`
        : decision.type === 'dynamic'
          ? `, from ${controls.dynamicKey ?? controls.delayPath}`
          : '';
    ctx.detail({ status: 'Pending', detail: `Step delayed until ${isoOf(decision.until)} (${durationText(decision.durationMs)}${how})`, source: 'Internal' });
    return { status: 'delayed', until: decision.until };
  },
};

// --- digest --------------------------------------------------------------------------------------

interface DigestState extends Pick<DelayState, 'extendToSchedule' | 'scheduleExtensions'> {
  /** Set on the group's first job while it collects events. */
  collectingUntil?: number;
  /** Set on a job merged into another one's digest: that job's id. */
  mergedInto?: string;
}

function ownEvent(ctx: StepContext): DigestEvent {
  return { id: ctx.notification.id, time: ctx.notification.createdAt, payload: ctx.notification.doc.payload };
}

/** The window has ended: this job's event and every event merged into it, as `steps.<id>`. */
function closeDigest(ctx: StepContext): StepResult {
  const merged = ctx.job.groupKey ? ctx.store.jobs.digestedEvents(ctx.job.groupKey, ctx.job.id) : [];
  const events: DigestEvent[] = [ownEvent(ctx), ...merged.map((m) => ({ id: m.notificationId, time: m.createdAt, payload: m.payload }))];
  const output = digestOutput(events);
  ctx.setOutput(output as unknown as JsonObject);
  ctx.detail({
    status: 'Success',
    detail: `Digest complete: ${output.eventCount} event${output.eventCount === 1 ? '' : 's'} collected (this one and ${merged.length} merged), handed to the next step`,
    source: 'Internal',
    raw: JSON.stringify({ events: output.events.map((e) => e.id) }),
  });
  return { status: 'completed' };
}

/**
 * The value a digest groups events by. A code-first step's app computes it (the framework's digest
 * output `digestKey` is the value, e.g. the order id, as the service takes it); a step defined here
 * names a payload path or template whose value it is.
 */
function groupValue(ctx: StepContext, controls: DigestControlsInput & { digestValue?: unknown }) {
  if (controls.digestValue !== undefined) {
    const v = controls.digestValue;
    return { ok: true as const, value: typeof v === 'string' ? v : JSON.stringify(v), missing: false };
  }
  return digestKeyValue(controls, ctx.scope());
}

const digest: StepHandler = {
  run(ctx) {
    const state = ctx.job.state as DigestState;
    const now = ctx.clock.now();
    const until = num(state.collectingUntil);
    if (until !== undefined) {
      if (now < until) return { status: 'delayed', until };
      return extendToSchedule(ctx, state) ?? closeDigest(ctx);
    }
    const pre = prelude(ctx);
    if (pre) return pre;
    const controls = ctx.step.controls as DigestControlsInput & { digestValue?: unknown };
    const key = groupValue(ctx, controls);
    if (!key.ok) return { status: 'failed', error: `Digest: ${key.error}`, source: 'Payload' };
    const keyText =
      controls.digestValue !== undefined
        ? ` for digest key ${JSON.stringify(key.value)} (computed by the app's code)`
        : controls.digestKey
          ? ` for digest key ${controls.digestKey} = ${JSON.stringify(key.value)}${key.missing ? ' (no value in this event)' : ''}`
          : '';
    const group = digestGroupKey({ workflowId: ctx.workflow._id, stepId: ctx.step.stepId, subscriberId: ctx.subscriber._id!, keyValue: key.value });
    const { jobs } = ctx.store;
    const open = jobs.openDigest(group, ctx.job.id);
    if (open) {
      jobs.setGroup(ctx.job.id, group);
      ctx.setState({ ...ctx.job.state, mergedInto: open.id });
      ctx.store.activity.setDigested(ctx.notification.id, open.notificationId);
      ctx.detail({
        status: 'Success',
        detail: `Step digested: merged into the digest of notification ${open.notificationId}${keyText}, sent when its window closes at ${isoOf(open.runAt)}`,
        source: 'Internal',
      });
      return {
        status: 'merged',
        rest: { status: 'merged', detail: `Step not run: this event was merged into the digest of notification ${open.notificationId}` },
      };
    }
    const window = digestWindow({
      controls,
      now,
      lastEventAt: jobs.lastGroupEventAt(group, ctx.job.id),
      timezone: typeof ctx.subscriber.timezone === 'string' ? ctx.subscriber.timezone : null,
    });
    if (!window.ok) return { status: 'failed', error: `Digest: ${window.error}` };
    jobs.setGroup(ctx.job.id, group);
    if (window.mode === 'immediate') {
      const look = controls.lookBackWindow;
      ctx.setOutput(digestOutput([ownEvent(ctx)]) as unknown as JsonObject);
      ctx.detail({
        status: 'Success',
        detail: `Step digested: no earlier event${keyText} within the look-back window of ${look?.amount} ${look?.unit}, so this one goes on at once`,
        source: 'Internal',
      });
      return { status: 'completed' };
    }
    ctx.setState({ ...ctx.job.state, collectingUntil: window.until, ...(controls.extendToSchedule === true && { extendToSchedule: true }) });
    const how =
      window.type === 'timed'
        ? `next time of cron "${controls.cron}"`
        : window.type === 'backoff'
          ? 'backoff: an event arrived within the look-back window'
          : `${controls.amount} ${controls.unit}`;
    ctx.detail({ status: 'Pending', detail: `Step digested: collecting events${keyText} until ${isoOf(window.until)} (${how})`, source: 'Internal' });
    return { status: 'delayed', until: window.until };
  },
};

// --- throttle ------------------------------------------------------------------------------------

const throttle: StepHandler = {
  run(ctx) {
    const pre = prelude(ctx);
    if (pre) return pre;
    const controls = ctx.step.controls as ThrottleControlsInput;
    const scope = ctx.scope();
    const group = throttleGroupKey({ workflowId: ctx.workflow._id, stepId: ctx.step.stepId, subscriberId: ctx.subscriber._id!, controls, scope });
    if (!group.ok) return { status: 'failed', error: `Throttle: ${group.error}`, source: 'Payload' };
    const now = ctx.clock.now();
    const threshold = controls.threshold ?? 1;
    // The newest `threshold` executions decide; a few more make the count in the detail exact.
    const history = ctx.store.jobs.throttleHistory(group.key, threshold + 100);
    const decision = throttleDecision(history, now, controls, scope);
    if (!decision.ok) return { status: 'failed', error: `Throttle: ${decision.error}`, source: controls.type === 'dynamic' ? 'Payload' : 'Internal' };
    const window = `the window since ${isoOf(decision.windowStart)}`;
    const key = controls.throttleKey ? ` (throttle key ${controls.throttleKey})` : '';
    // Its result, as the service gives it (`steps.<id>` in templates; a code-first workflow's later
    // steps are executed with it in their state, which the framework checks against this shape).
    const result = (throttled: boolean, executionCount: number) =>
      ctx.setOutput({ throttled, executionCount, threshold, windowStart: isoOf(decision.windowStart) });
    if (decision.allow) {
      result(false, decision.count + 1);
      ctx.store.jobs.setGroup(ctx.job.id, group.key, now);
      ctx.detail({
        status: 'Success',
        detail: `Throttle passed: execution ${decision.count + 1} of at most ${threshold} in ${window}${key}`,
        source: 'Internal',
      });
      return { status: 'completed' };
    }
    result(true, decision.count);
    const reset = decision.resetAt !== null ? `; the next one may pass after ${isoOf(decision.resetAt)}` : '';
    ctx.detail({
      status: 'Warning',
      detail: `Throttled: ${decision.count} executions already in ${window}${key}, threshold ${threshold}${reset}; the following steps are not sent`,
      source: 'Internal',
    });
    return {
      status: 'completed',
      rest: { status: 'skipped', detail: `Step skipped: throttled by step '${ctx.step.stepId}' (threshold ${threshold} reached)` },
    };
  },
};

// --- custom --------------------------------------------------------------------------------------

const custom: StepHandler = {
  run(ctx) {
    const pre = prelude(ctx);
    if (pre) return pre;
    const out = renderCustomOutput(ctx.step.controls, ctx.scope());
    if (!out.ok) return { status: 'failed', error: templateErrorsText(out.errors), source: 'Payload' };
    ctx.setOutput(out.output as JsonObject);
    ctx.detail({ status: 'Success', detail: `Custom step output: ${jsonText(out.output, 200)}`, source: 'Internal', raw: JSON.stringify(out.output) });
    return { status: 'completed' };
  },
};

export function registerFlowHandlers(registry: StepRegistry): StepRegistry {
  return registry.register('delay', delay).register('digest', digest).register('throttle', throttle).register('custom', custom);
}

/** The same handlers, for a code-first workflow's steps whose controls its bridge answered. */
export { delay as delayHandler, digest as digestHandler, throttle as throttleHandler };

// Steps of code-first workflows (origin `external`): the app that serves them (its bridge) is asked for
// the step's outputs with the step's stored control values and the state so far, from `prepare`,
// outside any transaction. What it answers then goes through the same engine as a step defined here: a
// channel step's outputs are the message (integration, destination, webhook providers, timeline as for
// any message), a delay's or digest's outputs are its controls (a digest's `digestKey` is the value its
// events are grouped by), a custom step's outputs are `steps.<id>`, and `options.skip` skips it.
// Before a channel step's app is called, what svc dev decides alone is decided: the subscriber's
// delivery schedule, the step's filters and the channel preferences; a step they skip is not executed.
// A failed call (network error, timeout, non-2xx, a shape the step type cannot use) fails the job with
// the bridge's answer as the detail's raw, after the client's retries; a payload the app's framework
// refuses fails the first step, once, and the event's other steps are not run (each would be refused
// the same way).
import type { JsonObject } from '../../api/schemas/common.js';
import type { BridgeExecuteResult } from '../../api/schemas/bridge-protocol.js';
import { isChannelKind, type ChannelContent, type ChannelKind } from '../engine/index.js';
import { bridgeRaw, executeStep, frameworkCode, PAYLOAD_ERRORS, zodProblem, type BridgeAnswer } from '../bridge/client.js';
import { bridgeEvent } from '../bridge/event.js';
import { safeCheck } from '../bridge/shapes.js';
import { channelPlan, deliver, sendDelivery, type Sent } from './channels.js';
import { jsonText } from './describe.js';
import { delayHandler, digestHandler, throttleHandler } from './flow.js';
import { prelude } from './prelude.js';
import type { StepContext, StepHandler, StepResult } from './types.js';

interface Executed {
  answer: BridgeAnswer;
  result?: BridgeExecuteResult;
  /** The outputs checked against the step type's schema (with the answer, outside the transaction); absent for a type no bridge executes. */
  outputs?: Outputs;
  /** A channel step's message sent through a webhook provider, or the simulator's answers after its retries. */
  sent?: Sent;
}

/** The bridge URL a job's steps are executed through. */
function bridgeUrlOf(ctx: StepContext): string | undefined {
  return ctx.workflow.bridge?.url;
}

/** A delay or digest job run again when its time came: its state says so, and the bridge is not asked again. */
function resumed(ctx: StepContext): boolean {
  const s = ctx.job.state;
  return (ctx.job.type === 'delay' && s.until !== undefined) || (ctx.job.type === 'digest' && (s.collectingUntil !== undefined || s.mergedInto !== undefined));
}

/** A channel step svc dev skips before asking the app (schedule, filters, preferences), or undefined. */
function skippedHere(ctx: StepContext): StepResult | undefined {
  return isChannelKind(ctx.job.type) ? prelude(ctx, ctx.job.type) : undefined;
}

/** The step's control values stored here (the dashboard's), sent to the app. */
function storedControls(ctx: StepContext): JsonObject {
  return ctx.workflow.steps[ctx.job.stepIndex]?.controlValues ?? {};
}

/**
 * The same step, with the controls the bridge answered (delay, digest and throttle read them). A
 * digest's `digestKey` output is the group's value itself (the app computed it from the payload), not
 * a path to read it from.
 */
function withControls(ctx: StepContext, outputs: JsonObject): StepContext {
  const { digestKey, ...rest } = outputs;
  const controls = ctx.job.type === 'digest' && digestKey !== undefined ? { ...rest, digestValue: digestKey } : outputs;
  return { ...ctx, step: { ...ctx.step, controls } };
}

type Outputs = { ok: true; value: JsonObject } | { ok: false; problem: string };

/**
 * A step's outputs as the engine's content of its type, or why they cannot be; undefined for a type no
 * bridge executes. The protocol's schemas load with the first answer checked.
 */
async function outputsOf(type: string, outputs: JsonObject): Promise<Outputs | undefined> {
  const { BridgeOutputs } = await import('../../api/schemas/bridge-protocol.js');
  if (!Object.hasOwn(BridgeOutputs, type)) return undefined;
  const r = safeCheck(BridgeOutputs[type as keyof typeof BridgeOutputs], outputs);
  return r.success ? { ok: true, value: r.data as JsonObject } : { ok: false, problem: zodProblem(r.error) };
}

function failure(ctx: StepContext, answer: BridgeAnswer, why: string): StepResult {
  return {
    status: 'failed',
    error: `Bridge: executing step '${ctx.step.stepId}' through ${answer.url.split('?')[0]} failed: ${why}${answer.attempts === 0 ? '' : ` after ${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'}`}`,
    source: 'Internal',
    raw: bridgeRaw(answer),
  };
}

/** `/name: must have required property 'name'; /count: must be number`: what the framework found wrong. */
function payloadProblems(json: unknown): string {
  const data = (json as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return '';
  const items = data
    .filter((d): d is { path?: unknown; message?: unknown } => d !== null && typeof d === 'object')
    .map((d) => `${typeof d.path === 'string' && d.path !== '' ? d.path : '(payload)'}: ${typeof d.message === 'string' ? d.message : 'invalid'}`);
  const shown = items.slice(0, 5).join('; ');
  return items.length > 5 ? `${shown}; and ${items.length - 5} more` : shown;
}

/**
 * The app's framework refused the event's payload: said once, on this step, naming the fields; the
 * event's other steps are not run, since each would be refused the same way.
 */
function payloadRefused(ctx: StepContext, answer: BridgeAnswer): StepResult {
  const problems = payloadProblems(answer.json);
  const id = ctx.workflow.workflowId;
  return {
    status: 'failed',
    error: `Payload refused by the app's payload schema for '${id}'${problems ? `: ${problems}` : ''} (${frameworkCode(answer.json)}; svc workflow get ${id} shows the schema)`,
    source: 'Payload',
    raw: bridgeRaw(answer),
    stop: true,
    rest: { status: 'canceled', detail: `Step not run: the app refused this event's payload at step '${ctx.step.stepId}'` },
  };
}

export const bridgeHandler: StepHandler = {
  needsPrepare: (ctx) => !resumed(ctx) && skippedHere(ctx) === undefined,

  async prepare(ctx): Promise<Executed | undefined> {
    const url = bridgeUrlOf(ctx);
    if (url === undefined || skippedHere(ctx) !== undefined) return undefined;
    const event = bridgeEvent(ctx.store, ctx.notification, ctx.subscriber, ctx.job, storedControls(ctx));
    const call = { secret: ctx.environment.apiKey, allowRemote: ctx.settings.allowRemoteBridge };
    const { answer, value } = await executeStep(url, 'execute', ctx.workflow.workflowId, ctx.step.stepId, event, call);
    const executed: Executed = { answer, ...(value && { result: value }) };
    if (!value || value.options?.skip === true) return executed;
    const content = await outputsOf(ctx.job.type, value.outputs);
    if (content) executed.outputs = content;
    // A channel message through a webhook provider (or the simulator, when it retries) is sent here too, outside the transaction.
    const kind = ctx.job.type;
    if (isChannelKind(kind)) {
      if (content?.ok) {
        const p = channelPlan(ctx, kind, content.value as unknown as ChannelContent[ChannelKind]);
        if ('delivery' in p) {
          const sent = await sendDelivery(ctx, p.delivery);
          if (sent) executed.sent = sent;
        }
      }
    }
    return executed;
  },

  run(ctx, prepared): StepResult {
    const type = ctx.job.type;
    if (prepared === undefined) {
      if (resumed(ctx)) return type === 'delay' ? delayHandler.run(ctx, undefined) : digestHandler.run(ctx, undefined);
      const skipped = skippedHere(ctx);
      if (skipped) return skipped;
      return {
        status: 'failed',
        error: `Workflow '${ctx.workflow.workflowId}' is a code-first workflow with no bridge URL: run svc workflow sync --bridge-url URL`,
      };
    }
    const { answer, result } = prepared as Executed;
    if (!answer.ok && answer.status === 400 && PAYLOAD_ERRORS.has(frameworkCode(answer.json) ?? '')) return payloadRefused(ctx, answer);
    if (!answer.ok || !result) return failure(ctx, answer, answer.error ?? 'no answer');
    const where = answer.url.split('?')[0];
    if (result.options?.skip === true) {
      ctx.detail({
        status: 'Success',
        detail: `Step skipped: its skip condition in the app's code holds (bridge ${where})`,
        source: 'Payload',
        raw: bridgeRaw(answer),
      });
      return { status: 'skipped' };
    }
    const { outputs } = prepared as Executed;
    if (!outputs) return failure(ctx, answer, `a ${type} step cannot be executed through a bridge`);
    if (!outputs.ok) return failure(ctx, answer, `its outputs do not fit a ${type} step: ${outputs.problem}`);
    ctx.detail({
      status: 'Success',
      detail: `Step executed by the bridge ${where} in ${answer.durationMs} ms: ${jsonText(outputs.value, 200)}`,
      source: 'Internal',
      raw: bridgeRaw(answer),
    });
    if (isChannelKind(type)) {
      const p = channelPlan(ctx, type, outputs.value as unknown as ChannelContent[ChannelKind]);
      if ('result' in p) return p.result;
      return deliver(ctx, type, p.delivery, (prepared as Executed).sent);
    }
    switch (type) {
      case 'delay':
        return delayHandler.run(withControls(ctx, outputs.value), undefined);
      case 'digest':
        return digestHandler.run(withControls(ctx, outputs.value), undefined);
      case 'throttle':
        return throttleHandler.run(withControls(ctx, outputs.value), undefined);
      default:
        // custom: what it returned is `steps.<id>` (and its result in later steps' state).
        ctx.setOutput(outputs.value);
        return { status: 'completed' };
    }
  },
};

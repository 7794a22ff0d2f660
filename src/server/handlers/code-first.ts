// Code-first workflows served by the team's app (its bridge): registering a bridge (POST /v1/bridge/sync),
// the step preview of such a workflow (asked of the bridge with `action=preview`), and a trigger whose
// body names a `bridgeUrl` (that bridge is discovered first, and the trigger's steps run through it),
// singly or in a bulk trigger.
// Each has an asynchronous `prepare` (the network calls), run before the request's transaction, whose
// result `handle` stores or answers; nothing is written when the bridge cannot be used.
import type { TriggerResult } from '../../api/schemas/requests.js';
import type { BridgeState } from '../../api/schemas/bridge-protocol.js';
import type { JsonObject } from '../../api/schemas/common.js';
import type { PreviewResponse } from '../../api/schemas/workflow.js';
import { EXAMPLE_SUBSCRIBER, EXAMPLE_SUBSCRIBER_ID, earlierStepExample, payloadExampleFromSchema, type JsonSchema } from '../engine/index.js';
import { bridgeRaw, executeStep } from '../bridge/client.js';
import { bridgeSubscriber } from '../bridge/event.js';
import { type Discovered, discoverBridge, storeDiscovered } from '../bridge/sync.js';
import { HttpError } from '../errors.js';
import type { Environment } from '../store/index.js';
import type { StoredWorkflow } from '../store/workflows.js';
import type { Call, Route, Service } from './types.js';
import type { OperationName } from '../../api/operations.js';

/** A route with network work to do before its transaction: `prepare`'s result is `call.prepared`. */
export interface PreparedRoute<K extends OperationName, P> extends Route<K> {
  prepare(call: Call<K>): Promise<P>;
  handle(call: Call<K> & { prepared?: P }): unknown;
}

/** How this service calls a bridge: signed with the environment's key, loopback only unless allowed. */
function bridgeCall(svc: Service, env: Environment) {
  return { secret: env.apiKey, allowRemote: svc.runner.settings.allowRemoteBridge };
}

export const bridgeSync: PreparedRoute<'bridgeSync', Discovered> = {
  envelope: 'data',
  prepare: ({ svc, body, env }) => discoverBridge(body.bridgeUrl, bridgeCall(svc, env)),
  handle({ svc, env, prepared }) {
    return storeDiscovered(svc.store, env, prepared!);
  },
};

/** An external workflow's step, by stepId, slug or database id. */
function stepOf(wf: StoredWorkflow, key: string) {
  return wf.steps.find((s) => s.stepId === key || s.slug === key || s._id === key);
}

type PreviewPrepared = { response: PreviewResponse } | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The caller's values over the example's: objects merge, anything else replaces. */
function over(base: Record<string, unknown>, given: unknown): Record<string, unknown> {
  if (!isObject(given)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(given)) out[k] = isObject(v) && isObject(base[k]) ? over(base[k] as Record<string, unknown>, v) : v;
  return out;
}

/**
 * The state a step's preview is asked with: each earlier step's example result (a digest's events
 * carry the preview's payload, so a step after it shows them), over which the caller's `steps` go.
 * The framework mocks only what the state leaves out, from each step's result schema.
 */
function previewState(wf: StoredWorkflow, index: number, payload: Record<string, unknown>, given: unknown, now: number): BridgeState[] {
  const state: BridgeState[] = [{ stepId: 'trigger', outputs: payload, state: { status: 'completed' } }];
  for (const earlier of wf.steps.slice(0, index)) {
    const example = earlierStepExample(earlier, payload, now) ?? {};
    const outputs = over(example, isObject(given) ? given[earlier.stepId] : undefined);
    if (Array.isArray(outputs.events)) outputs.eventCount = outputs.events.length;
    state.push({ stepId: earlier.stepId, outputs: outputs as JsonObject, state: { status: 'completed' } });
  }
  return state;
}

/**
 * The step preview: a code-first workflow's step is previewed by its bridge; any other by `inner`. The
 * bridge is sent the workflow's example payload (from its schema) under the caller's, the service's
 * example subscriber under the caller's fields, the step's stored control values unless the caller
 * gives others, and example results of the steps before it.
 */
export function withBridgePreview(inner: Route<'previewStep'>): PreparedRoute<'previewStep', PreviewPrepared> {
  return {
    envelope: inner.envelope,
    async prepare({ svc, env, params, body }) {
      const wf = svc.store.workflows.find(env.id, params.workflowId!);
      if (wf?.origin !== 'external' || !wf.bridge) return undefined;
      const step = stepOf(wf, params.stepId!);
      if (!step) return { response: { result: { preview: {} }, previewPayloadExample: {}, schema: null } };
      const given = body.previewPayload ?? {};
      const now = svc.clock.now();
      const payload = over(wf.payloadSchema ? payloadExampleFromSchema(wf.payloadSchema as JsonSchema, now) : {}, given.payload);
      const subscriber = over({ ...EXAMPLE_SUBSCRIBER }, given.subscriber);
      const index = wf.steps.indexOf(step);
      const state = previewState(wf, index, payload, given.steps, now);
      const event = {
        payload: payload as JsonObject,
        controls: body.controlValues ?? step.controlValues,
        subscriber: bridgeSubscriber({ subscriberId: EXAMPLE_SUBSCRIBER_ID, ...subscriber } as never),
        state,
      };
      const example = { payload, subscriber, ...(index > 0 && { steps: Object.fromEntries(state.slice(1).map((s) => [s.stepId, s.outputs])) }) };
      const { answer, value } = await executeStep(wf.bridge.url, 'preview', wf.workflowId, step.stepId, event, bridgeCall(svc, env));
      if (!value) {
        return {
          response: {
            result: {
              type: step.type,
              error: { title: 'Bridge preview failed', message: `${answer.url.split('?')[0]}: ${answer.error ?? 'no answer'}`, hint: bridgeRaw(answer) },
            },
            previewPayloadExample: example,
            schema: null,
          },
        };
      }
      return {
        response: {
          result: { type: step.type, preview: value.outputs },
          previewPayloadExample: example,
          schema: wf.payloadSchema ? { type: 'object', properties: { payload: wf.payloadSchema } } : null,
        },
      };
    },
    handle(call) {
      return call.prepared ? call.prepared.response : inner.handle(call);
    },
  };
}

/**
 * A trigger with a `bridgeUrl` (the framework's `workflow.trigger()` may send one): the workflows of
 * that bridge are discovered and stored first unless the workflow already runs through it, so this
 * trigger's steps are executed through that URL.
 */
export function withTriggerBridge(inner: Route<'triggerEvent'>): PreparedRoute<'triggerEvent', Discovered | undefined> {
  return {
    envelope: inner.envelope,
    async prepare({ svc, env, body }) {
      const bridgeUrl = (body as { bridgeUrl?: unknown }).bridgeUrl;
      if (bridgeUrl === undefined || bridgeUrl === null || bridgeUrl === '') return undefined;
      if (typeof bridgeUrl !== 'string')
        throw new HttpError(422, 'bridgeUrl must be a URL', { errors: { bridgeUrl: { messages: ['must be a URL'], value: bridgeUrl } } });
      const wf = svc.store.workflows.findByTrigger(env.id, body.name);
      if (wf?.origin === 'external' && wf.bridge?.url === bridgeUrl) return undefined;
      return discoverBridge(bridgeUrl, bridgeCall(svc, env));
    },
    handle(call) {
      if (call.prepared) storeDiscovered(call.svc.store, call.env, call.prepared);
      return inner.handle(call);
    },
  };
}

/** Per bridge URL of a bulk trigger: its discovered workflows, or why it cannot be used. */
type BulkBridges = Map<string, Discovered | string> | undefined;

/** The bulk route: its own body check, kept by the wrapper. */
type BulkRoute = Route<'triggerBulk'> & { parseBody(input: unknown): unknown };

/**
 * A bulk trigger whose events name a `bridgeUrl`: each such bridge is discovered (once, however many
 * events name it) and stored first, so those events run through it, as a single trigger's would. As
 * bulk events go, an event whose bridge cannot be used answers `status: "error"` with the reason, and
 * the others still go through.
 */
export function withBulkBridge(inner: BulkRoute): PreparedRoute<'triggerBulk', BulkBridges> & Pick<BulkRoute, 'parseBody'> {
  return {
    envelope: inner.envelope,
    parseBody: (input) => inner.parseBody(input),
    async prepare({ svc, env, body }) {
      const urls = new Set<string>();
      for (const raw of body.events as unknown[]) {
        const e = raw as { name?: unknown; bridgeUrl?: unknown } | null;
        const url = e?.bridgeUrl;
        if (typeof url !== 'string' || url === '') continue;
        const wf = typeof e?.name === 'string' ? svc.store.workflows.findByTrigger(env.id, e.name) : undefined;
        if (wf?.origin === 'external' && wf.bridge?.url === url) continue;
        urls.add(url);
      }
      if (urls.size === 0) return undefined;
      const answers = await Promise.all(
        [...urls].map(async (url): Promise<Discovered | string> => {
          try {
            return await discoverBridge(url, bridgeCall(svc, env));
          } catch (e) {
            if (!(e instanceof HttpError)) throw e;
            return e.message;
          }
        }),
      );
      // In the order the events name them, whichever answered first: a workflow id that two bridges of
      // one request declare stays with the first, and the second bridge's events are refused.
      const found = new Map<string, Discovered | string>();
      const servedBy = new Map<string, string>();
      [...urls].forEach((url, i) => {
        const d = answers[i]!;
        const taken = typeof d === 'string' ? undefined : d.workflows.find((w) => servedBy.has(w.workflowId));
        if (taken !== undefined && typeof d !== 'string') {
          found.set(url, `workflow '${taken.workflowId}' is also served by ${servedBy.get(taken.workflowId)} in this request`);
          return;
        }
        if (typeof d !== 'string') for (const w of d.workflows) servedBy.set(w.workflowId, url);
        found.set(url, d);
      });
      return found;
    },
    handle(call) {
      const unusable = new Map<string, string>();
      for (const [url, d] of call.prepared ?? []) {
        if (typeof d === 'string') unusable.set(url, d);
        else {
          try {
            storeDiscovered(call.svc.store, call.env, d);
          } catch (e) {
            if (!(e instanceof HttpError)) throw e;
            unusable.set(url, e.message);
          }
        }
      }
      const events = call.body.events as unknown[];
      const failed = new Map<number, TriggerResult>();
      events.forEach((raw, i) => {
        const url = (raw as { bridgeUrl?: unknown } | null)?.bridgeUrl;
        if (url === undefined || url === null || url === '') return;
        const why = typeof url !== 'string' ? 'bridgeUrl must be a URL' : unusable.get(url);
        if (why === undefined) return;
        const transactionId = (raw as { transactionId?: unknown }).transactionId;
        failed.set(i, { acknowledged: true, status: 'error', error: [why], ...(typeof transactionId === 'string' && { transactionId }) });
      });
      if (failed.size === 0) return inner.handle(call);
      const rest = events.filter((_, i) => !failed.has(i));
      const done = (rest.length > 0 ? inner.handle({ ...call, body: { ...call.body, events: rest as typeof call.body.events } }) : []) as TriggerResult[];
      let next = 0;
      return events.map((_, i) => failed.get(i) ?? done[next++]!);
    },
  };
}

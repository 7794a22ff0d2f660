// The body of an execute request for one job: the event's payload, the subscriber, the step's control
// values stored here (the dashboard's; `{}` when none, so the app's defaults apply), and the state so
// far. The framework replays the workflow's code up to the step asked for, and for every earlier step
// it reads that step's *result* from `state` and checks it against the step type's result schema (a
// missing or malformed one is a 400), so each earlier job is answered, whatever its status:
// in-app `{seen, read, lastSeenDate, lastReadDate}`, delay `{duration}`, digest `{events, eventCount}`,
// throttle `{throttled, executionCount, threshold, windowStart}`, custom what it returned, the other
// channels `{}`.
import type { BridgeEvent, BridgeState } from '../../api/schemas/bridge-protocol.js';
import type { JsonObject } from '../../api/schemas/common.js';
import type { Subscriber } from '../../api/schemas/resources.js';
import type { NotificationRecord } from '../store/activity.js';
import type { Store } from '../store/index.js';
import type { JobRecord } from '../store/jobs.js';

const SUBSCRIBER_FIELDS = ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

/** The subscriber as the app's code sees it: its public fields, without database ids. */
export function bridgeSubscriber(s: Subscriber): JsonObject {
  const out: JsonObject = {};
  for (const k of SUBSCRIBER_FIELDS) {
    const v = (s as Record<string, unknown>)[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

/** One earlier job's result, in the shape its type's result schema asks for. */
function stepResult(job: Pick<JobRecord, 'type' | 'state'>): JsonObject {
  const output = obj(job.state.output);
  switch (job.type) {
    case 'in_app':
      return {
        seen: output?.seen === true,
        read: output?.read === true,
        lastSeenDate: typeof output?.lastSeenDate === 'string' ? output.lastSeenDate : null,
        lastReadDate: typeof output?.lastReadDate === 'string' ? output.lastReadDate : null,
      };
    case 'delay':
      return { duration: typeof output?.duration === 'number' ? output.duration : 0 };
    case 'digest': {
      const events = Array.isArray(output?.events) ? (output.events as JsonObject[]) : [];
      // Exactly {id, time, payload}: the result schema allows no other field.
      const clean = events.map((e) => ({ id: String(e.id), time: String(e.time), payload: obj(e.payload) ?? {} }));
      return { events: clean, eventCount: clean.length };
    }
    case 'throttle':
      // Exactly the result schema's fields ({throttled} required, nothing else allowed); a throttle
      // skipped by its condition did not throttle.
      return {
        throttled: output?.throttled === true,
        ...(typeof output?.executionCount === 'number' && { executionCount: output.executionCount }),
        ...(typeof output?.threshold === 'number' && { threshold: output.threshold }),
        ...(typeof output?.windowStart === 'string' && { windowStart: output.windowStart }),
      };
    case 'custom':
      return output ?? {};
    default:
      return {};
  }
}

/** The execute body of `job`: its controls, the trigger, then every earlier step of its event, in order. */
export function bridgeEvent(store: Store, n: NotificationRecord, subscriber: Subscriber, job: JobRecord, controls: JsonObject): BridgeEvent {
  const state: BridgeState[] = [{ stepId: 'trigger', outputs: n.doc.payload, state: { status: 'completed' } }];
  if (job.stepIndex > 0) {
    for (const j of store.jobs.earlierSteps(n.id, job.stepIndex)) state.push({ stepId: j.stepId, outputs: stepResult(j), state: { status: j.status } });
  }
  return { payload: n.doc.payload, controls, subscriber: bridgeSubscriber(subscriber), state };
}

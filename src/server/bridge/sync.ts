// Registering a bridge: ask the app for its health and its workflows (discover), check the answer, and
// store each workflow with origin `external` and the bridge URL (a workflow of that bridge no longer
// discovered is removed). The network part (`discoverBridge`) runs before any transaction; storing
// (`storeDiscovered`) is synchronous and all or nothing. An unreachable URL, or one that does not answer
// as the framework does, stores nothing and says which URL and what answered.
import type { BridgeHealth, BridgeSyncResult, BridgeWorkflow } from '../../api/schemas/bridge-protocol.js';
import type { JsonObject } from '../../api/schemas/common.js';
import { SEVERITIES } from '../../api/enum-values.js';
import { HttpError } from '../errors.js';
import type { Environment, Store } from '../store/index.js';
import { DEFAULT_PREFERENCES, type NewWorkflow, type WorkflowPreferences } from '../store/workflows.js';
import { whatAnswered as describeAnswer } from '../outbound/index.js';
import { type BridgeAnswer, type BridgeCallOptions, discover, frameworkCode, healthCheck } from './client.js';

export interface Discovered {
  bridgeUrl: string;
  health: BridgeHealth | undefined;
  workflows: BridgeWorkflow[];
}

const SYNC_ERRORS = {
  unreachable: { status: 400, code: 'BRIDGE_UNREACHABLE' },
  invalid: { status: 422, code: 'BRIDGE_INVALID' },
  conflict: { status: 409, code: 'BRIDGE_CONFLICT' },
  refused: { status: 422, code: 'BRIDGE_NOT_ALLOWED' },
} as const;

/**
 * Why a bridge could not be registered: nothing answered (`unreachable`), not a framework bridge
 * (`invalid`), a workflow id taken (`conflict`), or a URL the loopback guard refuses (`refused`).
 */
export class BridgeSyncError extends HttpError {
  constructor(
    readonly kind: keyof typeof SYNC_ERRORS,
    message: string,
    bridgeUrl: string,
  ) {
    super(SYNC_ERRORS[kind].status, message, { ctx: { code: SYNC_ERRORS[kind].code, bridgeUrl } });
  }
}

/** A call that got no answer: refused by the guard, or unreachable. */
function noAnswer(bridgeUrl: string, a: BridgeAnswer): BridgeSyncError {
  if (a.refused) return new BridgeSyncError('refused', `Bridge ${bridgeUrl}: ${a.error}`, bridgeUrl);
  return new BridgeSyncError('unreachable', `Bridge ${bridgeUrl} is not reachable: ${whatAnswered(a)}`, bridgeUrl);
}

/**
 * What answered, in a few words, never its body (an answer is anyone's text): `HTTP 404 (text/html,
 * 38 bytes)`; a JSON answer of the wrong shape names the field (`... whose workflows.0.type: ...`).
 */
function whatAnswered(a: BridgeAnswer): string {
  const code = frameworkCode(a.json);
  const what = `${describeAnswer(a)}${code ? `: ${code}` : ''}`;
  if (a.status === undefined || !a.error?.startsWith('unexpected answer')) return what;
  return a.json === undefined ? `${what}, not JSON` : `${what} whose ${a.error.slice('unexpected answer: '.length)}`;
}

/**
 * What is wrong with a health check's answer that answered (an HTTP status) but not as a framework
 * bridge, after the bridge URL: `did not answer its health check as a framework bridge: HTTP 200 (text/html, ...)`.
 * `svc workflow sync` and `svc dev --bridge-url` say it in these words.
 */
function notABridge(a: BridgeAnswer): string {
  return `did not answer its health check as a framework bridge: ${whatAnswered(a)}`;
}

/** Health check, then discover; throws BridgeSyncError naming the URL and what answered. */
export async function discoverBridge(bridgeUrl: string, opts: BridgeCallOptions): Promise<Discovered> {
  const health = await healthCheck(bridgeUrl, opts);
  if (!health.value) {
    const a = health.answer;
    if (a.status === undefined) throw noAnswer(bridgeUrl, a);
    throw new BridgeSyncError('invalid', `Bridge ${bridgeUrl} ${notABridge(a)}`, bridgeUrl);
  }
  const found = await discover(bridgeUrl, opts);
  if (!found.value) {
    const a = found.answer;
    if (a.status === undefined) throw noAnswer(bridgeUrl, a);
    const hint = a.status === 401 ? " (is the app started with NOVU_SECRET_KEY set to this environment's API key?)" : '';
    throw new BridgeSyncError('invalid', `Bridge ${bridgeUrl} refused or broke discovery: ${whatAnswered(a)}${hint}`, bridgeUrl);
  }
  return discovered(bridgeUrl, health.value, found.value.workflows);
}

/** What a bridge declared, once checked: a workflow id declared twice is refused. */
export function discovered(bridgeUrl: string, health: BridgeHealth | undefined, workflows: BridgeWorkflow[]): Discovered {
  const ids = workflows.map((w) => w.workflowId);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) throw new BridgeSyncError('invalid', `Bridge ${bridgeUrl} declared workflow '${dup}' twice`, bridgeUrl);
  return { bridgeUrl, health, workflows };
}

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

/** The framework's `preferences` (`{all: {enabled, readOnly}, channels: {email: {enabled}}}`), completed. */
function preferencesOf(p: JsonObject | undefined): WorkflowPreferences {
  const all = obj(p?.all);
  const channels = obj(p?.channels) ?? {};
  const out: WorkflowPreferences = {
    all: {
      enabled: typeof all?.enabled === 'boolean' ? all.enabled : DEFAULT_PREFERENCES.all.enabled,
      readOnly: typeof all?.readOnly === 'boolean' ? all.readOnly : DEFAULT_PREFERENCES.all.readOnly,
    },
    channels: {},
  };
  for (const ch of Object.keys(DEFAULT_PREFERENCES.channels)) {
    const given = obj(channels[ch === 'in_app' ? 'inApp' : ch]) ?? obj(channels[ch]);
    out.channels[ch] = { enabled: typeof given?.enabled === 'boolean' ? given.enabled : out.all.enabled };
  }
  return out;
}

/** A discovered workflow as the store keeps it. */
function toNewWorkflow(w: BridgeWorkflow): NewWorkflow {
  const severity = (SEVERITIES as readonly string[]).includes(w.severity ?? '') ? (w.severity as NewWorkflow['severity']) : undefined;
  return {
    workflowId: w.workflowId,
    name: w.name ?? w.workflowId,
    ...(w.description !== undefined && { description: w.description }),
    tags: w.tags ?? [],
    // Not set by a discovery (as the service's sync leaves it): a new workflow's payload is checked
    // at trigger time only once `validatePayload` is turned on; the app's framework checks it anyway
    // when it executes a step.
    payloadSchema: w.payload.schema,
    preferences: { user: null, workflow: preferencesOf(w.preferences) },
    ...(severity && { severity }),
    steps: w.steps.map((s) => ({ stepId: s.stepId, name: s.stepId, type: s.type, controlValues: {} })),
  };
}

/** Stores what was discovered (one transaction): created, replaced, and removed workflows. */
export function storeDiscovered(store: Store, env: Environment, d: Discovered): BridgeSyncResult {
  return store.tx(() => {
    for (const w of d.workflows) {
      const taken = store.workflows.findByTrigger(env.id, w.workflowId);
      if (taken && taken.origin !== 'external') {
        throw new BridgeSyncError(
          'conflict',
          `Bridge ${d.bridgeUrl} declares workflow '${w.workflowId}', which already exists here and was not created from code: delete or rename it first`,
          d.bridgeUrl,
        );
      }
    }
    const stored = d.workflows.map((w) =>
      store.workflows.upsertExternal(env, toNewWorkflow(w), {
        url: d.bridgeUrl,
        controlSchemas: Object.fromEntries(w.steps.map((s) => [s.stepId, s.controls.schema])),
      }),
    );
    const kept = new Set(d.workflows.map((w) => w.workflowId));
    const removed: string[] = [];
    for (const w of store.workflows.all(env.id)) {
      if (w.origin === 'external' && w.bridge?.url === d.bridgeUrl && !kept.has(w.workflowId)) {
        store.workflows.remove(w._id);
        removed.push(w.workflowId);
      }
    }
    return {
      bridgeUrl: d.bridgeUrl,
      sdkVersion: d.health?.sdkVersion ?? null,
      frameworkVersion: d.health?.frameworkVersion ?? null,
      workflows: stored.map((w) => ({
        _id: w._id,
        workflowId: w.workflowId,
        name: w.name,
        origin: w.origin,
        steps: w.steps.map((s) => ({ stepId: s.stepId, type: s.type })),
      })),
      removed,
    };
  });
}

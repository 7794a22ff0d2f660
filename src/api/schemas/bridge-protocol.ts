// Workflows written in code and served by the team's own app (the "bridge"): what the bridge answers
// (health check, discover, execute/preview) and the sync operation that registers a bridge. The shapes
// are those the framework's request handler produces; unknown fields are let through, since newer
// framework versions add some.
import { z } from 'zod';
import { JsonObject } from './common.js';

/** A JSON Schema as the framework sends it (an object; its content is the framework's business). */
const SchemaHolder = z.looseObject({ schema: JsonObject });

const BRIDGE_STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay', 'throttle', 'custom'] as const;
const BridgeStepType = z.enum(BRIDGE_STEP_TYPES);
type BridgeStepType = z.infer<typeof BridgeStepType>;

export const BridgeHealth = z.looseObject({
  status: z.literal('ok'),
  sdkVersion: z.string(),
  frameworkVersion: z.string(),
  discovered: z.looseObject({ workflows: z.number(), steps: z.number() }),
});
export type BridgeHealth = z.infer<typeof BridgeHealth>;

const BridgeStep = z.looseObject({
  stepId: z.string().min(1, 'must not be empty'),
  type: BridgeStepType,
  controls: SchemaHolder,
  outputs: SchemaHolder,
  results: SchemaHolder,
  providers: z.array(z.unknown()).optional(),
  options: JsonObject.optional(),
});

export const BridgeWorkflow = z.looseObject({
  workflowId: z.string().min(1, 'must not be empty'),
  name: z.string().optional(),
  description: z.string().optional(),
  steps: z.array(BridgeStep),
  payload: SchemaHolder,
  controls: SchemaHolder.optional(),
  preferences: JsonObject.optional(),
  tags: z.array(z.string()).optional(),
  severity: z.string().optional(),
});
export type BridgeWorkflow = z.infer<typeof BridgeWorkflow>;

export const BridgeDiscover = z.looseObject({ workflows: z.array(BridgeWorkflow) });
export type BridgeDiscover = z.infer<typeof BridgeDiscover>;

/** One earlier step's result in an execute request's `state`. */
export const BridgeState = z.object({
  stepId: z.string(),
  outputs: JsonObject,
  state: z.object({ status: z.string(), error: z.string().optional() }),
});
export type BridgeState = z.infer<typeof BridgeState>;

/** The body of `POST ?action=execute|preview&workflowId=W&stepId=S`. */
export const BridgeEvent = z.object({
  payload: JsonObject,
  controls: JsonObject,
  subscriber: JsonObject,
  state: z.array(BridgeState),
});
export type BridgeEvent = z.infer<typeof BridgeEvent>;

export const BridgeExecuteResult = z.looseObject({
  outputs: JsonObject,
  providers: JsonObject.optional(),
  options: z.looseObject({ skip: z.boolean().optional() }).optional(),
  metadata: z.looseObject({ status: z.string().optional(), error: z.boolean().optional(), duration: z.number().optional() }).optional(),
});
export type BridgeExecuteResult = z.infer<typeof BridgeExecuteResult>;

// --- the outputs of each step type, as the engine needs them --------------------------------------

const Redirect = z.looseObject({ url: z.string(), target: z.enum(['_self', '_blank', '_parent', '_top', '_unfencedTop']).optional() });
const Action = z.looseObject({ label: z.string(), redirect: Redirect.optional() });
const TimeUnit = z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']);

export const BridgeOutputs = {
  in_app: z
    .looseObject({
      subject: z.string().optional(),
      body: z.string().optional(),
      avatar: z.string().optional(),
      primaryAction: Action.optional(),
      secondaryAction: Action.optional(),
      redirect: Redirect.optional(),
      data: JsonObject.optional(),
    })
    .refine((o) => o.subject !== undefined || o.body !== undefined, 'needs a subject or a body'),
  email: z.looseObject({ subject: z.string(), body: z.string() }),
  sms: z.looseObject({ body: z.string() }),
  chat: z.looseObject({ body: z.string() }),
  push: z.looseObject({ subject: z.string(), body: z.string() }),
  delay: z.union([
    z.looseObject({ type: z.literal('regular').optional(), amount: z.number(), unit: TimeUnit }),
    z.looseObject({ type: z.literal('timed'), cron: z.string() }),
  ]),
  digest: z.union([
    z.looseObject({
      type: z.literal('regular').optional(),
      amount: z.number(),
      unit: TimeUnit,
      digestKey: z.string().optional(),
      lookBackWindow: z.looseObject({ amount: z.number(), unit: TimeUnit }).optional(),
    }),
    z.looseObject({ type: z.literal('timed').optional(), cron: z.string(), digestKey: z.string().optional() }),
  ]),
  throttle: JsonObject,
  custom: JsonObject,
} as const;

// --- POST /v1/bridge/sync ---------------------------------------------------------------------------

export const BridgeSyncQuery = z.looseObject({ source: z.string().optional() });
export const BridgeSyncBody = z.looseObject({
  bridgeUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
});
export type BridgeSyncBody = z.infer<typeof BridgeSyncBody>;

/** What sync answers: each workflow it stored, as GET /v2/workflows lists it, and the bridge's versions. */
export const BridgeSyncResult = z.looseObject({
  bridgeUrl: z.string(),
  sdkVersion: z.string().nullable(),
  frameworkVersion: z.string().nullable(),
  workflows: z.array(
    z.looseObject({
      _id: z.string(),
      workflowId: z.string(),
      name: z.string(),
      origin: z.string(),
      steps: z.array(z.looseObject({ stepId: z.string(), type: z.string() })),
    }),
  ),
  removed: z.array(z.string()),
});
export type BridgeSyncResult = z.infer<typeof BridgeSyncResult>;

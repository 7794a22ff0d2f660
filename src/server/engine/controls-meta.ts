// Per step kind: the JSON Schema of its control values (from the shared zod schemas), the UI schema
// naming the dashboard components of the spec, and the values a new step starts with.
import { z } from 'zod';
import { CONTROL_SCHEMAS } from '../../api/schemas/workflow.js';
import type { JsonSchema } from './payload.js';
import type { StepKind } from './types.js';

const UI_SCHEMA_GROUPS = ['IN_APP', 'EMAIL', 'DIGEST', 'DELAY', 'THROTTLE', 'SMS', 'CHAT', 'PUSH', 'SKIP', 'LAYOUT', 'HTTP_REQUEST'] as const;
type UiSchemaGroup = (typeof UI_SCHEMA_GROUPS)[number];

export const UI_COMPONENTS = [
  'EMAIL_EDITOR_SELECT',
  'LAYOUT_SELECT',
  'BLOCK_EDITOR',
  'EMAIL_BODY',
  'TEXT_FULL_LINE',
  'TEXT_INLINE_LABEL',
  'IN_APP_BODY',
  'IN_APP_AVATAR',
  'IN_APP_PRIMARY_SUBJECT',
  'IN_APP_BUTTON_DROPDOWN',
  'IN_APP_DISABLE_SANITIZATION_SWITCH',
  'DISABLE_SANITIZATION_SWITCH',
  'URL_TEXT_BOX',
  'DIGEST_AMOUNT',
  'DIGEST_UNIT',
  'DIGEST_TYPE',
  'DIGEST_KEY',
  'DIGEST_CRON',
  'DELAY_AMOUNT',
  'DELAY_UNIT',
  'DELAY_TYPE',
  'DELAY_CRON',
  'DELAY_DYNAMIC_KEY',
  'THROTTLE_TYPE',
  'THROTTLE_WINDOW',
  'THROTTLE_UNIT',
  'THROTTLE_DYNAMIC_KEY',
  'THROTTLE_THRESHOLD',
  'THROTTLE_KEY',
  'EXTEND_TO_SCHEDULE',
  'SMS_BODY',
  'CHAT_BODY',
  'PUSH_BODY',
  'PUSH_SUBJECT',
  'QUERY_EDITOR',
  'DATA',
  'LAYOUT_EMAIL',
  'DESTINATION_METHOD',
  'DESTINATION_URL',
  'DESTINATION_HEADERS',
  'DESTINATION_BODY',
  'DESTINATION_RESPONSE_BODY_SCHEMA',
  'DESTINATION_ENFORCE_SCHEMA_VALIDATION',
  'DESTINATION_CONTINUE_ON_FAILURE',
  'DESTINATION_TIMEOUT',
] as const;
type UiComponent = (typeof UI_COMPONENTS)[number];

// Type aliases rather than interfaces: they fit the shared zod schemas' loose (index-signature) types.
type UiSchemaProperty = {
  component: UiComponent;
  placeholder?: string | number | boolean | null | Record<string, unknown>;
  properties?: Record<string, UiSchemaProperty>;
};
type UiSchema = {
  group?: UiSchemaGroup;
  properties: Record<string, UiSchemaProperty>;
};

const skip: Record<string, UiSchemaProperty> = { skip: { component: 'QUERY_EDITOR' } };
const redirectPlaceholder = { url: { placeholder: '' }, target: { placeholder: '_self' } };

const UI_SCHEMAS: Record<StepKind, UiSchema> = {
  in_app: {
    group: 'IN_APP',
    properties: {
      subject: { component: 'IN_APP_PRIMARY_SUBJECT', placeholder: '' },
      body: { component: 'IN_APP_BODY', placeholder: '' },
      avatar: { component: 'IN_APP_AVATAR', placeholder: '' },
      primaryAction: { component: 'IN_APP_BUTTON_DROPDOWN', placeholder: null },
      secondaryAction: { component: 'IN_APP_BUTTON_DROPDOWN', placeholder: null },
      redirect: { component: 'URL_TEXT_BOX', placeholder: redirectPlaceholder },
      disableOutputSanitization: { component: 'IN_APP_DISABLE_SANITIZATION_SWITCH', placeholder: false },
      data: { component: 'DATA', placeholder: null },
      ...skip,
    },
  },
  email: {
    group: 'EMAIL',
    properties: {
      subject: { component: 'TEXT_INLINE_LABEL', placeholder: '' },
      body: { component: 'BLOCK_EDITOR', placeholder: '' },
      editorType: { component: 'EMAIL_EDITOR_SELECT', placeholder: 'block' },
      layoutId: { component: 'LAYOUT_SELECT', placeholder: null },
      disableOutputSanitization: { component: 'DISABLE_SANITIZATION_SWITCH', placeholder: false },
      ...skip,
    },
  },
  sms: { group: 'SMS', properties: { body: { component: 'SMS_BODY', placeholder: '' }, ...skip } },
  push: {
    group: 'PUSH',
    properties: { subject: { component: 'PUSH_SUBJECT', placeholder: '' }, body: { component: 'PUSH_BODY', placeholder: '' }, ...skip },
  },
  chat: { group: 'CHAT', properties: { body: { component: 'CHAT_BODY', placeholder: '' }, ...skip } },
  delay: {
    group: 'DELAY',
    properties: {
      type: { component: 'DELAY_TYPE', placeholder: 'regular' },
      amount: { component: 'DELAY_AMOUNT', placeholder: null },
      unit: { component: 'DELAY_UNIT', placeholder: 'seconds' },
      cron: { component: 'DELAY_CRON', placeholder: '' },
      dynamicKey: { component: 'DELAY_DYNAMIC_KEY', placeholder: '' },
      ...skip,
    },
  },
  digest: {
    group: 'DIGEST',
    properties: {
      type: { component: 'DIGEST_TYPE', placeholder: 'regular' },
      amount: { component: 'DIGEST_AMOUNT', placeholder: '' },
      unit: { component: 'DIGEST_UNIT', placeholder: 'seconds' },
      digestKey: { component: 'DIGEST_KEY', placeholder: '' },
      cron: { component: 'DIGEST_CRON', placeholder: '' },
      ...skip,
    },
  },
  throttle: {
    group: 'THROTTLE',
    properties: {
      type: { component: 'THROTTLE_TYPE', placeholder: 'fixed' },
      amount: { component: 'THROTTLE_WINDOW', placeholder: null },
      unit: { component: 'THROTTLE_UNIT', placeholder: 'minutes' },
      dynamicKey: { component: 'THROTTLE_DYNAMIC_KEY', placeholder: 'payload.timestamp' },
      threshold: { component: 'THROTTLE_THRESHOLD', placeholder: 1 },
      throttleKey: { component: 'THROTTLE_KEY', placeholder: '' },
      ...skip,
    },
  },
  // The spec has no UI group for custom steps.
  custom: { properties: { custom: { component: 'DATA', placeholder: null }, ...skip } },
  http_request: {
    group: 'HTTP_REQUEST',
    properties: {
      method: { component: 'DESTINATION_METHOD', placeholder: 'POST' },
      url: { component: 'DESTINATION_URL', placeholder: 'https://api.example.com/endpoint' },
      headers: { component: 'DESTINATION_HEADERS', placeholder: null },
      body: { component: 'DESTINATION_BODY', placeholder: null },
      responseBodySchema: { component: 'DESTINATION_RESPONSE_BODY_SCHEMA', placeholder: null },
      enforceSchemaValidation: { component: 'DESTINATION_ENFORCE_SCHEMA_VALIDATION', placeholder: false },
      continueOnFailure: { component: 'DESTINATION_CONTINUE_ON_FAILURE', placeholder: false },
      timeout: { component: 'DESTINATION_TIMEOUT', placeholder: 5000 },
      ...skip,
    },
  },
};

export function controlsUiSchema(kind: StepKind): UiSchema {
  return structuredClone(UI_SCHEMAS[kind]);
}

// zod cannot express "one of these fields, depending on type"; the step issues enforce those rules and
// the published schema states them with JSON Schema conditionals.
const REQUIREMENTS: Partial<Record<StepKind, JsonSchema>> = {
  in_app: { anyOf: [{ required: ['body'] }, { required: ['subject'] }] },
  email: { required: ['subject', 'body'] },
  sms: { required: ['body'] },
  chat: { required: ['body'] },
  push: { required: ['subject', 'body'] },
  delay: {
    allOf: [
      { if: { properties: { type: { const: 'regular' } } }, then: { required: ['amount', 'unit'] } },
      { if: { properties: { type: { const: 'timed' } }, required: ['type'] }, then: { required: ['cron'] } },
      {
        if: { properties: { type: { enum: ['dynamic', 'scheduled'] } }, required: ['type'] },
        then: { anyOf: [{ required: ['dynamicKey'] }, { required: ['delayPath'] }] },
      },
    ],
  },
  digest: {
    if: {
      anyOf: [
        { properties: { type: { const: 'timed' } }, required: ['type'] },
        { required: ['cron'], not: { required: ['type'] } },
      ],
    },
    then: { required: ['cron'] },
    else: { required: ['amount', 'unit'] },
  },
  throttle: {
    if: { properties: { type: { const: 'dynamic' } }, required: ['type'] },
    then: { required: ['dynamicKey'] },
    else: { required: ['amount', 'unit'] },
  },
};

const dataSchemaCache = new Map<StepKind, JsonSchema>();

/** The JSON Schema of a step kind's control values (`controls.dataSchema`). */
export function controlsDataSchema(kind: StepKind): JsonSchema {
  let schema = dataSchemaCache.get(kind);
  if (!schema) {
    const generated = z.toJSONSchema(CONTROL_SCHEMAS[kind], { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    const { $schema: _dialect, ...rest } = generated;
    const extra = REQUIREMENTS[kind] ?? {};
    const required = [...new Set([...((rest.required as string[] | undefined) ?? []), ...((extra.required as string[] | undefined) ?? [])])];
    schema = { ...rest, ...extra, ...(required.length > 0 ? { required } : {}) };
    dataSchemaCache.set(kind, schema);
  }
  return structuredClone(schema);
}

const DEFAULTS: Record<StepKind, Record<string, unknown>> = {
  in_app: { subject: '', body: '' },
  email: { subject: '', body: '', editorType: 'html' },
  sms: { body: '' },
  push: { subject: '', body: '' },
  chat: { body: '' },
  delay: { type: 'regular', amount: 30, unit: 'seconds' },
  digest: { type: 'regular', amount: 30, unit: 'seconds' },
  throttle: { type: 'fixed', amount: 1, unit: 'minutes', threshold: 1 },
  custom: { custom: {} },
  http_request: {
    method: 'POST',
    url: '',
    headers: [],
    body: [],
    responseBodySchema: { type: 'object', properties: {} },
    enforceSchemaValidation: false,
    continueOnFailure: false,
    timeout: 5000,
  },
};

/** The control values a step created without any starts with (the dashboard's defaults). */
export function defaultControlValues(kind: StepKind): Record<string, unknown> {
  return structuredClone(DEFAULTS[kind]);
}

/**
 * Control values with the schema's defaults applied (delay type `regular`, throttle type `fixed` and
 * threshold 1, ...), for execution. Values the schema rejects are returned as given: their problems are
 * step issues, not something to paper over.
 */
export function withControlDefaults(kind: StepKind, values: Record<string, unknown>): Record<string, unknown> {
  const parsed = CONTROL_SCHEMAS[kind].safeParse(values);
  return parsed.success ? (parsed.data as Record<string, unknown>) : values;
}

/** A step's `controls` block of the workflow response. */
export function controlsMetadata(
  kind: StepKind,
  values: Record<string, unknown>,
): { dataSchema: JsonSchema; uiSchema: UiSchema; values: Record<string, unknown> } {
  return { dataSchema: controlsDataSchema(kind), uiSchema: controlsUiSchema(kind), values };
}

// Step preview (POST /v2/workflows/{workflowId}/step/{stepId}/preview): an example of everything the
// step can read (payload from the schema or from the variables the step uses, a subscriber, earlier
// digest events), merged with what the caller sent, and the step rendered against it.
import type { PreviewPayload, PreviewResponse } from '../../api/schemas/workflow.js';
import { analyzeTemplate, controlTemplates, type Segment } from './analysis.js';
import { withControlDefaults } from './controls-meta.js';
import { exampleFromPaths, payloadExampleFromSchema, schemaFromPaths, type JsonSchema } from './payload.js';
import { renderCustomOutput, renderHttpRequest, renderStep, requestBodyText, type RenderStepOptions } from './render-step.js';
import type { TemplateError } from './template.js';
import { nextCronTime } from './timing.js';
import { translateControls, type TranslationBundle } from './translations.js';
import { buildScope } from './scope.js';
import { isChannelKind, type StepKind, type TemplateScope, type WorkflowDefinition } from './types.js';
import { findStep, resolveSteps, workflowPayloadPaths } from './variables.js';

export class StepNotFoundError extends Error {
  constructor(
    readonly workflowId: string,
    readonly stepId: string,
  ) {
    super(`Step '${stepId}' not found in workflow '${workflowId}'`);
    this.name = 'StepNotFoundError';
  }
}

interface PreviewInput {
  workflow: WorkflowDefinition;
  /** Step id, step database id or step slug. */
  stepId: string;
  /** Preview these instead of the stored control values. */
  controlValues?: Record<string, unknown>;
  previewPayload?: PreviewPayload;
  now: number;
  /**
   * Signs the http_request sample (`svcSignature`) over the text the body would be sent as; the
   * service signs with the environment's secret key. The caller signs: the engine holds no keys.
   */
  sign?: (text: string) => string;
  layouts?: RenderStepOptions['layouts'];
  defaultLayout?: RenderStepOptions['defaultLayout'];
  /** The workflow's texts when its translations are on: `{{t.key}}` reads them in the subscriber's locale. */
  translations?: TranslationBundle;
}

/**
 * The example subscriber: the service's (its preview's full subscriber object, these fields in this
 * order), less its `subscriberId`, which the spec's partial subscriber (the fields `_id` through
 * `timezone`) does not have; templates still read `subscriber.subscriberId` from the scope.
 */
export const EXAMPLE_SUBSCRIBER = {
  firstName: 'John',
  lastName: 'Doe',
  email: 'user@example.com',
  phone: '+1234567890',
  avatar: 'https://example.com/avatar.png',
  locale: 'en_US',
  timezone: 'America/New_York',
  data: {},
};
export const EXAMPLE_SUBSCRIBER_ID = '123456';

/** A JSON Schema describing an example value (for `schema` of the preview answer). */
function schemaOf(value: unknown): JsonSchema {
  if (Array.isArray(value)) return { type: 'array', items: value.length > 0 ? schemaOf(value[0]) : {} };
  if (isObject(value)) {
    return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaOf(v)])), additionalProperties: true };
  }
  if (value === null) return { type: 'null' };
  return { type: typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string' };
}

const DIGEST_EXAMPLE_EVENTS = 3;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The caller's values win; objects merge, anything else (arrays included) replaces. */
function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isObject(base) || !isObject(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge(base[key], value);
  return out;
}

/**
 * The paths a step's templates read, plus the event payload paths its digest filters name
 * (`{{ steps.digest.events | toSentence: "payload.name" }}` reads each event's `payload.name`).
 */
/**
 * The payload paths every use of which has a `default` filter (`{{ payload.appName | default: "Acme" }}`):
 * delivery prints the default while the value is unset, so the example leaves them unset too rather
 * than filling them with a `{{payload.appName}}` placeholder the default never replaces.
 */
function defaultedPaths(controls: Record<string, unknown>): Set<string> {
  const uses = new Map<string, number>();
  const defaulted = new Map<string, number>();
  for (const { source } of controlTemplates(controls)) {
    const analysis = analyzeTemplate(source);
    if (!analysis.ok) continue;
    for (const path of analysis.dataPaths) uses.set(path.join('.'), (uses.get(path.join('.')) ?? 0) + 1);
    for (const filter of analysis.filters) {
      if (filter.name !== 'default' || filter.subject === undefined || filter.args.length === 0) continue;
      defaulted.set(filter.subject, (defaulted.get(filter.subject) ?? 0) + 1);
    }
  }
  return new Set([...defaulted].filter(([path, n]) => n >= (uses.get(path) ?? Number.POSITIVE_INFINITY)).map(([path]) => path));
}

function stepPaths(controls: Record<string, unknown>): Segment[][] {
  const paths: Segment[][] = [];
  for (const { source } of controlTemplates(controls)) {
    const analysis = analyzeTemplate(source);
    if (!analysis.ok) continue;
    paths.push(...analysis.dataPaths);
    for (const filter of analysis.filters) {
      const events = /^steps\.([^.]+)\.events$/.exec(filter.subject ?? '');
      const keyPath = filter.args.find((a) => a.kind === 'string' && a.value.startsWith('payload.'));
      if (events && keyPath?.kind === 'string') paths.push(['steps', events[1] as string, 'events', 0, ...keyPath.value.split('.')]);
    }
  }
  return paths;
}

/** An earlier step's example output (a digest's events carry `eventPayload`), or null when it has none. */
export function earlierStepExample(step: { type: string }, eventPayload: Record<string, unknown>, now: number): Record<string, unknown> | null {
  if (step.type === 'digest') {
    // As the service's: yesterday at noon, then five minutes earlier for each further event.
    const noon = new Date(now - 86_400_000);
    noon.setUTCHours(12, 0, 0, 0);
    const events = Array.from({ length: DIGEST_EXAMPLE_EVENTS }, (_, i) => ({
      id: `example-id-${i + 1}`,
      time: new Date(noon.getTime() - i * 5 * 60_000).toISOString(),
      payload: eventPayload,
    }));
    return { eventCount: events.length, events };
  }
  if (step.type === 'in_app') return { seen: false, read: false, lastSeenDate: null, lastReadDate: null };
  if (step.type === 'delay') return { duration: 0 };
  return null;
}

function describe(error: TemplateError): string {
  const where = error.line !== undefined ? ` (line ${error.line}, column ${error.column})` : '';
  return `${error.control ?? 'template'}${where}: ${error.message}`;
}

function previewError(errors: readonly TemplateError[]): { title: string; message: string; hint: string } {
  const first = errors[0];
  const syntax = errors.some((e) => e.kind === 'syntax');
  return {
    title: syntax ? 'Template syntax error' : 'Template error',
    message: errors.map(describe).join('\n'),
    hint: syntax
      ? `Check the Liquid in ${first?.control ?? 'the template'}: every {{ needs its }}, and every {% if %} or {% for %} its {% endif %} or {% endfor %}.`
      : `Check the variables and filters used in ${first?.control ?? 'the template'}; variables start with subscriber., payload., steps., context., actor., tenant. or env.`,
  };
}

function defined(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** The spec's preview response for one step. Throws StepNotFoundError when there is no such step. */
export function generatePreview(input: PreviewInput): PreviewResponse {
  const steps = resolveSteps(input.workflow);
  const step = findStep(steps, input.stepId);
  if (!step) throw new StepNotFoundError(input.workflow.workflowId, input.stepId);
  const controls = input.controlValues ?? step.controlValues;
  const given = input.previewPayload ?? {};
  const used = stepPaths(controls);
  const declared = isObject(input.workflow.payloadSchema) ? input.workflow.payloadSchema : null;
  const payloadPaths = used.filter((p) => p[0] === 'payload' && p.length > 1).map((p) => p.slice(1));
  const schema: JsonSchema = declared ?? schemaFromPaths(payloadPaths);
  const defaulted = defaultedPaths(controls);
  const payloadBase = declared
    ? payloadExampleFromSchema(declared, input.now)
    : exampleFromPaths(payloadPaths.filter((p) => !defaulted.has(['payload', ...p].join('.'))));
  const payload = merge(payloadBase, given.payload) as Record<string, unknown>;
  const subscriber = merge(EXAMPLE_SUBSCRIBER, given.subscriber) as Record<string, unknown>;
  const subscriberScope = { subscriberId: EXAMPLE_SUBSCRIBER_ID, ...subscriber };

  const exampleSteps: Record<string, unknown> = {};
  for (const earlier of steps.slice(0, step.index)) {
    // A digest's events carry trigger payloads: the schema's example, else what the workflow reads
    // from the payload and what this step reads from the events' payloads.
    const eventPaths = used
      .filter((p) => p[0] === 'steps' && p[1] === earlier.stepId && p[2] === 'events' && typeof p[3] === 'number' && p[4] === 'payload' && p.length > 5)
      .map((p) => p.slice(5));
    const eventPayload = declared
      ? payloadBase
      : (merge(exampleFromPaths(workflowPayloadPaths(input.workflow)), exampleFromPaths(eventPaths)) as Record<string, unknown>);
    const example = earlierStepExample(earlier, eventPayload, input.now);
    if (example) exampleSteps[earlier.stepId] = example;
  }
  // A digest's `eventCount` is always the number of its events, the caller's events included.
  const stepsExample: Record<string, unknown> = {};
  for (const [id, output] of Object.entries(merge(exampleSteps, given.steps) as Record<string, unknown>)) {
    stepsExample[id] = isObject(output) && Array.isArray(output.events) ? { ...output, eventCount: output.events.length } : output;
  }
  const stepsScope = stepsExample;

  const scope: TemplateScope = buildScope({
    subscriber: subscriberScope,
    payload,
    steps: stepsScope,
    context: given.context ?? null,
    env: isObject(given.env) ? given.env : {},
  });
  const previewPayloadExample = defined({
    subscriber,
    payload,
    steps: stepsExample,
    context: given.context,
    env: given.env,
  }) as PreviewPayload;
  // The schema the example follows: the payload's (declared, else inferred from what the step reads),
  // the subscriber's and the earlier steps' outputs.
  const fullSchema: JsonSchema = {
    type: 'object',
    properties: { payload: schema, subscriber: schemaOf(subscriber), steps: schemaOf(stepsExample) },
    additionalProperties: true,
  };

  const response: PreviewResponse = { previewPayloadExample, schema: fullSchema, result: { type: step.type } };
  const values = withControlDefaults(step.type, controls);
  const signed = previewResult(step.type, values, scope, input, subscriber.timezone);
  response.result = signed.result;
  if (signed.svcSignature !== undefined) response.svcSignature = signed.svcSignature;
  return response;
}

/** What the step would do with these control values and scope: its rendered content, or its settings. */
function previewResult(
  type: StepKind,
  values: Record<string, unknown>,
  scope: TemplateScope,
  input: PreviewInput,
  timezone: unknown,
): { result: PreviewResponse['result']; svcSignature?: string } {
  if (isChannelKind(type)) {
    const localized = translateControls(values, input.translations, scope.subscriber?.locale);
    const rendered = renderStep(type, localized, scope, {
      ...(input.layouts && { layouts: input.layouts }),
      ...(input.defaultLayout && { defaultLayout: input.defaultLayout }),
    });
    return {
      result: rendered.ok ? { type, preview: rendered.content as unknown as Record<string, unknown> } : { type, error: previewError(rendered.errors) },
    };
  }
  switch (type) {
    case 'delay': {
      const kind = typeof values.type === 'string' ? values.type : 'regular';
      const preview =
        kind === 'timed'
          ? defined({ type: kind, cron: values.cron, nextRunAt: nextAt(values.cron, input.now, timezone) })
          : kind === 'regular'
            ? defined({ type: kind, amount: values.amount, unit: values.unit })
            : defined({ type: kind, dynamicKey: values.dynamicKey ?? values.delayPath });
      return { result: { type: 'delay', preview } };
    }
    case 'digest': {
      const timed = values.type === 'timed' || (values.type === undefined && typeof values.cron === 'string' && values.cron !== '');
      return {
        result: {
          type: 'digest',
          preview: timed
            ? defined({ type: 'timed', cron: values.cron, digestKey: values.digestKey, nextRunAt: nextAt(values.cron, input.now, timezone) })
            : defined({
                type: values.lookBackWindow ? 'backoff' : 'regular',
                amount: values.amount,
                unit: values.unit,
                digestKey: values.digestKey,
                lookBackWindow: values.lookBackWindow,
              }),
        },
      };
    }
    case 'throttle':
      return {
        result: {
          type: 'throttle',
          preview: defined({
            type: values.type,
            amount: values.amount,
            unit: values.unit,
            dynamicKey: values.dynamicKey,
            threshold: values.threshold,
            throttleKey: values.throttleKey,
          }),
        },
      };
    case 'custom': {
      const output = renderCustomOutput(values, scope);
      return { result: output.ok ? { type: 'custom', preview: output.output } : { type: 'custom', error: previewError(output.errors) } };
    }
    case 'http_request': {
      const rendered = renderHttpRequest(values, scope);
      if (!rendered.ok) return { result: { type: 'http_request', error: previewError(rendered.errors) } };
      const { method, url, headers, body } = rendered.request;
      return {
        result: { type: 'http_request', preview: defined({ method, url, headers, body }) },
        ...(input.sign && { svcSignature: input.sign(requestBodyText(body) ?? '') }),
      };
    }
    default:
      return { result: { type } };
  }
}

function nextAt(cron: unknown, now: number, timezone: unknown): string | undefined {
  if (typeof cron !== 'string' || cron.trim() === '') return undefined;
  const next = nextCronTime(cron, now, typeof timezone === 'string' ? timezone : undefined);
  return next.ok ? new Date(next.at).toISOString() : undefined;
}

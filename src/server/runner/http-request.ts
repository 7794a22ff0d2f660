// The http_request step: the request rendered with Liquid (a JSON body keeps valid JSON), sent from
// `prepare` (never inside a transaction) signed with the environment's secret key, with a timeout and
// retries; loopback targets only unless `--allow-remote-webhooks`. The answer's status and body are the
// step's output (`steps.<id>.status`, `steps.<id>.body`) and the execution detail's `raw`. A failure
// stops the workflow unless `continueOnFailure`.
import type { JsonObject } from '../../api/schemas/common.js';
import { renderHttpRequest, validatePayload, type JsonSchema, type RenderedRequest } from '../engine/index.js';
import { templateErrorsText } from './describe.js';
import { prelude } from './prelude.js';
import type { StepContext, StepHandler, StepResult } from './types.js';
import { deliverWebhook, webhookRaw, type WebhookRequest, type WebhookResult } from './webhook.js';

type Plan = { result: StepResult } | { request: RenderedRequest; send: WebhookRequest };

function plan(ctx: StepContext): Plan {
  return ctx.memo('http_request', (): Plan => {
    const pre = prelude(ctx);
    if (pre) return { result: pre };
    const rendered = renderHttpRequest(ctx.step.controls, ctx.scope());
    if (!rendered.ok) return { result: { status: 'failed', error: templateErrorsText(rendered.errors), source: 'Payload', stop: !continues(ctx) } };
    const r = rendered.request;
    return {
      request: r,
      send: {
        url: r.url,
        method: r.method,
        headers: r.headers,
        body: r.body,
        secret: ctx.environment.apiKey,
        timeoutMs: r.timeoutMs,
        retries: 2,
        allowRemote: ctx.settings.allowRemoteWebhooks,
      },
    };
  });
}

/** ` after 3 attempts`; nothing when none was made (the guard refused the target). */
const attemptsText = (n: number) => (n === 0 ? '' : ` after ${n} attempt${n === 1 ? '' : 's'}`);

const continues = (ctx: StepContext) => ctx.step.controls.continueOnFailure === true;

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function run(ctx: StepContext, sent: WebhookResult): StepResult {
  const { request } = plan(ctx) as Extract<Plan, { request: RenderedRequest }>;
  const body = parseBody(sent.body);
  const output: JsonObject = { status: sent.status ?? null, body: body as JsonObject[string] };
  if (sent.error !== undefined) output.error = sent.error;
  ctx.setOutput(output);
  const raw = webhookRaw(sent);
  const target = `${request.method} ${request.url}`;
  const goOn = continues(ctx) ? ' (continueOnFailure is set: the workflow goes on)' : '';
  if (!sent.ok) {
    const why = sent.status !== undefined ? `answered ${sent.error ?? `HTTP ${sent.status}`}` : `failed: ${sent.error ?? 'no answer'}`;
    return {
      status: 'failed',
      error: `HTTP request ${target} ${why}${attemptsText(sent.attempts)}${goOn}`,
      source: 'Webhook',
      raw,
      stop: !continues(ctx),
    };
  }
  const schema = ctx.step.controls.responseBodySchema;
  if (ctx.step.controls.enforceSchemaValidation === true && schema !== null && typeof schema === 'object') {
    const check = validatePayload(schema as JsonSchema, body);
    if (!check.valid) {
      const problems = check.errors.map((e) => `${e.field || 'body'} ${e.message}`).join('; ');
      return {
        status: 'failed',
        error: `HTTP request ${target}: the response body does not match responseBodySchema: ${problems}${goOn}`,
        source: 'Webhook',
        raw,
        stop: !continues(ctx),
      };
    }
  }
  ctx.detail({ status: 'Success', detail: `HTTP request ${target} answered ${sent.status} in ${sent.durationMs} ms`, source: 'Webhook', raw });
  return { status: 'completed' };
}

export const httpRequestHandler: StepHandler = {
  needsPrepare: (ctx) => 'send' in plan(ctx),
  prepare: async (ctx) => {
    const p = plan(ctx);
    return 'send' in p ? deliverWebhook(p.send) : undefined;
  },
  run(ctx, prepared) {
    const p = plan(ctx);
    if ('result' in p) return p.result;
    return run(ctx, prepared as WebhookResult);
  },
};

// Channel steps (in_app, email, sms, push, chat) through the workflow engine: the prelude (skip,
// filters, preferences, issues), the integration (primary for email and sms, else the first active one
// whose conditions match), the destination (email address, phone number, device tokens, chat webhook
// or endpoint), the controls rendered with Liquid, then the message. Webhook providers
// (`chat-webhook`, `email-webhook`, `push-webhook`) POST the rendered message, signed, from `prepare`;
// the other providers' messages are recorded as sent, since svc dev holds no real provider accounts.
// A destination of the simulator (simulator.ts: `…@simulator.svc.test`, Twilio's magic numbers,
// `simulator-unregistered`) is answered by it instead, whatever the provider, as a provider would.
import { providerMessageId } from '../delivery-reports.js';
import type { Integration, Message } from '../../api/schemas/resources.js';
import {
  WEBHOOK_PROVIDERS,
  chooseIntegration,
  deliveryOverrides,
  integrationByOverride,
  inAppMessageFields,
  renderStep,
  subscriberCredentials,
  webhookTarget,
  type ChannelContent,
  type ChannelKind,
  type UndefinedVariable,
} from '../engine/index.js';
import { CHAT_PUSH_PROVIDER_IDS } from '../../api/enum-values.js';
import { emailLayoutOptions } from '../engine/layout.js';
import type { DetailInput } from '../store/details.js';
import { isoAt } from '../store/repo.js';
import { translateControls } from '../engine/translations.js';
import { templateErrorsText, undefinedVariablesText } from './describe.js';
import { prelude } from './prelude.js';
import {
  isSimulatedSend,
  needsRetries,
  sendSimulated,
  simulateAtOnce,
  simulatedTarget,
  simulatedVerdict,
  type SimulatedSend,
  type SimulatedTarget,
} from './simulated.js';
import type { StepContext, StepHandler, StepRegistry, StepResult } from './types.js';
import { deliverWebhook, webhookRaw, type WebhookRequest, type WebhookResult } from './webhook.js';

interface Delivery {
  integration: Integration;
  messageId: string;
  /** Message fields of the channel: content, subject, destination... */
  fields: Partial<Message>;
  undefinedVariables: UndefinedVariable[];
  /** Set for webhook providers: the request prepare sends. */
  webhook?: WebhookRequest;
  /** Set when a destination is the simulator's: it answers instead of the provider. */
  simulated?: SimulatedTarget;
}

/** What sending a message gave: a webhook provider's answer, or the simulator's answers. */
export type Sent = WebhookResult | SimulatedSend;

type Plan = { result: StepResult } | { delivery: Delivery };

const isWebhookProvider = (providerId: string) => (WEBHOOK_PROVIDERS as readonly string[]).includes(providerId);

/** `https://hooks.example.com/…`: enough to recognise a target in details, never its secret path. */
function targetText(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.length > 1 || u.search ? '/…' : ''}`;
  } catch {
    return 'an invalid URL';
  }
}

type Destination =
  | { fields: Partial<Message>; webhookUrl?: string; secret?: string }
  | { error: string; raw?: string; source?: 'Credentials' | 'Internal' }
  /** The step is skipped, as the service skips it, with this detail saying why. */
  | { skip: DetailInput };

// The service's words for a subscriber without credentials for a push or chat step (its worker's
// DetailEnum): a push step is then skipped, a chat step fails.
export const NO_CONFIGURED_CHANNEL = 'Subscriber does not have a configured channel';
export const PUSH_MISSING_TOKENS = 'Subscriber credentials is missing the tokens for sending a push notification message';
const PUSH_PROVIDERS = new Set<string>(CHAT_PUSH_PROVIDER_IDS.slice(CHAT_PUSH_PROVIDER_IDS.indexOf('fcm')));

/**
 * Push and chat go where the subscriber's credentials are, as the service sends through the integration
 * each stored credential names: of the integrations that could deliver, one the subscriber has
 * credentials for (the usual choice among them), if any.
 */
function withCredentials(ctx: StepContext, kind: ChannelKind, subject: Parameters<typeof chooseIntegration>[2]): Integration | undefined {
  if (kind !== 'push' && kind !== 'chat') return undefined;
  const own = ctx.integrations().filter((i) => subscriberCredentials(ctx.subscriber, i) !== undefined);
  const choice = own.length > 0 ? chooseIntegration(kind, own, subject) : undefined;
  return choice?.ok ? choice.integration : undefined;
}

/** Push: the subscriber's device tokens for the integration; none stored for any push provider skips the step. */
function pushDestination(ctx: StepContext, integration: Integration): Destination {
  const { subscriber } = ctx;
  if (!(subscriber.channels ?? []).some((c) => PUSH_PROVIDERS.has(c.providerId))) {
    return { skip: { status: 'Warning', detail: NO_CONFIGURED_CHANNEL, source: 'Internal', providerId: integration.providerId } };
  }
  const tokens = [...new Set((subscriberCredentials(subscriber, integration)?.deviceTokens ?? []).filter((t) => t !== ''))];
  if (tokens.length > 0) return { fields: { deviceTokens: tokens } };
  const hint = `Subscriber has no device tokens for ${integration.providerId} (integration '${integration.identifier}'): PUT /v1/subscribers/{subscriberId}/credentials, or svc subscribers credentials set`;
  return {
    skip: { status: 'Failed', detail: PUSH_MISSING_TOKENS, source: 'Internal', providerId: integration.providerId, raw: JSON.stringify({ reason: hint }) },
  };
}

/** `toRecipient`: the trigger's `overrides.email.toRecipient`, which replaces the subscriber's address. */
function destination(ctx: StepContext, kind: ChannelKind, integration: Integration, toRecipient?: string): Destination {
  const { subscriber } = ctx;
  const webhook = isWebhookProvider(integration.providerId);
  const target = webhook ? webhookTarget(integration, subscriber) : null;
  if (webhook && !target && kind === 'chat') {
    // No URL of the subscriber's nor of the integration's: for the service, a subscriber without a chat channel.
    return {
      error: NO_CONFIGURED_CHANNEL,
      source: 'Internal',
      raw: JSON.stringify({
        reason: `Integration '${integration.identifier}' (${integration.providerId}) has no webhook URL: set the subscriber's (svc subscribers credentials set) or its credentials.webhookUrl`,
      }),
    };
  }
  if (webhook && !target) {
    return {
      error: `Integration '${integration.identifier}' (${integration.providerId}) has no webhook URL: set its credentials.webhookUrl${kind === 'chat' ? ", or the subscriber's channels[].credentials.webhookUrl" : ''}`,
    };
  }
  const viaWebhook = target ? { webhookUrl: target.url, ...(target.secret !== undefined && { secret: target.secret }) } : {};
  switch (kind) {
    case 'in_app':
      return { fields: {} };
    case 'email': {
      const address = toRecipient ?? subscriber.email;
      return address ? { fields: { email: address }, ...viaWebhook } : { error: 'Subscriber does not have an email address' };
    }
    case 'sms':
      return subscriber.phone ? { fields: { phone: subscriber.phone }, ...viaWebhook } : { error: 'Subscriber does not have a phone number' };
    case 'push': {
      const push = pushDestination(ctx, integration);
      return 'fields' in push ? { ...push, ...viaWebhook } : push;
    }
    case 'chat': {
      const own = subscriberCredentials(subscriber, integration)?.webhookUrl;
      // The integration's own webhookUrl is a credential: the message names only a subscriber's URL.
      if (target) return { fields: target.url === own ? { directWebhookUrl: own } : {}, ...viaWebhook };
      const endpoint = ctx.store.endpoints.ofSubscriber(ctx.environment.id, subscriber.subscriberId, integration.identifier)[0];
      const endpointUrl = (endpoint?.endpoint as { url?: unknown } | undefined)?.url;
      if (own) return { fields: { directWebhookUrl: own } };
      if (endpoint) return { fields: typeof endpointUrl === 'string' ? { directWebhookUrl: endpointUrl } : {} };
      return {
        error: NO_CONFIGURED_CHANNEL,
        source: 'Internal',
        raw: JSON.stringify({
          reason: `Subscriber has no chat destination for ${integration.providerId} (integration '${integration.identifier}'): a webhook URL in their credentials (svc subscribers credentials set) or a channel endpoint`,
        }),
      };
    }
  }
}

function contentFields(kind: ChannelKind, content: ChannelContent[ChannelKind]): Partial<Message> {
  switch (kind) {
    case 'in_app': {
      const f = inAppMessageFields(content as ChannelContent['in_app']);
      return {
        content: f.content,
        cta: f.cta,
        ...(f.subject !== undefined && { subject: f.subject }),
        ...(f.avatar !== undefined && { avatar: f.avatar }),
        ...(f.data !== undefined && { data: f.data }),
      };
    }
    case 'email': {
      const c = content as ChannelContent['email'];
      return { subject: c.subject, content: c.body };
    }
    case 'push': {
      const c = content as ChannelContent['push'];
      return { title: c.subject, content: c.body };
    }
    default:
      return { content: (content as ChannelContent['sms']).body };
  }
}

/** What a webhook provider receives: the rendered message, its destination and where it came from. */
function webhookBody(ctx: StepContext, kind: ChannelKind, messageId: string, fields: Partial<Message>): Record<string, unknown> {
  const { subscriber, notification: n } = ctx;
  const to = kind === 'email' ? fields.email : kind === 'push' ? fields.deviceTokens : kind === 'sms' ? fields.phone : undefined;
  return {
    channel: kind,
    ...(to !== undefined && { to }),
    ...(fields.subject !== undefined && { subject: fields.subject }),
    ...(fields.title !== undefined && { title: fields.title }),
    content: fields.content,
    messageId,
    transactionId: n.transactionId,
    notificationId: n.id,
    workflowId: ctx.workflow.workflowId,
    stepId: ctx.step.stepId,
    subscriber: {
      subscriberId: subscriber.subscriberId,
      ...(subscriber.firstName && { firstName: subscriber.firstName }),
      ...(subscriber.lastName && { lastName: subscriber.lastName }),
      ...(subscriber.email && { email: subscriber.email }),
      ...(subscriber.phone && { phone: subscriber.phone }),
    },
    payload: n.doc.payload,
  };
}

/**
 * Whether an undefined variable was to be printed (`{{ x }}`) rather than tested (`{% if x %}`, where
 * no value is a normal case): the text before it opens an output more recently than a tag.
 */
function printed(controls: Record<string, unknown>, v: UndefinedVariable): boolean {
  let source: unknown = controls;
  for (const key of (v.control ?? '').split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '')) {
    source = source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
  }
  if (typeof source !== 'string') return true;
  const lines = source.split('\n');
  const before = [...lines.slice(0, v.line - 1), (lines[v.line - 1] ?? '').slice(0, v.column - 1)].join('\n');
  return before.lastIndexOf('{{') > before.lastIndexOf('{%');
}

/**
 * `given`: the message content as a code-first workflow's bridge returned it, used as is instead of
 * rendering the step's controls (everything else, integration and destination included, is the same).
 */
export function channelPlan(ctx: StepContext, kind: ChannelKind, given?: ChannelContent[ChannelKind]): Plan {
  return plan(ctx, kind, given);
}

function plan(ctx: StepContext, kind: ChannelKind, given?: ChannelContent[ChannelKind]): Plan {
  return ctx.memo('channel', (): Plan => {
    const pre = prelude(ctx, kind);
    if (pre) return { result: pre };
    const scope = ctx.scope();
    // The trigger's overrides: an integration to deliver through, an email address, an email layout.
    const ov = deliveryOverrides(ctx.notification.doc.overrides, kind, ctx.step.stepId);
    let integration: Integration;
    if (ov.integrationIdentifier !== undefined) {
      const named = integrationByOverride(kind, ctx.integrations(), ov.integrationIdentifier, ov.source.integrationIdentifier!);
      if (!named.ok) return { result: { status: 'failed', error: `MISSING_INTEGRATION: ${named.message}`, source: 'Payload' } };
      integration = named.integration;
    } else {
      const subject = { subscriber: scope.subscriber, payload: scope.payload };
      const choice = chooseIntegration(kind, ctx.integrations(), subject);
      if (!choice.ok) return { result: { status: 'failed', error: `${choice.issue.issueType}: ${choice.issue.message}`, source: 'Credentials' } };
      integration = withCredentials(ctx, kind, subject) ?? choice.integration;
    }
    ctx.setProviderId(integration.providerId);
    const dest = destination(ctx, kind, integration, ov.toRecipient);
    if ('skip' in dest) {
      ctx.detail(dest.skip);
      return { result: { status: 'skipped' } };
    }
    if ('error' in dest)
      return { result: { status: 'failed', error: dest.error, source: dest.source ?? 'Credentials', ...(dest.raw !== undefined && { raw: dest.raw }) } };
    const controls = ov.layoutId !== undefined ? { ...ctx.step.controls, layoutId: ov.layoutId } : ctx.step.controls;
    const rendered =
      given !== undefined
        ? { ok: true as const, content: given, undefinedVariables: [] }
        : renderStep(
            kind,
            translateControls(controls, ctx.store.translations.bundleFor(ctx.workflow), scope.subscriber.locale),
            scope,
            kind === 'email' ? emailLayoutOptions(ctx.store.layouts.all(ctx.environment.id)) : {},
          );
    if (!rendered.ok) return { result: { status: 'failed', error: templateErrorsText(rendered.errors), source: 'Payload' } };
    const messageId = ctx.store.messages.newMessageId();
    const fields = { ...dest.fields, ...contentFields(kind, rendered.content) };
    const undefinedVariables = rendered.undefinedVariables.filter((v) => !ctx.step.defaulted.has(v.variable) && printed(ctx.step.controls, v));
    const delivery: Delivery = { integration, messageId, fields, undefinedVariables };
    const simulated = simulatedTarget(kind, fields, integration.providerId, messageId);
    if (simulated) delivery.simulated = simulated;
    else if (dest.webhookUrl !== undefined) {
      delivery.webhook = {
        url: dest.webhookUrl,
        method: 'POST',
        body: webhookBody(ctx, kind, messageId, fields),
        // Signed with the integration's secretKey, else the environment's secret key: a receiver can
        // always tell the request came from this service.
        secret: dest.secret ?? ctx.environment.apiKey,
        timeoutMs: 5_000,
        retries: 2,
        allowRemote: ctx.settings.allowRemoteWebhooks,
      };
    }
    return { delivery };
  });
}

function message(ctx: StepContext, kind: ChannelKind, d: Delivery, status: Message['status'], errorText?: string, errorId?: string): Message & { _id: string } {
  const { job, notification: n, subscriber, workflow } = ctx;
  const now = isoAt(ctx.clock.now());
  return {
    _id: d.messageId,
    _templateId: workflow._id,
    _environmentId: n.envId,
    _messageTemplateId: job.step._id,
    _organizationId: n.orgId,
    _notificationId: n.id,
    _subscriberId: subscriber._id!,
    _jobId: job.id,
    templateIdentifier: workflow.workflowId,
    createdAt: now,
    updatedAt: now,
    ...(status === 'sent' && { deliveredAt: [now] }),
    transactionId: n.transactionId,
    channel: kind,
    read: false,
    seen: false,
    cta: {},
    _feedId: null,
    status,
    ...(errorId !== undefined && { errorId }),
    ...(errorText !== undefined && { errorText }),
    providerId: d.integration.providerId,
    // The provider's own id of the message, which its delivery reports name.
    identifier: providerMessageId(d.integration.providerId, d.messageId),
    payload: n.doc.payload,
    overrides: n.doc.overrides,
    contextKeys: n.doc.contextKeys,
    ...d.fields,
  };
}

/** Whether sending the message takes network work or pauses, outside the job's transaction. */
function sendsLater(ctx: StepContext, d: Delivery): boolean {
  return d.webhook !== undefined || (d.simulated !== undefined && needsRetries(d.simulated, isoAt(ctx.clock.now())));
}

/** Sends what `sendsLater` said is sent outside the job's transaction; undefined when nothing is. */
export async function sendDelivery(ctx: StepContext, d: Delivery): Promise<Sent | undefined> {
  if (d.webhook) return deliverWebhook(d.webhook);
  if (d.simulated && sendsLater(ctx, d)) return sendSimulated(d.simulated, () => isoAt(ctx.clock.now()));
  return undefined;
}

export function deliver(ctx: StepContext, kind: ChannelKind, d: Delivery, given: Sent | undefined): StepResult {
  const providerId = d.integration.providerId;
  // The service records the start of an in-app delivery as its own step of the job's log.
  if (kind === 'in_app') ctx.detail({ status: 'Pending', detail: 'Start sending message', source: 'Internal', providerId });
  const created = { status: 'Pending' as const, detail: 'Message created', source: 'Internal' as const, providerId };
  // Variables that rendered as nothing are worth knowing about, without a detail of their own.
  if (d.undefinedVariables.length > 0) {
    ctx.detail({ ...created, raw: JSON.stringify({ variablesWithoutValue: undefinedVariablesText(d.undefinedVariables) }) });
  } else {
    ctx.detail(created);
  }
  if (d.simulated) {
    const v = simulatedVerdict(d.simulated, isSimulatedSend(given) ? given : simulateAtOnce(d.simulated, isoAt(ctx.clock.now())));
    for (const detail of v.details) ctx.detail(detail);
    ctx.store.messages.create(ctx.job.id, message(ctx, kind, d, v.message.status, v.message.errorText, v.message.errorId), ctx.job.step._id);
    return v.result;
  }
  const sent = isSimulatedSend(given) ? undefined : given;
  if (sent && !sent.ok) {
    const why = sent.error ?? `HTTP ${sent.status}`;
    ctx.store.messages.create(ctx.job.id, message(ctx, kind, d, 'error', why), ctx.job.step._id);
    return {
      status: 'failed',
      error: `Message not delivered: ${providerId} webhook ${targetText(sent.url)} ${sent.status !== undefined ? `answered ${why}` : `failed: ${why}`}${sent.attempts === 0 ? '' : ` after ${sent.attempts} attempt${sent.attempts === 1 ? '' : 's'}`}`,
      source: 'Webhook',
      raw: webhookRaw({ ...sent, url: targetText(sent.url) }),
    };
  }
  ctx.store.messages.create(ctx.job.id, message(ctx, kind, d, 'sent'), ctx.job.step._id);
  if (sent) {
    ctx.detail({
      status: 'Success',
      detail: `Message sent: ${providerId} webhook ${targetText(sent.url)} answered ${sent.status}`,
      source: 'Webhook',
      providerId,
      raw: webhookRaw({ ...sent, url: targetText(sent.url) }),
    });
  } else {
    ctx.detail({ status: 'Success', detail: 'Message sent', source: 'Internal', providerId });
  }
  if (kind === 'in_app') ctx.setOutput({ seen: false, read: false, lastSeenDate: null, lastReadDate: null });
  return { status: 'completed' };
}

function channelHandler(kind: ChannelKind): StepHandler {
  return {
    needsPrepare: (ctx) => {
      const p = plan(ctx, kind);
      return 'delivery' in p && sendsLater(ctx, p.delivery);
    },
    prepare: async (ctx) => {
      const p = plan(ctx, kind);
      return 'delivery' in p ? sendDelivery(ctx, p.delivery) : undefined;
    },
    run(ctx, prepared) {
      const p = plan(ctx, kind);
      if ('result' in p) return p.result;
      return deliver(ctx, kind, p.delivery, prepared as Sent | undefined);
    },
  };
}

export function registerChannelHandlers(registry: StepRegistry): StepRegistry {
  for (const kind of ['in_app', 'email', 'sms', 'push', 'chat'] as const) registry.register(kind, channelHandler(kind));
  return registry;
}

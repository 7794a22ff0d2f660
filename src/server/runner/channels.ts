// Channel steps, delivered at once: in_app stores an in-app message; email, sms, push and chat pick
// the environment's integration for the channel and record the message as sent through it. Nothing
// leaves the machine: the local service has no provider credentials to deliver with.
import type { JsonObject } from '../../api/schemas/common.js';
import type { Channel } from '../../api/schemas/enums.js';
import type { Integration, Message } from '../../api/schemas/resources.js';
import { iso } from '../clock.js';
import { SERVICE_PROVIDER } from '../store/integrations.js';
import type { StepContext, StepHandler, StepRegistry, StepResult } from './types.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

/** The in-app provider of the service, as its in-app messages name it. */
export const IN_APP_PROVIDER = SERVICE_PROVIDER;

function message(ctx: StepContext, channel: Channel, providerId: string, fields: Partial<Message>): Message & { _id: string } {
  const { job, notification: n, subscriber, workflow } = ctx;
  const now = iso(ctx.clock.now());
  return {
    _id: ctx.store.messages.newMessageId(),
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
    deliveredAt: [now],
    transactionId: n.transactionId,
    channel,
    read: false,
    seen: false,
    cta: {},
    _feedId: null,
    status: 'sent',
    providerId,
    payload: n.doc.payload,
    overrides: n.doc.overrides,
    contextKeys: n.doc.contextKeys,
    ...fields,
  };
}

function deliver(ctx: StepContext, channel: Channel, providerId: string, fields: Partial<Message>): StepResult {
  const m = message(ctx, channel, providerId, fields);
  ctx.setProviderId(providerId);
  ctx.detail({ status: 'Pending', detail: 'Message created', source: 'Internal', providerId });
  ctx.store.messages.create(ctx.job.id, m);
  ctx.detail({ status: 'Success', detail: 'Message sent', source: 'Internal', providerId });
  return { status: 'completed' };
}

function integrationFor(ctx: StepContext, channel: Channel): Integration | string {
  return ctx.store.integrations.forChannel(ctx.environment.id, channel) ?? `No active integration found for channel ${channel}`;
}

const inApp: StepHandler = {
  run(ctx) {
    const c = ctx.controls();
    const primary = obj(c.primaryAction);
    const secondary = obj(c.secondaryAction);
    const buttons = [
      ...(primary ? [{ type: 'primary' as const, content: str(primary.label) ?? '' }] : []),
      ...(secondary ? [{ type: 'secondary' as const, content: str(secondary.label) ?? '' }] : []),
    ];
    const url = str(obj(c.redirect)?.url) ?? str(obj(primary?.redirect)?.url);
    return deliver(ctx, 'in_app', IN_APP_PROVIDER, {
      content: str(c.body) ?? '',
      ...(str(c.subject) !== undefined && { subject: str(c.subject) }),
      ...(str(c.avatar) !== undefined && { avatar: str(c.avatar) }),
      ...(obj(c.data) !== undefined && { data: obj(c.data) }),
      cta: {
        type: 'redirect',
        data: url !== undefined ? { url } : {},
        ...(buttons.length > 0 && { action: { status: 'pending', buttons } }),
      },
    });
  },
};

const email: StepHandler = {
  run(ctx) {
    const integration = integrationFor(ctx, 'email');
    if (typeof integration === 'string') return { status: 'failed', error: integration };
    const to = ctx.subscriber.email;
    if (!to) return { status: 'failed', error: 'Subscriber does not have an email address' };
    const c = ctx.controls();
    const body = c.body;
    return deliver(ctx, 'email', integration.providerId, {
      subject: str(c.subject) ?? '',
      content: typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body),
      email: to,
    });
  },
};

const sms: StepHandler = {
  run(ctx) {
    const integration = integrationFor(ctx, 'sms');
    if (typeof integration === 'string') return { status: 'failed', error: integration };
    const phone = ctx.subscriber.phone;
    if (!phone) return { status: 'failed', error: 'Subscriber does not have a phone number' };
    return deliver(ctx, 'sms', integration.providerId, { content: str(ctx.controls().body) ?? '', phone });
  },
};

const push: StepHandler = {
  run(ctx) {
    const integration = integrationFor(ctx, 'push');
    if (typeof integration === 'string') return { status: 'failed', error: integration };
    const tokens = (ctx.subscriber.channels ?? [])
      .filter((ch) => ch.providerId === integration.providerId)
      .flatMap((ch) => ch.credentials.deviceTokens ?? []);
    if (tokens.length === 0) {
      return { status: 'failed', error: `Subscriber does not have device tokens for provider ${integration.providerId}` };
    }
    const c = ctx.controls();
    return deliver(ctx, 'push', integration.providerId, {
      title: str(c.subject) ?? '',
      content: str(c.body) ?? '',
      deviceTokens: [...new Set(tokens)],
    });
  },
};

const chat: StepHandler = {
  run(ctx) {
    const integration = integrationFor(ctx, 'chat');
    if (typeof integration === 'string') return { status: 'failed', error: integration };
    const setting = (ctx.subscriber.channels ?? []).find((ch) => ch.providerId === integration.providerId && ch.credentials.webhookUrl);
    const endpoint = ctx.store.endpoints.ofSubscriber(ctx.environment.id, ctx.subscriber.subscriberId, integration.identifier)[0];
    if (!setting && !endpoint) {
      return {
        status: 'failed',
        error: `Subscriber has no chat destination for provider ${integration.providerId} (a webhookUrl credential or a channel endpoint)`,
      };
    }
    const webhook = setting?.credentials.webhookUrl ?? str(obj(endpoint?.endpoint)?.url);
    return deliver(ctx, 'chat', integration.providerId, {
      content: str(ctx.controls().body) ?? '',
      ...(webhook !== undefined && { directWebhookUrl: webhook }),
    });
  },
};

export function registerChannelHandlers(registry: StepRegistry): StepRegistry {
  return registry.register('in_app', inApp).register('email', email).register('sms', sms).register('push', push).register('chat', chat);
}

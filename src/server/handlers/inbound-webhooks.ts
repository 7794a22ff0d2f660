// Delivery reports: a provider posts what became of the messages it sent, to the URL of the
// integration that sent them. Each report the provider's reader understands, of a message of the
// environment, adds an execution detail to the message's job (source Webhook) and changes the
// message as the report says (failed, delivered, seen); the answer lists the events read.
import { OBJECT_ID_RE } from '../../core/object-id.js';
import {
  detailStatus,
  messageEffect,
  messageIdOf,
  parseReports,
  providerMessageId,
  readsReports,
  reportDetail,
  type ReportEvent,
} from '../delivery-reports.js';
import { badRequest, notFound } from '../errors.js';
import { isoAt } from '../store/repo.js';
import type { Route } from './types.js';

export const handleInboundWebhook: Route<'handleInboundWebhook'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { environmentId, integrationId } = params as { environmentId: string; integrationId: string };
    const { store } = svc;
    return store.tx(() => {
      // An API key reaches its own environment only: another's integration is not found from it.
      const integration = environmentId === env.id && OBJECT_ID_RE.test(integrationId) ? store.integrations.findById(env.id, integrationId) : undefined;
      if (!integration) throw notFound(`Integration for ${integrationId} was not found`);
      if (!integration.credentials || Object.keys(integration.credentials).length === 0) {
        throw badRequest(`Integration ${integrationId} doesn't have credentials set up`);
      }
      const providerId = integration.providerId;
      if (!readsReports(providerId)) throw notFound(`Provider with ${providerId} can not handle webhooks`);
      const at = isoAt(svc.clock.now());
      const read: { id: string; event: ReportEvent }[] = [];
      for (const { id, event } of parseReports(providerId, body, at)) {
        // A report of a message this environment did not send is left out, as the service leaves it.
        // The provider's id is made from the message's id when sent: read back, and checked against
        // what the message recorded (a message stored before messages kept it: what its provider's would be).
        const messageId = messageIdOf(providerId, id);
        const message = messageId === undefined ? undefined : store.messages.inEnvironment(env.id, messageId);
        if (!message || (message.doc.identifier ?? providerMessageId(String(message.doc.providerId), message.id)) !== id) continue;
        const detail = reportDetail(event);
        store.jobs.addDetail(
          { id: message.jobId, notificationId: message.doc._notificationId },
          { status: detailStatus(message.doc.channel, event.status), detail, source: 'Webhook', providerId, raw: event.row },
        );
        const effect = messageEffect(event.status);
        if (effect) store.messages.applyReport(message.id, effect, detail);
        read.push({ id, event });
      }
      return read;
    });
  },
};

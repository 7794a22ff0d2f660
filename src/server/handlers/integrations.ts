// Integrations: the organisation's active ones, and the primary switch for email and sms.
import { OBJECT_ID_RE } from '../../api/schemas/common.js';
import { badRequest, notFound, unprocessable } from '../errors.js';
import { integrationView } from '../views.js';
import type { Route } from './types.js';

const PRIMARY_CHANNELS = new Set(['email', 'sms']);

export const listActiveIntegrations: Route<'listActiveIntegrations'> = {
  envelope: 'data',
  // Organisation-wide, across environments (ground truth, "Smaller facts").
  handle: ({ svc, env }) => svc.store.integrations.activeOfOrganization(env.orgId).map(integrationView),
};

export const setPrimaryIntegration: Route<'setPrimaryIntegration'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const id = params.integrationId!;
    // The service validates the id before looking: a malformed one is a 422 naming the field.
    if (!OBJECT_ID_RE.test(id)) {
      const messages = ['integrationId must be a mongodb id'];
      throw unprocessable(`Validation failed for setPrimaryIntegration: integrationId: ${messages[0]}`, { integrationId: { messages, value: id } });
    }
    return svc.store.tx(() => {
      const integration = svc.store.integrations.findById(env.id, id);
      if (!integration) throw notFound(`Integration with id ${id} not found`);
      if (!integration.channel || !PRIMARY_CHANNELS.has(integration.channel)) {
        throw badRequest(`Channel ${integration.channel ?? 'none'} does not support primary`);
      }
      // As the service's use case: one that is primary already is answered as it is, untouched.
      if (integration.primary) return integrationView(integration);
      return integrationView(svc.store.integrations.setPrimary(integration));
    });
  },
};

// Integrations: the organisation's (all or the active ones), create and delete in an environment, and
// the primary switch for email and sms.
import { randomBytes } from 'node:crypto';
import { OBJECT_ID_RE } from '../../core/object-id.js';
import { CHANNELS } from '../../api/enum-values.js';
import { SERVICE_PROVIDER } from '../store/integrations.js';
import { badRequest, conflict, HttpError, notFound, unprocessable } from '../errors.js';
import { integrationView } from '../views.js';
import { readsReports } from '../delivery-reports.js';
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

export const listIntegrations: Route<'listIntegrations'> = {
  envelope: 'data',
  // Every integration of the organisation, active or not, across environments, as the service's list
  // ("created in the organization"); no credentials to an API key, as for the active list.
  handle: ({ svc, env }) => svc.store.integrations.ofOrganization(env.orgId).map(integrationView),
};

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

/** A short random suffix in the alphabet and length of the service's generated identifiers. */
function randomSuffix(length = 9): string {
  let out = '';
  for (const b of randomBytes(length)) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}

/** The name lower-cased, accents dropped, anything but letters and digits turned into single dashes. */
function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export const createIntegration: Route<'createIntegration'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    if (body.kind === 'agent') throw badRequest('svc dev runs delivery integrations only: kind agent is not supported');
    const channel = body.channel;
    if (channel === undefined) {
      const messages = [`channel must be one of the following values: ${CHANNELS.join(', ')}`];
      throw unprocessable(`Validation failed for createIntegration: channel: ${messages[0]}`, { channel: { messages, value: undefined } });
    }
    const { store } = svc;
    return store.tx(() => {
      if (
        body.providerId === SERVICE_PROVIDER &&
        channel === 'in_app' &&
        store.integrations.ofEnvironment(env.id).some((i) => i.providerId === SERVICE_PROVIDER && i.channel === 'in_app')
      ) {
        throw badRequest('One environment can only have one In app provider');
      }
      // Identifiers are unique in the organisation, not only in the environment.
      if (body.identifier !== undefined && store.integrations.identifierTakenInOrganization(env.orgId, body.identifier)) {
        throw conflict('Integration with identifier already exists');
      }
      // As the service: the name defaults to the provider id capitalised, the identifier to the name's slug and a random suffix.
      const name = body.name ?? `${body.providerId.charAt(0).toUpperCase()}${body.providerId.slice(1)}`;
      let identifier = body.identifier;
      while (identifier === undefined || (body.identifier === undefined && store.integrations.identifierTakenInOrganization(env.orgId, identifier))) {
        identifier = `${slug(name) || 'integration'}-${randomSuffix()}`;
      }
      // Inactive unless asked. An active email or sms integration becomes its channel's primary when
      // the environment has none yet, as the service's create does; otherwise set-primary makes one so.
      const active = body.active ?? false;
      const primary =
        active && PRIMARY_CHANNELS.has(channel) && !store.integrations.ofEnvironment(env.id).some((i) => i.channel === channel && i.primary === true);
      const created = store.integrations.create(env, {
        name,
        identifier,
        providerId: body.providerId,
        channel,
        active,
        primary,
        ...(body.credentials !== undefined && { credentials: body.credentials }),
        ...(body.conditions !== undefined && { conditions: body.conditions }),
      });
      return integrationView(created);
    });
  },
};

export const deleteIntegration: Route<'deleteIntegration'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const id = params.integrationId!;
    const { store } = svc;
    return store.tx(() => {
      const integration = OBJECT_ID_RE.test(id) ? store.integrations.findByIdInOrganization(env.orgId, id) : undefined;
      if (!integration) throw notFound(`Entity with id ${id} not found`);
      // An API key acts in its own environment only (the service's words).
      if (integration._environmentId !== env.id) {
        throw new HttpError(
          403,
          "API key authentication is scoped to a single environment and cannot delete an integration that belongs to a different environment. Use an API key from the integration's environment, or authenticate with a session token.",
        );
      }
      store.integrations.remove(integration);
      // The environment's integrations that remain, as the service answers.
      return store.integrations.ofEnvironment(env.id).map(integrationView);
    });
  },
};

/**
 * The service asks the integration's provider to send its delivery reports to the integration's
 * inbound webhook URL, and stores the signing key the provider gives back. svc dev never calls a
 * provider, so it answers as the service does when that call fails (success false, saying why),
 * with the URL to point the provider, or a test, at: svc dev reads those reports without a key.
 */
export const autoConfigureIntegration: Route<'autoConfigureIntegration'> = {
  envelope: 'data',
  handle({ svc, env, params, baseUrl }) {
    const id = params.integrationId!;
    const integration = OBJECT_ID_RE.test(id) ? svc.store.integrations.findByIdInOrganization(env.orgId, id) : undefined;
    if (!integration || integration._environmentId !== env.id) throw notFound(`Integration not found, id: ${id}`);
    if (!readsReports(integration.providerId)) {
      return {
        success: false,
        message: 'A support of auto-configuration of inbound webhook is not implemented by provider, manual configuration is required',
      };
    }
    const url = `${baseUrl}/v2/inbound-webhooks/delivery-providers/${integration._environmentId}/${integration._id}`;
    return {
      success: false,
      message: `Auto-configuration failed: svc dev does not call ${integration.providerId} (it runs offline). Post ${integration.providerId}'s delivery reports to ${url}: svc dev reads them without a signing key`,
    };
  },
};

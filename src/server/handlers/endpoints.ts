// Channel endpoints: concrete destinations, their `endpoint` shape fixed by `type`.
import { ENDPOINT_SHAPES } from '../../api/schemas/resources.js';
import { contextKeysOf, type ContextPayload } from '../context-keys.js';
import { conflict, fieldErrors, notFound, unprocessable } from '../errors.js';
import { shortId } from '../issued-ids.js';
import { publicView } from '../store/channels.js';
import { cursorArgs, type Route } from './types.js';

const endpointNotFound = (id: string) => notFound(`Channel endpoint with identifier '${id}' not found`);

export const createChannelEndpoint: Route<'createChannelEndpoint'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const { store } = svc;
    return store.tx(() => {
      const integration = store.integrations.findByIdentifier(env.id, body.integrationIdentifier);
      if (!integration) throw notFound(`Integration with identifier '${body.integrationIdentifier}' not found`);
      if (!store.subscribers.find(env.id, body.subscriberId)) throw notFound(`Subscriber '${body.subscriberId}' was not found`);
      if (body.connectionIdentifier !== undefined && !store.connections.find(env.id, body.connectionIdentifier)) {
        throw notFound(`Channel connection with identifier '${body.connectionIdentifier}' not found`);
      }
      const identifier = body.identifier ?? `chendp_${shortId(12)}`;
      if (store.endpoints.find(env.id, identifier)) throw conflict(`Channel endpoint with identifier '${identifier}' already exists`);
      return store.endpoints.create(env, {
        identifier,
        channel: integration.channel ?? null,
        providerId: integration.providerId as never,
        integrationIdentifier: integration.identifier,
        connectionIdentifier: body.connectionIdentifier ?? null,
        subscriberId: body.subscriberId,
        contextKeys: contextKeysOf(store, env, body.context as ContextPayload | undefined),
        type: body.type,
        endpoint: body.endpoint,
      });
    });
  },
};

export const getChannelEndpoint: Route<'getChannelEndpoint'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const e = svc.store.endpoints.find(env.id, params.identifier!);
    if (!e) throw endpointNotFound(params.identifier!);
    return publicView(e);
  },
};

export const updateChannelEndpoint: Route<'updateChannelEndpoint'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      const e = svc.store.endpoints.find(env.id, params.identifier!);
      if (!e) throw endpointNotFound(params.identifier!);
      // The new endpoint must still fit the endpoint's type.
      const shape = ENDPOINT_SHAPES[e.type].safeParse(body.endpoint);
      if (!shape.success) {
        const errors = Object.fromEntries(
          Object.entries(fieldErrors(shape.error, body.endpoint)).map(([k, v]) => [k === 'general' ? 'endpoint' : `endpoint.${k}`, v]),
        );
        throw unprocessable('Validation Error', errors);
      }
      return svc.store.endpoints.update({ ...e, endpoint: body.endpoint });
    });
  },
};

export const deleteChannelEndpoint: Route<'deleteChannelEndpoint'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    if (!svc.store.endpoints.remove(env.id, params.identifier!)) throw endpointNotFound(params.identifier!);
  },
};

export const listChannelEndpoints: Route<'listChannelEndpoints'> = {
  envelope: 'raw',
  handle: ({ svc, env, query: q }) =>
    svc.store.endpoints.list(env.id, {
      ...cursorArgs(q),
      orderBy: q.orderBy ?? 'createdAt',
      subscriberId: q.subscriberId,
      channel: q.channel,
      providerId: q.providerId,
      integrationIdentifier: q.integrationIdentifier,
      connectionIdentifier: q.connectionIdentifier,
      contextKeys: q.contextKeys,
    }),
};

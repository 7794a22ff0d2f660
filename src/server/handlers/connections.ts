// Channel connections: one per (integration, subscriber, exact context set); `channel` and
// `providerId` come from the integration.
import { shortId } from '../issued-ids.js';
import { contextKeysOf, type ContextPayload } from '../context-keys.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { publicView } from '../store/channels.js';
import { cursorArgs, type Route } from './types.js';

const connectionNotFound = (id: string) => notFound(`Channel connection with identifier '${id}' not found`);

export const createChannelConnection: Route<'createChannelConnection'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const { store } = svc;
    const hasContext = body.context !== undefined && Object.keys(body.context).length > 0;
    // As the service's create use case does, a context without a subscriber (and no mode) is a
    // workspace shared by that context.
    const mode = body.connectionMode ?? (body.subscriberId === undefined && hasContext ? 'shared' : 'subscriber');
    if (mode === 'shared' && !hasContext) throw badRequest("context is required when connectionMode is 'shared'");
    if (mode === 'subscriber' && body.subscriberId === undefined) {
      throw badRequest(
        hasContext
          ? "subscriberId is required when connectionMode is 'subscriber'; use connectionMode 'shared' for a context"
          : 'Either subscriberId or context must be provided',
      );
    }
    return store.tx(() => {
      const integration = store.integrations.findByIdentifier(env.id, body.integrationIdentifier);
      if (!integration) throw notFound(`Integration with identifier '${body.integrationIdentifier}' not found`);
      // A shared connection belongs to its context: the subscriber is not stored.
      const subscriberId = mode === 'shared' ? null : body.subscriberId!;
      if (subscriberId !== null && !store.subscribers.find(env.id, subscriberId)) throw notFound(`Subscriber '${subscriberId}' was not found`);
      const contextKeys = contextKeysOf(store, env, body.context as ContextPayload | undefined);
      const existing = store.connections.findSame(env.id, integration.identifier, subscriberId, contextKeys);
      if (existing) {
        throw conflict(
          `A channel connection for integration '${integration.identifier}' and this ${subscriberId !== null ? `subscriber '${subscriberId}'` : 'context'} already exists: '${existing.identifier}'`,
        );
      }
      const identifier = body.identifier ?? `chconn_${shortId(12)}`;
      if (store.connections.find(env.id, identifier)) throw conflict(`Channel connection with identifier '${identifier}' already exists`);
      return store.connections.create(env, {
        identifier,
        channel: integration.channel ?? null,
        providerId: integration.providerId as never,
        integrationIdentifier: integration.identifier,
        subscriberId,
        contextKeys,
        workspace: body.workspace,
        auth: body.auth,
      });
    });
  },
};

export const updateChannelConnection: Route<'updateChannelConnection'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      const c = svc.store.connections.find(env.id, params.identifier!);
      if (!c) throw connectionNotFound(params.identifier!);
      return svc.store.connections.update({ ...c, workspace: body.workspace, auth: body.auth });
    });
  },
};

export const getChannelConnection: Route<'getChannelConnection'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const c = svc.store.connections.find(env.id, params.identifier!);
    if (!c) throw connectionNotFound(params.identifier!);
    return publicView(c);
  },
};

export const deleteChannelConnection: Route<'deleteChannelConnection'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    if (!svc.store.connections.remove(env.id, params.identifier!)) throw connectionNotFound(params.identifier!);
  },
};

export const listChannelConnections: Route<'listChannelConnections'> = {
  envelope: 'raw',
  handle: ({ svc, env, query: q }) =>
    svc.store.connections.list(env.id, {
      ...cursorArgs(q),
      orderBy: q.orderBy ?? 'createdAt',
      subscriberId: q.subscriberId,
      channel: q.channel,
      providerId: q.providerId,
      integrationIdentifier: q.integrationIdentifier,
      contextKeys: q.contextKeys,
    }),
};

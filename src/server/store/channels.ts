// Channel connections (a chat workspace authorisation for a subscriber or a shared context) and
// channel endpoints (a concrete destination). Both are listed with cursors ordered by createdAt or
// updatedAt, and filtered by exact context-key sets.
import type { Channel, ProviderId } from '../../api/schemas/enums.js';
import type { ChannelConnection, ChannelEndpoint } from '../../api/schemas/resources.js';
import type { Environment } from './environments.js';
import { cursorOptions, cursorPage, type CursorEnvelope } from './paging.js';
import { contextKeySet, parseDoc, Repo } from './repo.js';

interface ChannelListQuery {
  subscriberId?: string | undefined;
  contextKeys?: string[] | undefined;
  channel?: string | undefined;
  providerId?: string | undefined;
  integrationIdentifier?: string | undefined;
  connectionIdentifier?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
  includeCursor?: boolean | undefined;
  limit: number;
  orderBy: 'createdAt' | 'updatedAt';
  orderDirection: 'ASC' | 'DESC';
}

type Stored<T> = T & { _id: string };

interface ChannelInput {
  identifier: string;
  channel: Channel | null;
  providerId: ProviderId | null;
  integrationIdentifier: string;
  subscriberId: string | null;
  contextKeys: string[];
}
interface ConnectionInput extends ChannelInput {
  workspace: { id: string; name?: string | undefined };
  auth: { accessToken: string };
}
interface EndpointInput extends ChannelInput {
  connectionIdentifier: string | null;
  type: ChannelEndpoint['type'];
  endpoint: Record<string, unknown>;
}

abstract class ChannelRepo<T extends ChannelConnection | ChannelEndpoint> extends Repo {
  protected abstract readonly table: string;

  find(envId: string, identifier: string): Stored<T> | undefined {
    const row = this.stmt(`SELECT doc FROM ${this.table} WHERE env_id = ? AND identifier = ?`).get(envId, identifier) as { doc: string } | undefined;
    return row ? parseDoc<Stored<T>>(row.doc) : undefined;
  }

  remove(envId: string, identifier: string): boolean {
    return this.stmt(`DELETE FROM ${this.table} WHERE env_id = ? AND identifier = ?`).run(envId, identifier).changes > 0;
  }

  list(envId: string, q: ChannelListQuery): CursorEnvelope<T> {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    const eq = (col: string, v: string | undefined) => {
      if (v !== undefined) {
        where.push(`${col} = ?`);
        params.push(v);
      }
    };
    eq('subscriber_id', q.subscriberId);
    eq('channel', q.channel);
    eq('provider_id', q.providerId);
    eq('integration_identifier', q.integrationIdentifier);
    if (this.table === 'channel_endpoints') eq('connection_identifier', q.connectionIdentifier);
    if (q.contextKeys !== undefined) eq('context_keys', contextKeySet(q.contextKeys));
    return cursorPage<{ id: string; doc: string }, T>(
      this.db,
      {
        table: this.table,
        where: where.join(' AND '),
        params,
        ...cursorOptions(q, 'created_at'),
      },
      (r) => publicView(parseDoc<Stored<T>>(r.doc)),
    );
  }
}

/** The stored document less the internal `_id`, which the API does not show for these records. */
export function publicView<T>(doc: T & { _id?: string }): T {
  const { _id, ...rest } = doc;
  return rest as T;
}

export class ChannelConnections extends ChannelRepo<ChannelConnection> {
  protected readonly table = 'channel_connections';

  /** The connection for this integration, subscriber and exact context set, if any. */
  findSame(envId: string, integrationIdentifier: string, subscriberId: string | null, contextKeys: string[]): ChannelConnection | undefined {
    const row = this.stmt(
      `SELECT doc FROM channel_connections WHERE env_id = ? AND integration_identifier = ?
       AND subscriber_id IS ? AND context_keys = ? LIMIT 1`,
    ).get(envId, integrationIdentifier, subscriberId, contextKeySet(contextKeys)) as { doc: string } | undefined;
    return row ? parseDoc<ChannelConnection>(row.doc) : undefined;
  }

  create(env: Environment, c: ConnectionInput): ChannelConnection {
    const now = this.nowIso();
    const doc: Stored<ChannelConnection> = { _id: this.newId(), ...c, createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO channel_connections (id, env_id, org_id, identifier, integration_identifier, subscriber_id, context_keys,
       channel, provider_id, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      doc._id,
      env.id,
      env.orgId,
      c.identifier,
      c.integrationIdentifier,
      c.subscriberId,
      contextKeySet(c.contextKeys),
      c.channel,
      c.providerId,
      JSON.stringify(doc),
      now,
      now,
    );
    return publicView(doc);
  }

  update(doc: ChannelConnection & { _id: string }): ChannelConnection {
    const next = { ...doc, updatedAt: this.nowIso() };
    this.stmt('UPDATE channel_connections SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(next), next.updatedAt, next._id);
    return publicView(next);
  }
}

export class ChannelEndpoints extends ChannelRepo<ChannelEndpoint> {
  protected readonly table = 'channel_endpoints';

  create(env: Environment, e: EndpointInput): ChannelEndpoint {
    const now = this.nowIso();
    const doc: Stored<ChannelEndpoint> = { _id: this.newId(), ...e, createdAt: now, updatedAt: now };
    this.stmt(
      `INSERT INTO channel_endpoints (id, env_id, org_id, identifier, integration_identifier, connection_identifier, subscriber_id,
       context_keys, channel, provider_id, type, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      doc._id,
      env.id,
      env.orgId,
      e.identifier,
      e.integrationIdentifier,
      e.connectionIdentifier,
      e.subscriberId,
      contextKeySet(e.contextKeys),
      e.channel,
      e.providerId,
      e.type,
      JSON.stringify(doc),
      now,
      now,
    );
    return publicView(doc);
  }

  update(doc: ChannelEndpoint & { _id: string }): ChannelEndpoint {
    const next = { ...doc, updatedAt: this.nowIso() };
    this.stmt('UPDATE channel_endpoints SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(next), next.updatedAt, next._id);
    return publicView(next);
  }

  /** Endpoints of a subscriber for one integration: chat destinations for delivery. */
  ofSubscriber(envId: string, subscriberId: string, integrationIdentifier: string): ChannelEndpoint[] {
    const rows = this.stmt(
      'SELECT doc FROM channel_endpoints WHERE env_id = ? AND subscriber_id = ? AND integration_identifier = ? ORDER BY created_at, id',
    ).all(envId, subscriberId, integrationIdentifier) as { doc: string }[];
    return rows.map((r) => publicView(parseDoc<ChannelEndpoint & { _id: string }>(r.doc)));
  }
}

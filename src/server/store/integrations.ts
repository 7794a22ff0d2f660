// Delivery provider integrations. `primary` matters for email and sms: it is the integration those
// channels deliver through.
import type { Channel } from '../../api/schemas/enums.js';
import type { Integration, StepFilter } from '../../api/schemas/resources.js';
import type { Environment } from './environments.js';
import type { Clock } from '../clock.js';
import type { Cache, Caches } from './cache.js';
import type { DB } from './db.js';
import { parseDoc, Repo } from './repo.js';

/** The service's own provider id: in-app delivery and the steps it runs itself. */
export const SERVICE_PROVIDER = 'svc';

interface NewIntegration {
  name: string;
  identifier: string;
  providerId: string;
  channel: Channel;
  active: boolean;
  primary: boolean;
  credentials?: Record<string, unknown>;
  /** The subscribers and payloads this integration delivers for (the engine passes it over otherwise). */
  conditions?: StepFilter[];
}

export class Integrations extends Repo {
  /** Each environment's integrations: every channel job chooses among them, every trigger asks which delivers. */
  private readonly byEnvironment: Cache<string, Integration[]>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.byEnvironment = caches.create(100);
  }

  /** Every integration of the environment (active or not), oldest first; shared: treat as read-only. */
  ofEnvironment(envId: string): Integration[] {
    let list = this.byEnvironment.get(envId);
    if (!list) {
      const rows = this.stmt('SELECT doc FROM integrations WHERE env_id = ? ORDER BY created_at, id').all(envId) as { doc: string }[];
      list = rows.map((r) => parseDoc<Integration>(r.doc)).filter((i) => !i.deleted);
      this.byEnvironment.set(envId, list);
    }
    return list;
  }

  create(env: Environment, input: NewIntegration): Integration {
    this.byEnvironment.delete(env.id);
    const now = this.nowIso();
    const doc: Integration = {
      _id: this.newId(),
      _environmentId: env.id,
      _organizationId: env.orgId,
      name: input.name,
      identifier: input.identifier,
      providerId: input.providerId,
      channel: input.channel,
      kind: 'delivery',
      credentials: input.credentials ?? {},
      configurations: {},
      active: input.active,
      deleted: false,
      primary: input.primary,
      conditions: input.conditions ?? [],
      createdAt: now,
      updatedAt: now,
    };
    this.stmt(
      `INSERT INTO integrations (id, env_id, org_id, identifier, provider_id, channel, active, is_primary, doc, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(doc._id, env.id, env.orgId, doc.identifier, doc.providerId, doc.channel, +doc.active, +doc.primary, JSON.stringify(doc), now, now);
    return doc;
  }

  findById(envId: string, id: string): Integration | undefined {
    const row = this.stmt('SELECT doc FROM integrations WHERE env_id = ? AND id = ?').get(envId, id) as { doc: string } | undefined;
    return row ? parseDoc<Integration>(row.doc) : undefined;
  }

  findByIdentifier(envId: string, identifier: string): Integration | undefined {
    const row = this.stmt('SELECT doc FROM integrations WHERE env_id = ? AND identifier = ?').get(envId, identifier) as { doc: string } | undefined;
    return row ? parseDoc<Integration>(row.doc) : undefined;
  }

  /** Every active integration of the organisation, across its environments. */
  activeOfOrganization(orgId: string): Integration[] {
    const rows = this.stmt('SELECT doc FROM integrations WHERE org_id = ? AND active = 1 ORDER BY created_at, id').all(orgId) as {
      doc: string;
    }[];
    return rows.map((r) => parseDoc<Integration>(r.doc));
  }

  /** The integration a channel delivers through: the primary active one, else the oldest active one. Shared: treat as read-only. */
  forChannel(envId: string, channel: Channel): Integration | undefined {
    const active = this.ofEnvironment(envId).filter((i) => i.channel === channel && i.active);
    return active.find((i) => i.primary) ?? active[0];
  }

  /** For subscriber channel settings: by identifier when given, else the first active one of the provider. */
  forProvider(envId: string, providerId: string, identifier?: string): Integration | undefined {
    if (identifier !== undefined) {
      const i = this.findByIdentifier(envId, identifier);
      return i && i.providerId === providerId ? i : undefined;
    }
    const row = this.stmt('SELECT doc FROM integrations WHERE env_id = ? AND provider_id = ? ORDER BY active DESC, created_at, id LIMIT 1').get(
      envId,
      providerId,
    ) as { doc: string } | undefined;
    return row ? parseDoc<Integration>(row.doc) : undefined;
  }

  /**
   * Makes this integration active and primary, and the others of its channel not primary. As in the
   * service, a primary integration has no conditions: they are cleared (a seed file keeps its own).
   */
  setPrimary(integration: Integration, opts: { keepConditions?: boolean } = {}): Integration {
    const now = this.nowIso();
    const others = this.stmt('SELECT doc FROM integrations WHERE env_id = ? AND channel = ? AND is_primary = 1 AND id != ?').all(
      integration._environmentId,
      integration.channel,
      integration._id,
    ) as { doc: string }[];
    for (const r of others) this.save({ ...parseDoc<Integration>(r.doc), primary: false, updatedAt: now });
    const next = { ...integration, primary: true, active: true, ...(!opts.keepConditions && { conditions: [] }), updatedAt: now };
    this.save(next);
    return next;
  }

  /** Every integration of the organisation (active or not), across its environments, oldest first. */
  ofOrganization(orgId: string): Integration[] {
    const rows = this.stmt('SELECT doc FROM integrations WHERE org_id = ? ORDER BY created_at, id').all(orgId) as { doc: string }[];
    return rows.map((r) => parseDoc<Integration>(r.doc)).filter((i) => !i.deleted);
  }

  /** By database id in any environment of the organisation (the caller checks the environment). */
  findByIdInOrganization(orgId: string, id: string): Integration | undefined {
    const row = this.stmt('SELECT doc FROM integrations WHERE org_id = ? AND id = ?').get(orgId, id) as { doc: string } | undefined;
    return row ? parseDoc<Integration>(row.doc) : undefined;
  }

  /** Whether any environment of the organisation has an integration of this identifier. */
  identifierTakenInOrganization(orgId: string, identifier: string): boolean {
    return this.stmt('SELECT 1 FROM integrations WHERE org_id = ? AND identifier = ? LIMIT 1').get(orgId, identifier) !== undefined;
  }

  /**
   * Removes the integration, with the channel connections and endpoints made through it (as the
   * service's remove use case does: they could not deliver without it).
   */
  remove(integration: Integration): void {
    this.byEnvironment.delete(integration._environmentId);
    const envId = integration._environmentId;
    this.stmt('DELETE FROM channel_endpoints WHERE env_id = ? AND integration_identifier = ?').run(envId, integration.identifier);
    this.stmt('DELETE FROM channel_connections WHERE env_id = ? AND integration_identifier = ?').run(envId, integration.identifier);
    this.stmt('DELETE FROM integrations WHERE env_id = ? AND id = ?').run(envId, integration._id);
  }

  private save(doc: Integration): void {
    this.byEnvironment.delete(doc._environmentId);
    this.stmt('UPDATE integrations SET active = ?, is_primary = ?, doc = ?, updated_at = ? WHERE id = ?').run(
      +doc.active,
      +doc.primary,
      JSON.stringify(doc),
      doc.updatedAt,
      doc._id,
    );
  }

  /** Writes an integration's whole document back, its identifier included, with a new update time. */
  replace(doc: Integration): void {
    const now = this.nowIso();
    const next = { ...doc, updatedAt: now };
    this.byEnvironment.delete(doc._environmentId);
    this.stmt('UPDATE integrations SET identifier = ?, active = ?, is_primary = ?, doc = ?, updated_at = ? WHERE id = ?').run(
      next.identifier,
      +next.active,
      +next.primary,
      JSON.stringify(next),
      now,
      doc._id,
    );
  }
}

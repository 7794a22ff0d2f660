// Inbound-email domains and their routes. A domain's name is unique across the service (mail for it
// can reach one environment only); a route's address (a local part, or `*`) is unique on its domain.
// Records are the API's documents, with what is filtered or sorted on as columns.
import type { Domain, DomainRoute } from '../../api/schemas/domains.js';
import type { Environment } from './environments.js';
import { type CursorEnvelope, type CursorQuery, cursorOptions, cursorPage } from './paging.js';
import { parseDoc, Repo } from './repo.js';

interface DocRow {
  id: string;
  doc: string;
}

const likePart = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class Domains extends Repo {
  /** The domain of this name in the environment (names compared without case). */
  find(envId: string, name: string): Domain | undefined {
    const row = this.stmt('SELECT id, doc FROM domains WHERE env_id = ? AND name = ?').get(envId, name.toLowerCase()) as DocRow | undefined;
    return row ? parseDoc<Domain>(row.doc) : undefined;
  }

  /** Whether any environment has a domain of this name. */
  taken(name: string): boolean {
    return this.stmt('SELECT 1 FROM domains WHERE name = ?').get(name.toLowerCase()) !== undefined;
  }

  create(env: Environment, d: Pick<Domain, 'name' | 'status' | 'mxRecordConfigured' | 'expectedDnsRecords' | 'data'>): Domain {
    const now = this.nowIso();
    const doc: Domain = {
      _id: this.newId(),
      ...d,
      name: d.name.toLowerCase(),
      _environmentId: env.id,
      _organizationId: env.orgId,
      createdAt: now,
      updatedAt: now,
    };
    this.stmt('INSERT INTO domains (id, env_id, name, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      doc._id,
      env.id,
      doc.name,
      JSON.stringify(doc),
      now,
      now,
    );
    return doc;
  }

  /** Writes the domain's document back, its updatedAt now. */
  save(d: Domain): Domain {
    const doc = { ...d, updatedAt: this.nowIso() };
    this.stmt('UPDATE domains SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(doc), doc.updatedAt, doc._id);
    return doc;
  }

  /** Removes the domain and its routes. */
  remove(d: Domain): void {
    this.stmt('DELETE FROM domain_routes WHERE domain_id = ?').run(d._id);
    this.stmt('DELETE FROM domains WHERE id = ?').run(d._id);
  }

  list(envId: string, q: CursorQuery & { name?: string | undefined }): CursorEnvelope<Domain> {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    if (q.name !== undefined && q.name !== '') {
      where.push("name LIKE ? ESCAPE '\\'");
      params.push(likePart(q.name.toLowerCase()));
    }
    return cursorPage<DocRow, Domain>(this.db, { table: 'domains', where: where.join(' AND '), params, ...cursorOptions(q, 'created_at') }, (r) =>
      parseDoc<Domain>(r.doc),
    );
  }

  route(domainId: string, address: string): DomainRoute | undefined {
    const row = this.stmt('SELECT id, doc FROM domain_routes WHERE domain_id = ? AND address = ?').get(domainId, address.toLowerCase()) as DocRow | undefined;
    return row ? parseDoc<DomainRoute>(row.doc) : undefined;
  }

  createRoute(d: Domain, r: Pick<DomainRoute, 'address' | 'type' | 'agentId' | 'data'>): DomainRoute {
    const now = this.nowIso();
    const doc: DomainRoute = {
      _id: this.newId(),
      _domainId: d._id,
      ...r,
      address: r.address.toLowerCase(),
      _environmentId: d._environmentId,
      _organizationId: d._organizationId,
      createdAt: now,
      updatedAt: now,
    };
    this.stmt('INSERT INTO domain_routes (id, domain_id, address, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      doc._id,
      d._id,
      doc.address,
      JSON.stringify(doc),
      now,
      now,
    );
    return doc;
  }

  saveRoute(r: DomainRoute): DomainRoute {
    const doc = { ...r, updatedAt: this.nowIso() };
    this.stmt('UPDATE domain_routes SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(doc), doc.updatedAt, doc._id);
    return doc;
  }

  removeRoute(r: DomainRoute): void {
    this.stmt('DELETE FROM domain_routes WHERE id = ?').run(r._id);
  }

  listRoutes(domainId: string, q: CursorQuery & { agentId?: string | undefined }): CursorEnvelope<DomainRoute> {
    const where = ['domain_id = ?'];
    const params: unknown[] = [domainId];
    if (q.agentId !== undefined) {
      where.push("json_extract(doc, '$.agentId') = ?");
      params.push(q.agentId);
    }
    return cursorPage<DocRow, DomainRoute>(this.db, { table: 'domain_routes', where: where.join(' AND '), params, ...cursorOptions(q, 'created_at') }, (r) =>
      parseDoc<DomainRoute>(r.doc),
    );
  }
}

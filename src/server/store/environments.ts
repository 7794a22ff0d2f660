// Organisations, environments and their secret keys. Keys are looked up on every request, so the
// key → environment map is cached; it changes only when environments are added (start-up, seeding).
import { newApiKey } from '../issued-ids.js';
import { Repo } from './repo.js';

export interface Environment {
  id: string;
  orgId: string;
  name: string;
  apiKey: string;
}

export const DEFAULT_ORG_NAME = 'Local organization';
export const DEFAULT_ENV_NAME = 'Development';

export class Environments extends Repo {
  private byKey: Map<string, Environment> | undefined;

  private load(): Map<string, Environment> {
    if (!this.byKey) {
      const rows = this.stmt('SELECT id, org_id AS orgId, name, api_key AS apiKey FROM environments').all() as Environment[];
      this.byKey = new Map(rows.map((e) => [e.apiKey, e]));
    }
    return this.byKey;
  }

  /** The table's rows were replaced as a whole (svc dev reset, snapshot load). */
  forget(): void {
    this.byKey = undefined;
  }

  findByKey(key: string): Environment | undefined {
    return this.load().get(key);
  }

  findById(id: string): Environment | undefined {
    for (const e of this.load().values()) if (e.id === id) return e;
    return undefined;
  }

  findByName(orgId: string, name: string): Environment | undefined {
    for (const e of this.load().values()) if (e.orgId === orgId && e.name === name) return e;
    return undefined;
  }

  /** The first environment of the first organisation: the one `svc dev` prints. */
  defaultEnvironment(): Environment | undefined {
    const row = this.stmt(
      `SELECT e.id, e.org_id AS orgId, e.name, e.api_key AS apiKey FROM environments e
       JOIN organizations o ON o.id = e.org_id ORDER BY o.created_at, o.id, e.created_at, e.id LIMIT 1`,
    ).get() as Environment | undefined;
    return row;
  }

  createOrganization(name: string): string {
    const id = this.newId();
    this.stmt('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, this.nowIso());
    return id;
  }

  create(orgId: string, name: string, apiKey: string = newApiKey()): Environment {
    const env: Environment = { id: this.newId(), orgId, name, apiKey };
    this.stmt('INSERT INTO environments (id, org_id, name, api_key, created_at) VALUES (?, ?, ?, ?, ?)').run(env.id, orgId, name, apiKey, this.nowIso());
    this.byKey = undefined;
    return env;
  }

  setKey(envId: string, apiKey: string): void {
    this.stmt('UPDATE environments SET api_key = ? WHERE id = ?').run(apiKey, envId);
    this.byKey = undefined;
  }

  ofOrganization(orgId: string): Environment[] {
    return [...this.load().values()].filter((e) => e.orgId === orgId);
  }
}

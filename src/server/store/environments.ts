// Organisations, environments and their secret keys. Keys are looked up on every request, so the
// environments are cached (one entry: all of them, a local store has a handful); any write here or a
// rollback (store.caches) drops it. Environments are plain rows: starting the store over restores the
// table and clears the caches, and nothing else remembers them.
import { newApiKey } from '../issued-ids.js';
import type { Cache, Caches } from './cache.js';
import { Repo } from './repo.js';
import type { DB } from './db.js';
import type { Clock } from '../clock.js';

export interface Environment {
  id: string;
  orgId: string;
  name: string;
  apiKey: string;
  /** The environment this one was created from (POST /v1/environments), if any. */
  parentId: string | null;
  color: string | null;
  createdAt: string;
}

export const DEFAULT_ORG_NAME = 'Local organization';
export const DEFAULT_ENV_NAME = 'Development';

const COLUMNS = 'id, org_id AS orgId, name, api_key AS apiKey, parent_id AS parentId, color, created_at AS createdAt';

interface All {
  byKey: Map<string, Environment>;
  byId: Map<string, Environment>;
}

/**
 * Every environment's own records, child tables first: what deleting an environment removes. The
 * activity tables keep ids as bytes (`unhex`); message counts follow the messages by trigger.
 */
const OWN_ROWS = [
  'DELETE FROM jobs WHERE notification_id IN (SELECT id FROM notifications WHERE env_id = unhex(@env))',
  'DELETE FROM messages WHERE env_id = unhex(@env)',
  'DELETE FROM message_counts_env WHERE env_id = unhex(@env)',
  'DELETE FROM message_counts_subscriber WHERE subscriber_id IN (SELECT unhex(id) FROM subscribers WHERE env_id = @env)',
  'DELETE FROM notifications WHERE env_id = unhex(@env)',
  'DELETE FROM subscriber_preferences WHERE subscriber_id IN (SELECT id FROM subscribers WHERE env_id = @env)',
  `DELETE FROM topic_subscription_preferences WHERE subscription_id IN
     (SELECT s.id FROM topic_subscriptions s JOIN topics t ON t.id = s.topic_id WHERE t.env_id = @env)`,
  'DELETE FROM topic_subscriptions WHERE topic_id IN (SELECT id FROM topics WHERE env_id = @env)',
  'DELETE FROM topic_subscribers WHERE topic_id IN (SELECT id FROM topics WHERE env_id = @env)',
  'DELETE FROM domain_routes WHERE domain_id IN (SELECT id FROM domains WHERE env_id = @env)',
  'DELETE FROM domains WHERE env_id = @env',
  ...['subscribers', 'integrations', 'workflows', 'contexts', 'tenants', 'topics', 'channel_connections', 'channel_endpoints', 'inbox_environments'].map(
    (table) => `DELETE FROM ${table} WHERE env_id = @env`,
  ),
  'DELETE FROM layouts WHERE env_id = @env',
  'DELETE FROM environments WHERE id = @env',
];

export class Environments extends Repo {
  private readonly cache: Cache<'all', All>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.cache = caches.create(1);
  }

  private all(): All {
    let all = this.cache.get('all');
    if (!all) {
      const rows = this.stmt(`SELECT ${COLUMNS} FROM environments ORDER BY created_at, id`).all() as Environment[];
      all = { byKey: new Map(rows.map((e) => [e.apiKey, e])), byId: new Map(rows.map((e) => [e.id, e])) };
      this.cache.set('all', all);
    }
    return all;
  }

  findByKey(key: string): Environment | undefined {
    return this.all().byKey.get(key);
  }

  findById(id: string): Environment | undefined {
    return this.all().byId.get(id);
  }

  findByName(orgId: string, name: string): Environment | undefined {
    for (const e of this.all().byId.values()) if (e.orgId === orgId && e.name === name) return e;
    return undefined;
  }

  /** The first environment of the first organisation: the one `svc dev` prints. */
  defaultEnvironment(): Environment | undefined {
    const row = this.stmt(
      `SELECT e.id, e.org_id AS orgId, e.name, e.api_key AS apiKey, e.parent_id AS parentId, e.color, e.created_at AS createdAt
       FROM environments e JOIN organizations o ON o.id = e.org_id ORDER BY o.created_at, o.id, e.created_at, e.id LIMIT 1`,
    ).get() as Environment | undefined;
    return row;
  }

  createOrganization(name: string): string {
    const id = this.newId();
    this.stmt('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run(id, name, this.nowIso());
    return id;
  }

  create(orgId: string, name: string, apiKey: string = newApiKey(), opts: { parentId?: string | undefined; color?: string | undefined } = {}): Environment {
    const env: Environment = { id: this.newId(), orgId, name, apiKey, parentId: opts.parentId ?? null, color: opts.color ?? null, createdAt: this.nowIso() };
    this.stmt('INSERT INTO environments (id, org_id, name, api_key, parent_id, color, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      env.id,
      orgId,
      name,
      apiKey,
      env.parentId,
      env.color,
      env.createdAt,
    );
    this.cache.clear();
    return env;
  }

  setKey(envId: string, apiKey: string): void {
    this.stmt('UPDATE environments SET api_key = ? WHERE id = ?').run(apiKey, envId);
    this.cache.clear();
  }

  /** Changes the given fields (PUT /v1/environments/{id}). */
  update(envId: string, fields: { name?: string | undefined; color?: string | undefined; parentId?: string | undefined }): void {
    this.stmt('UPDATE environments SET name = coalesce(?, name), color = coalesce(?, color), parent_id = coalesce(?, parent_id) WHERE id = ?').run(
      fields.name ?? null,
      fields.color ?? null,
      fields.parentId ?? null,
      envId,
    );
    this.cache.clear();
  }

  /**
   * Gives the environment another application identifier (what its Inbox sessions name); false when
   * another environment has that one. The Inbox's settings cache is the caller's to clear.
   */
  setIdentifier(envId: string, identifier: string): boolean {
    const owner = this.stmt('SELECT env_id FROM inbox_environments WHERE identifier = ?').get(identifier) as { env_id: string } | undefined;
    if (owner) return owner.env_id === envId;
    this.stmt('UPDATE inbox_environments SET identifier = ? WHERE env_id = ?').run(identifier, envId);
    return true;
  }

  /** Deletes the environment with everything that is its own; its key stops working at once. */
  remove(envId: string): void {
    for (const sql of OWN_ROWS) this.stmt(sql).run({ env: envId });
    this.cache.clear();
  }

  ofOrganization(orgId: string): Environment[] {
    return [...this.all().byId.values()].filter((e) => e.orgId === orgId);
  }
}

// Contexts (typed key/value scopes referenced as `type:id`), tenants and topics.
import type { Context } from '../../api/schemas/resources.js';
import type { JsonObject } from '../../api/schemas/common.js';
import type { Environment } from './environments.js';
import { type CursorEnvelope, cursorOptions, cursorPage } from './paging.js';
import { parseDoc, Repo } from './repo.js';

interface ContextRow {
  type: string;
  ctx_id: string;
  data: string;
  created_at: string;
  updated_at: string;
}

const toContext = (r: ContextRow): Context => ({
  type: r.type,
  id: r.ctx_id,
  key: `${r.type}:${r.ctx_id}`,
  data: parseDoc<JsonObject>(r.data),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class Contexts extends Repo {
  find(envId: string, type: string, id: string): Context | undefined {
    const row = this.stmt('SELECT * FROM contexts WHERE env_id = ? AND type = ? AND ctx_id = ?').get(envId, type, id) as ContextRow | undefined;
    return row ? toContext(row) : undefined;
  }

  create(env: Environment, type: string, id: string, data: JsonObject = {}): Context {
    const now = this.nowIso();
    this.stmt('INSERT INTO contexts (id, env_id, org_id, type, ctx_id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      this.newId(),
      env.id,
      env.orgId,
      type,
      id,
      JSON.stringify(data),
      now,
      now,
    );
    return { type, id, key: `${type}:${id}`, data, createdAt: now, updatedAt: now };
  }

  findOrCreate(env: Environment, type: string, id: string, data?: JsonObject): Context {
    return this.find(env.id, type, id) ?? this.create(env, type, id, data);
  }

  /** A cursor page of the environment's contexts: `id` exact, `search` a part of the type or the id. */
  list(
    envId: string,
    q: {
      id?: string | undefined;
      search?: string | undefined;
      orderBy: 'createdAt' | 'updatedAt';
      orderDirection: 'ASC' | 'DESC';
      limit: number;
      after?: string | undefined;
      before?: string | undefined;
      includeCursor?: boolean | undefined;
    },
  ): CursorEnvelope<Context> {
    const where = ['env_id = ?'];
    const params: unknown[] = [envId];
    if (q.id !== undefined) {
      where.push('ctx_id = ?');
      params.push(q.id);
    }
    if (q.search !== undefined && q.search !== '') {
      // A literal part: LIKE's wildcards in the search text match themselves.
      const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("(type LIKE ? ESCAPE '\\' OR ctx_id LIKE ? ESCAPE '\\')");
      params.push(like, like);
    }
    return cursorPage<ContextRow & { id: string }, Context>(
      this.db,
      {
        table: 'contexts',
        where: where.join(' AND '),
        params,
        ...cursorOptions(q, 'created_at'),
      },
      toContext,
    );
  }

  /** Replaces the context's data; undefined when there is no such context. */
  updateData(envId: string, type: string, id: string, data: JsonObject): Context | undefined {
    const now = this.nowIso();
    const r = this.stmt('UPDATE contexts SET data = ?, updated_at = ? WHERE env_id = ? AND type = ? AND ctx_id = ?').run(
      JSON.stringify(data),
      now,
      envId,
      type,
      id,
    );
    return r.changes > 0 ? this.find(envId, type, id) : undefined;
  }

  /** Whether there was such a context to remove. */
  remove(envId: string, type: string, id: string): boolean {
    return this.stmt('DELETE FROM contexts WHERE env_id = ? AND type = ? AND ctx_id = ?').run(envId, type, id).changes > 0;
  }
}

interface Tenant {
  identifier: string;
  name: string | null;
  data: JsonObject;
}

export class Tenants extends Repo {
  find(envId: string, identifier: string): Tenant | undefined {
    const row = this.stmt('SELECT identifier, name, data FROM tenants WHERE env_id = ? AND identifier = ?').get(envId, identifier) as
      | { identifier: string; name: string | null; data: string }
      | undefined;
    return row ? { identifier: row.identifier, name: row.name, data: parseDoc<JsonObject>(row.data) } : undefined;
  }

  upsert(env: Environment, t: { identifier: string; name?: string | undefined; data?: JsonObject | undefined }): Tenant {
    const now = this.nowIso();
    const existing = this.find(env.id, t.identifier);
    if (existing) {
      const next = { identifier: t.identifier, name: t.name ?? existing.name, data: t.data ?? existing.data };
      this.stmt('UPDATE tenants SET name = ?, data = ?, updated_at = ? WHERE env_id = ? AND identifier = ?').run(
        next.name,
        JSON.stringify(next.data),
        now,
        env.id,
        t.identifier,
      );
      return next;
    }
    this.stmt('INSERT INTO tenants (id, env_id, org_id, identifier, name, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      this.newId(),
      env.id,
      env.orgId,
      t.identifier,
      t.name ?? null,
      JSON.stringify(t.data ?? {}),
      now,
      now,
    );
    return { identifier: t.identifier, name: t.name ?? null, data: t.data ?? {} };
  }
}

interface Topic {
  id: string;
  key: string;
  name: string | null;
}

export class Topics extends Repo {
  find(envId: string, key: string): Topic | undefined {
    return this.stmt('SELECT id, key, name FROM topics WHERE env_id = ? AND key = ?').get(envId, key) as Topic | undefined;
  }

  upsert(env: Environment, key: string, name?: string): Topic {
    const existing = this.find(env.id, key);
    if (existing) return existing;
    const now = this.nowIso();
    const id = this.newId();
    this.stmt('INSERT INTO topics (id, env_id, org_id, key, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      id,
      env.id,
      env.orgId,
      key,
      name ?? null,
      now,
      now,
    );
    return { id, key, name: name ?? null };
  }

  subscribe(topicId: string, subscriberDbId: string): void {
    this.stmt('INSERT OR IGNORE INTO topic_subscribers (topic_id, subscriber_id, created_at) VALUES (?, ?, ?)').run(topicId, subscriberDbId, this.nowIso());
  }

  /** External subscriber ids of the topic's subscribers, in subscription order. */
  subscriberIds(topicId: string): string[] {
    const rows = this.stmt(
      `SELECT s.subscriber_id AS id FROM topic_subscribers t JOIN subscribers s ON s.id = t.subscriber_id
       WHERE t.topic_id = ? ORDER BY t.created_at, s.id`,
    ).all(topicId) as { id: string }[];
    return rows.map((r) => r.id);
  }
}

// Email layouts of an environment: the identifier (`layoutId`) and name the service filters and sorts
// on as columns, whether it is the environment's default, and the rest (control values, translation
// switch) as a JSON doc.
import type { EmailLayoutControls } from '../engine/layout.js';
import type { Environment } from './environments.js';
import { parseDoc, Repo } from './repo.js';

export interface StoredLayout {
  _id: string;
  envId: string;
  layoutId: string;
  name: string;
  isDefault: boolean;
  isTranslationEnabled: boolean;
  /** The layout's email controls; null once cleared (`controlValues: null`). */
  email: EmailLayoutControls | null;
  createdAt: string;
  updatedAt: string;
}

interface LayoutRow {
  id: string;
  env_id: string;
  layout_id: string;
  name: string;
  is_default: number;
  doc: string;
  created_at: string;
  updated_at: string;
}

interface LayoutDoc {
  isTranslationEnabled?: boolean;
  email?: EmailLayoutControls | null;
}

const toLayout = (r: LayoutRow): StoredLayout => {
  const doc = parseDoc<LayoutDoc>(r.doc);
  return {
    _id: r.id,
    envId: r.env_id,
    layoutId: r.layout_id,
    name: r.name,
    isDefault: r.is_default === 1,
    isTranslationEnabled: doc.isTranslationEnabled === true,
    email: doc.email ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
};

const ORDER_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name' } as const;

interface NewLayout {
  layoutId: string;
  name: string;
  isDefault: boolean;
  isTranslationEnabled: boolean;
  email: EmailLayoutControls | null;
}

export class Layouts extends Repo {
  /** By `layoutId` or by database id, as the service's routes accept either. */
  find(envId: string, key: string): StoredLayout | undefined {
    const row = this.stmt('SELECT * FROM layouts WHERE env_id = ? AND (layout_id = ? OR id = ?) ORDER BY layout_id = ? DESC LIMIT 1').get(
      envId,
      key,
      key,
      key,
    ) as LayoutRow | undefined;
    return row ? toLayout(row) : undefined;
  }

  findDefault(envId: string): StoredLayout | undefined {
    const row = this.stmt('SELECT * FROM layouts WHERE env_id = ? AND is_default = 1 LIMIT 1').get(envId) as LayoutRow | undefined;
    return row ? toLayout(row) : undefined;
  }

  all(envId: string): StoredLayout[] {
    return (this.stmt('SELECT * FROM layouts WHERE env_id = ? ORDER BY created_at, id').all(envId) as LayoutRow[]).map(toLayout);
  }

  create(env: Environment, input: NewLayout): StoredLayout {
    const now = this.nowIso();
    const id = this.newId();
    const doc: LayoutDoc = { isTranslationEnabled: input.isTranslationEnabled, email: input.email };
    this.stmt('INSERT INTO layouts (id, env_id, org_id, layout_id, name, is_default, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      id,
      env.id,
      env.orgId,
      input.layoutId,
      input.name,
      input.isDefault ? 1 : 0,
      JSON.stringify(doc),
      now,
      now,
    );
    return { _id: id, envId: env.id, ...input, createdAt: now, updatedAt: now };
  }

  update(layout: StoredLayout, change: { name: string; isTranslationEnabled: boolean; email: EmailLayoutControls | null }): StoredLayout {
    const now = this.nowIso();
    const doc: LayoutDoc = { isTranslationEnabled: change.isTranslationEnabled, email: change.email };
    this.stmt('UPDATE layouts SET name = ?, doc = ?, updated_at = ? WHERE id = ?').run(change.name, JSON.stringify(doc), now, layout._id);
    return { ...layout, ...change, updatedAt: now };
  }

  remove(id: string): boolean {
    return this.stmt('DELETE FROM layouts WHERE id = ?').run(id).changes > 0;
  }

  /** A page of the environment's layouts: `query` a part of the name or identifier, any case. */
  list(
    envId: string,
    q: { query?: string | undefined; orderBy: keyof typeof ORDER_COLUMNS; orderDirection: 'ASC' | 'DESC'; limit: number; offset: number },
  ): { layouts: StoredLayout[]; totalCount: number } {
    let where = 'env_id = ?';
    const params: unknown[] = [envId];
    if (q.query !== undefined && q.query !== '') {
      // A literal part: LIKE's wildcards in the search text match themselves.
      const like = `%${q.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where += " AND (name LIKE ? ESCAPE '\\' OR layout_id LIKE ? ESCAPE '\\')";
      params.push(like, like);
    }
    const dir = q.orderDirection === 'ASC' ? 'ASC' : 'DESC';
    const total = this.stmt(`SELECT count(*) AS n FROM layouts WHERE ${where}`).get(...params) as { n: number };
    const rows = this.stmt(`SELECT * FROM layouts WHERE ${where} ORDER BY ${ORDER_COLUMNS[q.orderBy]} ${dir}, id ${dir} LIMIT ? OFFSET ?`).all(
      ...params,
      q.limit,
      q.offset,
    ) as LayoutRow[];
    return { layouts: rows.map(toLayout), totalCount: total.n };
  }
}

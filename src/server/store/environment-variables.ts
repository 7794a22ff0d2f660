// The organisation's environment variables (/v1/environment-variables): one key per organisation,
// with a value per environment, which templates read as `{{env.KEY}}` when a job of that environment
// renders. Every job's render asks for its environment's values, so they are cached by environment;
// any write here (or a rollback, store.caches) drops them.
import type { Clock } from '../clock.js';
import type { Cache, Caches } from './cache.js';
import type { DB } from './db.js';
import { parseDoc, Repo } from './repo.js';

export interface VariableValue {
  _environmentId: string;
  value: string;
}

export interface StoredVariable {
  _id: string;
  _organizationId: string;
  key: string;
  type: 'string';
  isSecret: boolean;
  values: VariableValue[];
  createdAt: string;
  updatedAt: string;
}

interface VariableFields {
  key?: string | undefined;
  type?: 'string' | undefined;
  isSecret?: boolean | undefined;
  values?: VariableValue[] | undefined;
}

export class EnvironmentVariables extends Repo {
  private readonly byEnvironment: Cache<string, Record<string, string>>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.byEnvironment = caches.create(100);
  }

  /** The organisation's variables, newest first; `search` matches part of the key, any case. */
  list(orgId: string, search?: string): StoredVariable[] {
    const rows = this.stmt('SELECT doc FROM environment_variables WHERE org_id = ? ORDER BY created_at DESC, id DESC').all(orgId) as { doc: string }[];
    const needle = search?.toLowerCase();
    return rows.map((r) => parseDoc<StoredVariable>(r.doc)).filter((v) => !needle || v.key.toLowerCase().includes(needle));
  }

  find(orgId: string, key: string): StoredVariable | undefined {
    const row = this.stmt('SELECT doc FROM environment_variables WHERE org_id = ? AND key = ?').get(orgId, key) as { doc: string } | undefined;
    return row ? parseDoc<StoredVariable>(row.doc) : undefined;
  }

  create(orgId: string, fields: VariableFields & { key: string }): StoredVariable {
    const now = this.nowIso();
    const doc: StoredVariable = {
      _id: this.newId(),
      _organizationId: orgId,
      key: fields.key,
      type: fields.type ?? 'string',
      isSecret: fields.isSecret ?? false,
      values: fields.values ?? [],
      createdAt: now,
      updatedAt: now,
    };
    this.stmt('INSERT INTO environment_variables (id, org_id, key, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      doc._id,
      orgId,
      doc.key,
      JSON.stringify(doc),
      now,
      now,
    );
    this.byEnvironment.clear();
    return doc;
  }

  /** The fields given replace the stored ones (the caller has merged `values`). */
  update(stored: StoredVariable, fields: VariableFields): StoredVariable {
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const doc: StoredVariable = { ...stored, ...given, updatedAt: this.nowIso() };
    this.stmt('UPDATE environment_variables SET key = ?, doc = ?, updated_at = ? WHERE id = ?').run(doc.key, JSON.stringify(doc), doc.updatedAt, doc._id);
    this.byEnvironment.clear();
    return doc;
  }

  remove(id: string): void {
    this.stmt('DELETE FROM environment_variables WHERE id = ?').run(id);
    this.byEnvironment.clear();
  }

  /** `{KEY: value}` of one environment (secrets in clear: this is what templates render), shared: read-only. */
  valuesFor(envId: string): Record<string, string> {
    let values = this.byEnvironment.get(envId);
    if (!values) {
      const rows = this.stmt('SELECT doc FROM environment_variables WHERE org_id = (SELECT org_id FROM environments WHERE id = ?)').all(envId) as {
        doc: string;
      }[];
      values = {};
      for (const r of rows) {
        const v = parseDoc<StoredVariable>(r.doc);
        const own = v.values.find((x) => x._environmentId === envId);
        if (own) values[v.key] = own.value;
      }
      this.byEnvironment.set(envId, values);
    }
    return values;
  }
}

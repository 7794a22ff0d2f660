// Translations: one row per resource (a workflow by its identifier, or a layout) and locale, its texts
// as a JSON document. The service keys a group by the resource, so a workflow's texts follow its
// identifier, not its database id.
import type { TranslationResourceType } from '../../api/schemas/translations.js';
import type { TranslationBundle } from '../engine/translations.js';
import type { JsonRecord } from '../engine/types.js';
import type { StoredWorkflow } from './workflows.js';
import { Repo } from './repo.js';

export interface TranslationRecord {
  resourceType: TranslationResourceType;
  resourceId: string;
  locale: string;
  content: JsonRecord;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  resourceType: TranslationResourceType;
  resourceId: string;
  locale: string;
  content: string;
  createdAt: string;
  updatedAt: string;
}

const SELECT =
  'SELECT resource_type AS resourceType, resource_id AS resourceId, locale, content, created_at AS createdAt, updated_at AS updatedAt FROM translations';

const record = (r: Row): TranslationRecord => ({ ...r, content: JSON.parse(r.content) as JsonRecord });

export class Translations extends Repo {
  find(envId: string, type: TranslationResourceType, resourceId: string, locale: string): TranslationRecord | undefined {
    const row = this.stmt(`${SELECT} WHERE env_id = ? AND resource_type = ? AND resource_id = ? AND locale = ?`).get(envId, type, resourceId, locale) as
      | Row
      | undefined;
    return row && record(row);
  }

  /** Every locale of one resource, by locale. */
  group(envId: string, type: TranslationResourceType, resourceId: string): TranslationRecord[] {
    const rows = this.stmt(`${SELECT} WHERE env_id = ? AND resource_type = ? AND resource_id = ? ORDER BY locale`).all(envId, type, resourceId) as Row[];
    return rows.map(record);
  }

  /** Every resource's every locale of the environment (what publishing compares). */
  all(envId: string): TranslationRecord[] {
    const rows = this.stmt(`${SELECT} WHERE env_id = ? ORDER BY resource_type, resource_id, locale`).all(envId) as Row[];
    return rows.map(record);
  }

  /** One locale of every resource of the environment, by type and resource. */
  ofLocale(envId: string, locale: string): TranslationRecord[] {
    const rows = this.stmt(`${SELECT} WHERE env_id = ? AND locale = ? ORDER BY resource_type, resource_id`).all(envId, locale) as Row[];
    return rows.map(record);
  }

  /** Creates the locale's texts or replaces them (keeping when they were first created). */
  put(envId: string, type: TranslationResourceType, resourceId: string, locale: string, content: JsonRecord): TranslationRecord {
    const now = this.nowIso();
    this.stmt(
      `INSERT INTO translations (env_id, resource_type, resource_id, locale, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (env_id, resource_type, resource_id, locale) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
    ).run(envId, type, resourceId, locale, JSON.stringify(content), now, now);
    return this.find(envId, type, resourceId, locale)!;
  }

  remove(envId: string, type: TranslationResourceType, resourceId: string, locale: string): boolean {
    return (
      this.stmt('DELETE FROM translations WHERE env_id = ? AND resource_type = ? AND resource_id = ? AND locale = ?').run(envId, type, resourceId, locale)
        .changes > 0
    );
  }

  removeGroup(envId: string, type: TranslationResourceType, resourceId: string): number {
    return this.stmt('DELETE FROM translations WHERE env_id = ? AND resource_type = ? AND resource_id = ?').run(envId, type, resourceId).changes;
  }

  /** Each locale's texts of one resource, as the engine reads them. */
  contents(envId: string, type: TranslationResourceType, resourceId: string): Record<string, JsonRecord> {
    return Object.fromEntries(this.group(envId, type, resourceId).map((t) => [t.locale, t.content]));
  }

  /**
   * What a workflow's `{{t.key}}` reads when it is rendered: its texts when its translations are on,
   * else nothing (the templates render as written). A code-first workflow translates in its own app.
   */
  bundleFor(workflow: Pick<StoredWorkflow, '_environmentId' | 'workflowId' | 'isTranslationEnabled' | 'origin'>): TranslationBundle | undefined {
    if (!workflow.isTranslationEnabled || workflow.origin === 'external') return undefined;
    return { contents: this.contents(workflow._environmentId, 'workflow', workflow.workflowId) };
  }
}

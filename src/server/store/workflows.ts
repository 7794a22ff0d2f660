// Workflows as created through POST /v2/workflows (or the seed): the steps are kept exactly as given
// (stepId, name, type, controlValues, filters) with a database id each, because the workflow engine
// renders those control values when the steps run. Slugs are the engine's (`<name>_wf_<base62 id>`),
// so the slug a workflow response shows is one GET /v2/workflows/{slug} finds.
import type { SEVERITIES, StepType } from '../../api/schemas/enums.js';
import type { JsonObject } from '../../api/schemas/common.js';
import type { StepFilter } from '../../api/schemas/resources.js';
import { stepSlug, workflowSlug } from '../engine/derived-ids.js';
import type { Environment } from './environments.js';
import type { Clock } from '../clock.js';
import type { Cache, Caches } from './cache.js';
import type { DB } from './db.js';
import { parseDoc, Repo } from './repo.js';

type Severity = (typeof SEVERITIES)[number];

export interface StoredStep {
  _id: string;
  stepId: string;
  slug: string;
  name: string;
  type: StepType;
  controlValues: JsonObject;
  /** Legacy step conditions: the step runs only for subscribers and payloads they match. */
  filters?: StepFilter[] | undefined;
}

export interface WorkflowPreferences {
  all: { enabled: boolean; readOnly: boolean };
  channels: Record<string, { enabled: boolean }>;
}

export interface StoredWorkflow {
  _id: string;
  _environmentId: string;
  _organizationId: string;
  workflowId: string;
  slug: string;
  name: string;
  description?: string | undefined;
  tags: string[];
  active: boolean;
  validatePayload: boolean;
  payloadSchema: JsonObject | null;
  isTranslationEnabled: boolean;
  origin: 'svc-cloud' | 'svc-cloud-v1' | 'external';
  preferences: { user: WorkflowPreferences | null; default: WorkflowPreferences };
  severity: Severity;
  critical: boolean;
  steps: StoredStep[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt?: string | null;
  /** Workflows of origin `external`: the app that serves them (its bridge URL) and what it declared. */
  bridge?: BridgeInfo | undefined;
}

/** What a code-first workflow's bridge declared at discovery: kept to execute and preview it. */
interface BridgeInfo {
  url: string;
  /** Each step's control schema (JSON Schema), by stepId. */
  controlSchemas: Record<string, JsonObject>;
}

export interface NewWorkflow {
  workflowId: string;
  name: string;
  description?: string | undefined;
  tags?: string[] | undefined;
  active?: boolean | undefined;
  validatePayload?: boolean | undefined;
  payloadSchema?: JsonObject | null | undefined;
  isTranslationEnabled?: boolean | undefined;
  preferences?: { user?: WorkflowPreferences | null | undefined; workflow?: WorkflowPreferences | undefined } | undefined;
  severity?: Severity | undefined;
  critical?: boolean | undefined;
  steps: {
    stepId?: string | undefined;
    name: string;
    type: StepType;
    controlValues?: JsonObject | undefined;
    filters?: StepFilter[] | undefined;
  }[];
}

export const DEFAULT_PREFERENCES: WorkflowPreferences = {
  all: { enabled: true, readOnly: false },
  channels: { email: { enabled: true }, sms: { enabled: true }, in_app: { enabled: true }, chat: { enabled: true }, push: { enabled: true } },
};

/** `Comment digest!` → `comment-digest`: how a step without a stepId gets one. */
function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s || 'step';
}

export class Workflows extends Repo {
  /** Parsed documents by database id: every trigger and every job reads its workflow. */
  private readonly parsed: Cache<string, StoredWorkflow>;
  /** Database ids by environment and trigger identifier (every trigger looks one up); hits only. */
  private readonly idByTrigger: Cache<string, string>;
  /** The last_triggered_at written per workflow: a second trigger in the same millisecond writes nothing. */
  private readonly triggeredAt: Cache<string, string>;

  constructor(db: DB, clock: Clock, caches: Caches) {
    super(db, clock);
    this.parsed = caches.create(500);
    this.idByTrigger = caches.create(1000);
    this.triggeredAt = caches.create(500);
  }

  /** A write changed this workflow (or which identifier names which id). */
  private forget(id: string): void {
    this.parsed.delete(id);
    this.idByTrigger.clear();
    this.triggeredAt.delete(id);
  }

  create(env: Environment, input: NewWorkflow): StoredWorkflow {
    const now = this.nowIso();
    const id = this.newId();
    const doc: StoredWorkflow = {
      _id: id,
      _environmentId: env.id,
      _organizationId: env.orgId,
      workflowId: input.workflowId,
      slug: workflowSlug(input.name, id),
      name: input.name,
      description: input.description,
      tags: input.tags ?? [],
      // api-spec.md: `active` defaults to false.
      active: input.active ?? false,
      validatePayload: input.validatePayload ?? false,
      payloadSchema: input.payloadSchema ?? null,
      isTranslationEnabled: input.isTranslationEnabled ?? false,
      origin: 'svc-cloud',
      preferences: { user: input.preferences?.user ?? null, default: input.preferences?.workflow ?? DEFAULT_PREFERENCES },
      severity: input.severity ?? 'none',
      critical: input.critical ?? false,
      steps: uniqueStepIds(input.steps).map((s) => {
        const stepDbId = this.newId();
        return {
          _id: stepDbId,
          stepId: s.stepId,
          slug: stepSlug(s.name, stepDbId),
          name: s.name,
          type: s.type,
          controlValues: s.controlValues ?? {},
          ...(s.filters !== undefined && s.filters.length > 0 && { filters: s.filters }),
        };
      }),
      createdAt: now,
      updatedAt: now,
      lastTriggeredAt: null,
    };
    this.stmt(
      `INSERT INTO workflows (id, env_id, org_id, workflow_id, slug, active, doc, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, env.id, env.orgId, doc.workflowId, doc.slug, +doc.active, JSON.stringify(doc), now, now);
    return doc;
  }

  /**
   * PUT: the workflow's fields and steps replaced. A step keeps its database id (and slug) when the
   * new one names it by `_id` or by `stepId`, so its jobs and messages still point at it.
   */
  replace(
    stored: StoredWorkflow,
    input: Omit<NewWorkflow, 'workflowId'> & { steps: (NewWorkflow['steps'][number] & { _id?: string | undefined })[] },
  ): StoredWorkflow {
    const byDbId = new Map(stored.steps.map((s) => [s._id, s]));
    const byStepId = new Map(stored.steps.map((s) => [s.stepId, s]));
    const steps = uniqueStepIds(input.steps).map((s) => {
      const old = (s._id !== undefined ? byDbId.get(s._id) : undefined) ?? byStepId.get(s.stepId);
      const stepDbId = old?._id ?? this.newId();
      return {
        _id: stepDbId,
        stepId: s.stepId,
        slug: stepSlug(s.name, stepDbId),
        name: s.name,
        type: s.type,
        controlValues: s.controlValues ?? {},
        ...(s.filters !== undefined && s.filters.length > 0 && { filters: s.filters }),
      };
    });
    return this.save({
      ...stored,
      name: input.name,
      description: input.description,
      tags: input.tags ?? [],
      active: input.active ?? stored.active,
      validatePayload: input.validatePayload ?? stored.validatePayload,
      payloadSchema: input.payloadSchema !== undefined ? input.payloadSchema : stored.payloadSchema,
      isTranslationEnabled: input.isTranslationEnabled ?? stored.isTranslationEnabled,
      preferences: input.preferences
        ? { user: input.preferences.user ?? null, default: input.preferences.workflow ?? DEFAULT_PREFERENCES }
        : stored.preferences,
      severity: input.severity ?? stored.severity,
      critical: input.critical ?? stored.critical,
      steps,
    });
  }

  /** PATCH: only the fields given change. */
  patch(
    stored: StoredWorkflow,
    fields: Partial<Pick<StoredWorkflow, 'active' | 'name' | 'description' | 'tags' | 'payloadSchema' | 'validatePayload' | 'isTranslationEnabled'>>,
  ): StoredWorkflow {
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    return this.save({ ...stored, ...given });
  }

  /** Writes a changed document (new update time, slug following the name) and drops the cached copy. */
  private save(doc: StoredWorkflow): StoredWorkflow {
    // The engine keeps its analysis of a workflow by id and update time: a change must move the
    // update time, even two changes within one millisecond.
    const prev = Date.parse(doc.updatedAt);
    const now = Date.parse(this.nowIso()) > prev ? this.nowIso() : new Date(prev + 1).toISOString();
    const { lastTriggeredAt: _t, ...rest } = doc;
    const next: StoredWorkflow = { ...rest, slug: workflowSlug(doc.name, doc._id), updatedAt: now };
    this.forget(doc._id);
    this.stmt('UPDATE workflows SET slug = ?, active = ?, doc = ?, updated_at = ? WHERE id = ?').run(
      next.slug,
      +next.active,
      JSON.stringify(next),
      now,
      doc._id,
    );
    return { ...next, lastTriggeredAt: doc.lastTriggeredAt ?? null };
  }

  /**
   * A deleted layout leaves the email steps that named it (by `layoutId` or database id), as the
   * service does: their `layoutId` is unset, so they take the environment's default.
   */
  dropLayout(envId: string, names: string[]): void {
    const named = (s: StoredStep) => s.type === 'email' && names.includes(s.controlValues.layoutId as string);
    for (const wf of this.all(envId)) {
      if (!wf.steps.some(named)) continue;
      const steps = wf.steps.map((s) => {
        if (!named(s)) return s;
        const { layoutId: _gone, ...controlValues } = s.controlValues;
        return { ...s, controlValues };
      });
      this.save({ ...wf, steps });
    }
  }

  remove(id: string): boolean {
    this.forget(id);
    return this.stmt('DELETE FROM workflows WHERE id = ?').run(id).changes > 0;
  }

  /** Every workflow of the environment, newest first (the list route filters, sorts and pages them). */
  all(envId: string): StoredWorkflow[] {
    const rows = this.stmt('SELECT doc, last_triggered_at AS t FROM workflows WHERE env_id = ? ORDER BY created_at DESC, id DESC').all(envId) as {
      doc: string;
      t: string | null;
    }[];
    return rows.map((r) => ({ ...parseDoc<StoredWorkflow>(r.doc), lastTriggeredAt: r.t }));
  }

  /** A trigger identifier not yet taken in the environment: the one asked for, else it with a suffix. */
  freeTriggerId(envId: string, wanted: string, suffix: () => string): string {
    let id = wanted;
    for (let i = 0; i < 20 && this.findByTrigger(envId, id); i++) id = `${wanted}-${suffix()}`;
    return id;
  }

  /** By trigger identifier, slug or database id. */
  find(envId: string, key: string): StoredWorkflow | undefined {
    const row = this.stmt('SELECT doc, last_triggered_at AS t FROM workflows WHERE env_id = ? AND (workflow_id = ? OR slug = ? OR id = ?) LIMIT 1').get(
      envId,
      key,
      key,
      key,
    ) as { doc: string; t: string | null } | undefined;
    if (!row) return undefined;
    return { ...parseDoc<StoredWorkflow>(row.doc), lastTriggeredAt: row.t };
  }

  /** The stored document, shared between callers (the parsed copy findById keeps): treat it as read-only. */
  findByTrigger(envId: string, identifier: string): StoredWorkflow | undefined {
    const key = `${envId}\n${identifier}`;
    let id = this.idByTrigger.get(key);
    if (id === undefined) {
      const row = this.stmt('SELECT id FROM workflows WHERE env_id = ? AND workflow_id = ?').get(envId, identifier) as { id: string } | undefined;
      if (!row) return undefined;
      id = row.id;
      this.idByTrigger.set(key, id);
    }
    return this.findById(id);
  }

  /** The stored document, shared between callers: treat it as read-only. */
  findById(id: string): StoredWorkflow | undefined {
    const cached = this.parsed.get(id);
    if (cached) return cached;
    const row = this.stmt('SELECT doc FROM workflows WHERE id = ?').get(id) as { doc: string } | undefined;
    if (!row) return undefined;
    const doc = parseDoc<StoredWorkflow>(row.doc);
    this.parsed.set(id, doc);
    return doc;
  }

  /**
   * A workflow discovered from a bridge: created with origin `external`, or the external one of that
   * workflowId replaced (its steps keep their database ids by stepId). The caller has checked that the
   * workflowId is not taken by a workflow of another origin.
   */
  upsertExternal(env: Environment, input: NewWorkflow, bridge: BridgeInfo): StoredWorkflow {
    const existing = this.findByTrigger(env.id, input.workflowId);
    if (!existing) return this.save({ ...this.create(env, { ...input, active: true }), origin: 'external', bridge });
    // What was set here rather than in the app's code outlives a new discovery: each step's control
    // values (a step of the same id and type) and whether the payload is checked at trigger time.
    const kept = new Map(existing.steps.map((s) => [s.stepId, s]));
    const steps = input.steps.map((s) => {
      const old = s.stepId !== undefined ? kept.get(s.stepId) : undefined;
      return old && old.type === s.type ? { ...s, controlValues: old.controlValues } : s;
    });
    const base = this.replace(existing, { ...input, steps, active: true, validatePayload: input.validatePayload ?? existing.validatePayload });
    return this.save({ ...base, origin: 'external', bridge });
  }

  /**
   * A code-first workflow's control values, as the dashboard stores them (PUT /v2/workflows/{id}):
   * its steps stay those its app declares; `controlValues` maps a stepId to the step's new values.
   */
  setControlValues(
    stored: StoredWorkflow,
    controlValues: ReadonlyMap<string, JsonObject>,
    fields: Partial<Pick<StoredWorkflow, 'validatePayload' | 'active'>>,
  ): StoredWorkflow {
    const steps = stored.steps.map((s) => (controlValues.has(s.stepId) ? { ...s, controlValues: controlValues.get(s.stepId)! } : s));
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    return this.save({ ...stored, ...given, steps });
  }

  /** Records the trigger's time. */
  markTriggered(id: string): void {
    const now = this.nowIso();
    if (this.triggeredAt.get(id) === now) return;
    this.stmt('UPDATE workflows SET last_triggered_at = ? WHERE id = ?').run(now, id);
    this.triggeredAt.set(id, now);
  }
}

/** Step ids default to the slug of the name; a repeated one gets `-2`, `-3`, ... */
function uniqueStepIds<T extends { stepId?: string | undefined; name: string }>(steps: T[]): (T & { stepId: string })[] {
  const seen = new Set<string>();
  return steps.map((s) => {
    const base = s.stepId ?? slugify(s.name);
    let id = base;
    for (let n = 2; seen.has(id); n++) id = `${base}-${n}`;
    seen.add(id);
    return { ...s, stepId: id };
  });
}

// Between environments, as the service does it: an environment's workflow tags, the diff of a source
// environment's workflows against a target's (by workflowId: added, modified with the workflow's and
// each step's changes, deleted), publishing them (created, updated, skipped when equal, and a target
// workflow the source no longer has deleted), one workflow's sync, and one step's data. Code-first
// workflows are not moved: each environment's app serves its own. Layouts and translations go along
// (publish-resources.ts), layouts first so an email step finds its layout in the target. The source is the caller's
// environment (or `sourceEnvironmentId`); both ends must be reachable by the caller's key.
import type { StepResponse } from '../../api/schemas/workflow.js';
import type { EnvironmentDiff, PublishResult, ResourceDiff, ResourceDiffResult, SyncResult } from '../../api/schemas/environment-variables.js';
import { badRequest, HttpError, reason } from '../errors.js';
import type { Environment, Store } from '../store/index.js';
import type { StoredStep, StoredWorkflow } from '../store/workflows.js';
import { workflowResponse } from '../workflow/runtime.js';
import { reachableEnvironment } from './environment-variables.js';
import { canon, diffLayouts, diffTranslations, publishLayouts, publishTranslations } from './publish-resources.js';
import type { Route } from './types.js';
import { workflowNotFound } from './workflows.js';

/** What publishing copies of a workflow, besides its steps. */
function workflowFields(w: StoredWorkflow): Record<string, unknown> {
  return {
    name: w.name,
    description: w.description ?? null,
    tags: w.tags,
    active: w.active,
    validatePayload: w.validatePayload,
    payloadSchema: w.payloadSchema,
    isTranslationEnabled: w.isTranslationEnabled,
    preferences: w.preferences,
    severity: w.severity,
    critical: w.critical,
  };
}

const stepFields = (s: StoredStep) => ({ name: s.name, type: s.type, controlValues: s.controlValues, filters: s.filters ?? [] });

/** Only the fields that differ, before and after. */
function changed(previous: Record<string, unknown>, next: Record<string, unknown>) {
  const keys = Object.keys(next).filter((k) => canon(previous[k]) !== canon(next[k]));
  if (keys.length === 0) return null;
  return { previous: Object.fromEntries(keys.map((k) => [k, previous[k]])), new: Object.fromEntries(keys.map((k) => [k, next[k]])) };
}

const info = (w: { workflowId?: string; stepId?: string; name: string; updatedAt?: string }) => ({
  id: w.workflowId ?? w.stepId ?? null,
  name: w.name,
  ...(w.updatedAt !== undefined && { updatedAt: w.updatedAt }),
});

function stepChanges(source: StoredWorkflow, target: StoredWorkflow): ResourceDiff[] {
  const out: ResourceDiff[] = [];
  const targetIndex = new Map(target.steps.map((s, i) => [s.stepId, i]));
  source.steps.forEach((s, i) => {
    const j = targetIndex.get(s.stepId);
    const base = { resourceType: 'step', stepType: s.type, sourceResource: info(s) };
    if (j === undefined) {
      out.push({ ...base, targetResource: null, action: 'added', newIndex: i });
      return;
    }
    const t = target.steps[j]!;
    const diffs = changed(stepFields(t), stepFields(s));
    if (diffs) out.push({ ...base, targetResource: info(t), action: 'modified', diffs, previousIndex: j, newIndex: i });
    else if (i !== j) out.push({ ...base, targetResource: info(t), action: 'moved', previousIndex: j, newIndex: i });
  });
  target.steps.forEach((t, j) => {
    if (!source.steps.some((s) => s.stepId === t.stepId)) {
      out.push({ resourceType: 'step', stepType: t.type, sourceResource: null, targetResource: info(t), action: 'deleted', previousIndex: j });
    }
  });
  return out;
}

function summary(changes: ResourceDiff[]) {
  const count = (...actions: string[]) => changes.filter((c) => actions.includes(c.action)).length;
  return { added: count('added'), modified: count('modified', 'moved'), deleted: count('deleted'), unchanged: count('unchanged') };
}

/** The workflows publishing moves: those made through the API or the dashboard, not an app's code. */
const movable = (store: Store, envId: string) => store.workflows.all(envId).filter((w) => w.origin !== 'external');

/** One result per workflow that differs between the two environments. */
export function diffWorkflows(sources: StoredWorkflow[], targets: StoredWorkflow[]): ResourceDiffResult[] {
  const results: ResourceDiffResult[] = [];
  const targetById = new Map(targets.map((w) => [w.workflowId, w]));
  for (const s of sources) {
    const t = targetById.get(s.workflowId);
    let changes: ResourceDiff[];
    if (!t) changes = [{ resourceType: 'workflow', sourceResource: info(s), targetResource: null, action: 'added' }];
    else {
      const diffs = changed(workflowFields(t), workflowFields(s));
      changes = [
        ...(diffs ? [{ resourceType: 'workflow', sourceResource: info(s), targetResource: info(t), action: 'modified' as const, diffs }] : []),
        ...stepChanges(s, t),
      ];
    }
    if (changes.length > 0) {
      results.push({ resourceType: 'workflow', sourceResource: info(s), targetResource: t ? info(t) : null, changes, summary: summary(changes) });
    }
  }
  for (const t of targets) {
    if (sources.some((s) => s.workflowId === t.workflowId)) continue;
    const changes: ResourceDiff[] = [{ resourceType: 'workflow', sourceResource: null, targetResource: info(t), action: 'deleted' }];
    results.push({ resourceType: 'workflow', sourceResource: null, targetResource: info(t), changes, summary: summary(changes) });
  }
  return results;
}

/** The two ends of a diff or publish: distinct, of the caller's organisation, reachable by its key. */
function ends(store: Store, caller: Environment, targetId: string, sourceId: string | undefined) {
  const source = sourceId === undefined || sourceId === '' ? caller : reachableEnvironment(store, caller, sourceId, 'Source environment');
  const target = reachableEnvironment(store, caller, targetId, 'Target environment');
  if (source.id === target.id) throw badRequest('Source and target environments cannot be the same');
  return { source, target };
}

/** The source workflow written into the target environment: created, or the target's replaced (its steps keep their ids by stepId). */
function copyWorkflow(store: Store, target: Environment, source: StoredWorkflow, existing: StoredWorkflow | undefined): StoredWorkflow {
  const input = {
    name: source.name,
    description: source.description,
    tags: source.tags,
    active: source.active,
    validatePayload: source.validatePayload,
    payloadSchema: source.payloadSchema,
    isTranslationEnabled: source.isTranslationEnabled,
    preferences: { user: source.preferences.user, workflow: source.preferences.default },
    severity: source.severity,
    critical: source.critical,
    steps: source.steps.map((s) => ({ stepId: s.stepId, name: s.name, type: s.type, controlValues: s.controlValues, filters: s.filters })),
  };
  if (existing) return store.workflows.replace(existing, input);
  return store.workflows.create(target, { ...input, workflowId: source.workflowId });
}

export const diffEnvironment: Route<'diffEnvironment'> = {
  envelope: 'data',
  handle({ svc, env, params, body }): EnvironmentDiff {
    const { store } = svc;
    const { source, target } = ends(store, env, params.targetEnvironmentId!, body?.sourceEnvironmentId);
    const resources = [
      ...diffLayouts(store, source.id, target.id),
      ...diffWorkflows(movable(store, source.id), movable(store, target.id)),
      ...diffTranslations(store, source.id, target.id),
    ];
    const totalChanges = resources.reduce((n, r) => n + r.summary.added + r.summary.modified + r.summary.deleted, 0);
    return {
      sourceEnvironmentId: source.id,
      targetEnvironmentId: target.id,
      resources,
      summary: { totalEntities: resources.length, totalChanges, hasChanges: totalChanges > 0 },
    };
  },
};

export const publishEnvironment: Route<'publishEnvironment'> = {
  envelope: 'data',
  handle({ svc, env, params, body }): PublishResult {
    const { store } = svc;
    const { source, target } = ends(store, env, params.targetEnvironmentId!, body?.sourceEnvironmentId);
    const chosen = body?.resources?.map((r) => r.resourceId);
    const sources = movable(store, source.id).filter((w) => !chosen || chosen.includes(w.workflowId) || chosen.includes(w._id));
    const result: SyncResult = { resourceType: 'workflow', successful: [], failed: [], skipped: [], totalProcessed: 0 };
    const scope = { dryRun: body?.dryRun === true, chosen };
    let others: SyncResult[] = [];
    if (body?.dryRun) {
      others = [publishLayouts(store, source, target, scope), publishTranslations(store, source, target, scope)];
      result.skipped = sources.map((w) => ({ resourceType: 'workflow', resourceId: w.workflowId, resourceName: w.name, reason: 'Dry run mode' }));
    } else {
      store.tx(() => {
        // Layouts first: a workflow's email step names its layout in the target too.
        others = [publishLayouts(store, source, target, scope), publishTranslations(store, source, target, scope)];
        const targets = movable(store, target.id);
        const differs = new Set(diffWorkflows(sources, targets).map((r) => r.sourceResource?.id));
        for (const w of sources) {
          const existing = targets.find((t) => t.workflowId === w.workflowId);
          const entry = { resourceType: 'workflow', resourceId: w.workflowId, resourceName: w.name };
          if (existing && !differs.has(w.workflowId)) result.skipped.push({ ...entry, reason: 'No changes detected' });
          else {
            copyWorkflow(store, target, w, existing);
            result.successful.push({ ...entry, action: existing ? 'updated' : 'created' });
          }
        }
        // What the source no longer has leaves the target too (a whole publish only, and active ones, as the service does).
        if (chosen) return;
        for (const t of targets) {
          if (t.active && !sources.some((s) => s.workflowId === t.workflowId)) {
            store.workflows.remove(t._id);
            result.successful.push({ resourceType: 'workflow', resourceId: t.workflowId, resourceName: t.name, action: 'deleted' });
          }
        }
      });
    }
    result.totalProcessed = result.successful.length + result.failed.length + result.skipped.length;
    const results = [result, ...others];
    const total = (f: (r: SyncResult) => number) => results.reduce((n, r) => n + f(r), 0);
    return {
      results,
      summary: {
        resources: total((r) => r.totalProcessed),
        successful: total((r) => r.successful.length),
        failed: total((r) => r.failed.length),
        skipped: total((r) => r.skipped.length),
      },
    };
  },
};

export const syncWorkflow: Route<'syncWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    const { store } = svc;
    return store.tx(() => {
      const wf = store.workflows.find(env.id, params.workflowId!);
      if (!wf) throw workflowNotFound(params.workflowId!);
      const target = reachableEnvironment(store, env, body.targetEnvironmentId, 'Environment');
      if (target.id === env.id) throw badRequest('Cannot sync workflow to the same environment');
      if (wf.origin === 'external') throw badRequest(`Workflow ${wf.workflowId} is served by your app's code (code-first): sync it from the app instead`);
      const existing = store.workflows.findByTrigger(target.id, wf.workflowId);
      return workflowResponse(store, copyWorkflow(store, target, wf, existing));
    });
  },
};

export const getWorkflowStep: Route<'getWorkflowStep'> = {
  envelope: 'data',
  handle({ svc, env, params }): StepResponse {
    const wf = svc.store.workflows.find(env.id, params.workflowId!);
    if (!wf) throw workflowNotFound(params.workflowId!);
    const stepId = params.stepId!;
    const step = workflowResponse(svc.store, wf).steps.find((s) => s.stepId === stepId || s._id === stepId || s.slug === stepId);
    if (!step) throw new HttpError(404, 'Step cannot be found', { ctx: { error: reason(404), statusCode: 404, stepId, workflowId: wf.workflowId } });
    return step;
  },
};

export const getEnvironmentTags: Route<'getEnvironmentTags'> = {
  envelope: 'data',
  handle({ svc, env, params }) {
    const { store } = svc;
    const key = params.environmentId!;
    // By database id, or by the application identifier the Inbox names.
    const byIdentifier = store.environments.ofOrganization(env.orgId).find((e) => store.inbox.settings(e.id).identifier === key);
    const target = reachableEnvironment(store, env, byIdentifier?.id ?? key);
    const tags = new Set(store.workflows.all(target.id).flatMap((w) => w.tags));
    return [...tags].map((name) => ({ name }));
  },
};

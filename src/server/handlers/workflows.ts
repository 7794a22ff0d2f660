// Workflows: create (POST /v2/workflows), list, update (PUT), patch, delete, retrieve by trigger
// identifier, slug or id, and the step preview. Retrieval answers the workflow engine's full shape (controls metadata, variables, issues
// against the environment's integrations, status); the preview renders the step with the engine.
import { z } from 'zod';
import { StepFilter } from '../../api/schemas/resources.js';
import type { ListWorkflowsResponse, PreviewResponse, Workflow, WorkflowListItem } from '../../api/schemas/workflow.js';
import type { JsonObject } from '../../api/schemas/common.js';
import { StepNotFoundError, generatePreview, validatePayload, type JsonSchema } from '../engine/index.js';
import { badRequest, fieldErrors, HttpError, notFound, reason, unprocessable } from '../errors.js';
import { shortId } from '../issued-ids.js';
import { signature } from '../outbound/index.js';
import { emailLayoutOptions } from '../engine/layout.js';
import type { StoredWorkflow } from '../store/workflows.js';
import { workflowResponse, workflowRuntime } from '../workflow/runtime.js';
import type { Call, Route, Service } from './types.js';

const StepFilters = z.array(StepFilter);

/** The service's 404 for a workflow: the id it looked for is in `ctx.workflowId` (and at the top level). */
export function workflowNotFound(workflowId: string): HttpError {
  return new HttpError(404, 'Workflow cannot be found', { ctx: { error: reason(404), statusCode: 404, workflowId } });
}

/** The create/update body's steps, with `filters` checked (the body lets unknown step fields through). */
function checkedSteps<S extends { stepId?: string | undefined; filters?: unknown }>(steps: S[]) {
  const ids = steps.map((s) => s.stepId).filter((s): s is string => s !== undefined);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) throw badRequest(`Step id '${dup}' is used by more than one step`);
  // `filters` is a step field the engine reads, so it is checked here rather than failing every job later.
  return steps.map((s, i) => {
    if (s.filters === undefined) return { ...s, filters: undefined };
    const parsed = StepFilters.safeParse(s.filters);
    if (!parsed.success) {
      const errors = Object.fromEntries(
        Object.entries(fieldErrors(parsed.error, s.filters)).map(([k, v]) => [k === 'general' ? `steps.${i}.filters` : `steps.${i}.filters.${k}`, v]),
      );
      throw unprocessable('Validation Error', errors);
    }
    return { ...s, filters: parsed.data };
  });
}

export const createWorkflow: Route<'createWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const steps = checkedSteps(body.steps);
    return svc.store.tx(() => {
      // As the service does, a workflowId already taken gets a suffix rather than a conflict.
      const workflowId = svc.store.workflows.freeTriggerId(env.id, body.workflowId, () => shortId(6));
      return workflowResponse(svc.store, svc.store.workflows.create(env, { ...body, workflowId, steps }));
    });
  },
};

function findWorkflow(svc: Service, envId: string, workflowId: string): StoredWorkflow {
  const wf = svc.store.workflows.find(envId, workflowId);
  if (!wf) throw workflowNotFound(workflowId);
  return wf;
}

export const getWorkflow: Route<'getWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, params, query }) {
    let envId = env.id;
    if (query.environmentId !== undefined && query.environmentId !== env.id) {
      // Another environment of the same organisation may be named; nothing outside it.
      const other = svc.store.environments.findById(query.environmentId);
      if (!other || other.orgId !== env.orgId) throw notFound(`Environment '${query.environmentId}' not found`);
      envId = other.id;
    }
    return workflowResponse(svc.store, findWorkflow(svc, envId, params.workflowId!));
  },
};

/**
 * GET /v2/workflows: search by name or workflowId, filter by tags and status, sort, and page by offset.
 * `{workflows, totalCount}` holds no `data`, so it comes wrapped like a single record (ground truth,
 * "Response envelopes"); clients unwrap a body whose only key is `data`.
 */
export const listWorkflows: Route<'listWorkflows'> = {
  envelope: 'data',
  handle({ svc, env, query: q }): ListWorkflowsResponse {
    const needle = q.query?.trim().toLowerCase();
    const rows = svc.store.workflows
      .all(env.id)
      .filter((w) => !needle || w.name.toLowerCase().includes(needle) || w.workflowId.toLowerCase().includes(needle))
      .filter((w) => !q.tags?.length || q.tags.some((t) => w.tags.includes(t)))
      .map((w) => ({ stored: w, view: workflowResponse(svc.store, w) }))
      .filter((r) => !q.status?.length || q.status.includes(r.view.status));
    const orderBy = q.orderBy ?? 'createdAt';
    const dir = (q.orderDirection ?? 'DESC') === 'ASC' ? 1 : -1;
    const key = (r: (typeof rows)[number]) => String((orderBy === 'name' ? r.view.name : r.view[orderBy]) ?? '');
    rows.sort((a, b) => dir * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 10;
    return { workflows: rows.slice(offset, offset + limit).map((r) => listItem(r.view)), totalCount: rows.length };
  },
};

function listItem(w: Workflow): WorkflowListItem {
  return {
    name: w.name,
    tags: w.tags ?? [],
    updatedAt: w.updatedAt,
    createdAt: w.createdAt,
    lastPublishedAt: w.lastPublishedAt ?? null,
    _id: w._id,
    workflowId: w.workflowId,
    slug: w.slug,
    status: w.status,
    origin: w.origin,
    lastTriggeredAt: w.lastTriggeredAt ?? null,
    stepTypeOverviews: [...new Set(w.steps.map((s) => s.type))],
    isTranslationEnabled: w.isTranslationEnabled ?? false,
    steps: w.steps.map((s) => ({ slug: s.slug, type: s.type, ...(s.issues && { issues: s.issues }) })),
  };
}

/** PUT: the whole workflow again. Its workflowId stays (the service lets only code-first workflows change it). */
export const updateWorkflow: Route<'updateWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      const wf = findWorkflow(svc, env.id, params.workflowId!);
      if (wf.origin === 'external') return workflowResponse(svc.store, updateCodeFirst(svc, wf, body));
      const steps = checkedSteps(body.steps);
      return workflowResponse(svc.store, svc.store.workflows.replace(wf, { ...body, steps }));
    });
  },
};

/**
 * PUT of a code-first workflow, as the dashboard sends it: the steps are the app's (found by `_id`,
 * `stepId` or slug, of the same type), and what changes is each step's `controlValues` (checked
 * against the control schema the app declared: the app refuses values that break it), and whether
 * the workflow is active and its payload checked at trigger time. The rest is the app's code, stored
 * again at its next discovery.
 */
function updateCodeFirst(svc: Service, wf: StoredWorkflow, body: Call<'updateWorkflow'>['body']): StoredWorkflow {
  const values = new Map<string, JsonObject>();
  const errors: Record<string, { messages: string[]; value?: unknown }> = {};
  body.steps.forEach((given, i) => {
    const step = wf.steps.find((s) => s._id === given._id || s.stepId === given.stepId || s.slug === given._id);
    if (!step || step.type !== given.type) {
      errors[`steps.${i}`] = {
        messages: [
          `is not a ${given.type} step of code-first workflow '${wf.workflowId}': its steps are defined in the app's code (${wf.steps.map((s) => s.stepId).join(', ')})`,
        ],
        value: given.stepId ?? given._id ?? given.name,
      };
      return;
    }
    if (given.controlValues === undefined) return;
    const schema = wf.bridge?.controlSchemas[step.stepId];
    const check = schema ? validatePayload(schema as JsonSchema, given.controlValues) : { valid: true as const };
    if (!check.valid) {
      for (const e of check.errors) errors[`steps.${i}.controlValues${e.field ? `.${e.field}` : ''}`] = { messages: [e.message], value: e.value };
      return;
    }
    values.set(step.stepId, given.controlValues);
  });
  if (Object.keys(errors).length > 0) throw unprocessable('Validation Error', errors);
  return svc.store.workflows.setControlValues(wf, values, { active: body.active, validatePayload: body.validatePayload });
}

/** PATCH: activate or deactivate, rename, retag; only the fields sent change. */
export const patchWorkflow: Route<'patchWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, params, body }) {
    return svc.store.tx(() => {
      const wf = findWorkflow(svc, env.id, params.workflowId!);
      return workflowResponse(
        svc.store,
        svc.store.workflows.patch(wf, {
          active: body.active,
          name: body.name,
          description: body.description,
          tags: body.tags,
          payloadSchema: body.payloadSchema,
          validatePayload: body.validatePayload,
          isTranslationEnabled: body.isTranslationEnabled,
        }),
      );
    });
  },
};

export const deleteWorkflow: Route<'deleteWorkflow'> = {
  envelope: 'none',
  handle({ svc, env, params }) {
    svc.store.tx(() => {
      const wf = findWorkflow(svc, env.id, params.workflowId!);
      svc.store.workflows.remove(wf._id);
      // Its translations go with it: a new workflow of the same identifier starts without texts.
      svc.store.translations.removeGroup(env.id, 'workflow', wf.workflowId);
    });
  },
};

export const previewStep: Route<'previewStep'> = {
  envelope: 'data',
  handle({ svc, env, params, body }): PreviewResponse {
    // As the service does, an unknown workflow or step answers 201 with an empty preview.
    const empty: PreviewResponse = { result: { preview: {} }, previewPayloadExample: {}, schema: null };
    const wf = svc.store.workflows.find(env.id, params.workflowId!);
    if (!wf) return empty;
    try {
      return generatePreview({
        workflow: workflowRuntime(wf).definition,
        stepId: params.stepId!,
        ...(body.controlValues !== undefined && { controlValues: body.controlValues }),
        ...(body.previewPayload !== undefined && { previewPayload: body.previewPayload }),
        now: svc.clock.now(),
        // The service signs http_request steps with the environment's secret key; the sample shows
        // the header such a request would carry, sent now (wall-clock, as every signature).
        sign: (text) => signature(env.apiKey, text, Date.now()),
        ...emailLayoutOptions(svc.store.layouts.all(env.id)),
        translations: svc.store.translations.bundleFor(wf),
      });
    } catch (e) {
      if (e instanceof StepNotFoundError) return empty;
      throw e;
    }
  },
};

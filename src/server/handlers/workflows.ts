// Workflows: create (POST /v2/workflows), retrieve by trigger identifier, slug or id, and the step
// preview. Retrieval answers the workflow engine's full shape (controls metadata, variables, issues
// against the environment's integrations, status); the preview renders the step with the engine.
import { z } from 'zod';
import { StepFilter } from '../../api/schemas/resources.js';
import type { PreviewResponse } from '../../api/schemas/workflow.js';
import { StepNotFoundError, generatePreview } from '../engine/index.js';
import { badRequest, conflict, fieldErrors, notFound, unprocessable } from '../errors.js';
import { workflowResponse, workflowRuntime } from '../workflow/runtime.js';
import type { Route } from './types.js';

const StepFilters = z.array(StepFilter);

export const createWorkflow: Route<'createWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const ids = body.steps.map((s) => s.stepId).filter((s): s is string => s !== undefined);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) throw badRequest(`Step id '${dup}' is used by more than one step`);
    // The create body lets unknown step fields through; `filters` is one the engine reads, so it is
    // checked here rather than failing every job later.
    const steps = body.steps.map((s, i) => {
      if (s.filters === undefined) return s;
      const parsed = StepFilters.safeParse(s.filters);
      if (!parsed.success) {
        const errors = Object.fromEntries(
          Object.entries(fieldErrors(parsed.error, s.filters)).map(([k, v]) => [k === 'general' ? `steps.${i}.filters` : `steps.${i}.filters.${k}`, v]),
        );
        throw unprocessable('Validation Error', errors);
      }
      return { ...s, filters: parsed.data };
    });
    return svc.store.tx(() => {
      if (svc.store.workflows.findByTrigger(env.id, body.workflowId)) {
        throw conflict(`Workflow with workflowId '${body.workflowId}' already exists`);
      }
      return workflowResponse(svc.store, svc.store.workflows.create(env, { ...body, steps }));
    });
  },
};

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
    const wf = svc.store.workflows.find(envId, params.workflowId!);
    if (!wf) throw notFound(`Workflow cannot be found: '${params.workflowId}'`);
    return workflowResponse(svc.store, wf);
  },
};

export const previewStep: Route<'previewStep'> = {
  envelope: 'data',
  handle({ svc, env, params, body }): PreviewResponse {
    const wf = svc.store.workflows.find(env.id, params.workflowId!);
    if (!wf) throw notFound(`Workflow cannot be found: '${params.workflowId}'`);
    try {
      return generatePreview({
        workflow: workflowRuntime(wf).definition,
        stepId: params.stepId!,
        ...(body.controlValues !== undefined && { controlValues: body.controlValues }),
        ...(body.previewPayload !== undefined && { previewPayload: body.previewPayload }),
        now: svc.clock.now(),
        // The service signs http_request steps with the environment's secret key; the sample shows
        // the header such a request would carry.
        signingSecret: env.apiKey,
      });
    } catch (e) {
      if (e instanceof StepNotFoundError) throw notFound(e.message);
      throw e;
    }
  },
};

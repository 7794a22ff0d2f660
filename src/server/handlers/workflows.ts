// Workflows: create (POST /v2/workflows), retrieve by trigger identifier, slug or id, and the step
// preview. The preview shows the control values as stored, unrendered: rendering them against the
// preview payload is the workflow engine's part.
import type { JsonObject } from '../../api/schemas/common.js';
import type { PreviewResponse } from '../../api/schemas/workflow.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { StoredStep } from '../store/workflows.js';
import { workflowView } from '../views.js';
import type { Route } from './types.js';

export const createWorkflow: Route<'createWorkflow'> = {
  envelope: 'data',
  handle({ svc, env, body }) {
    const ids = body.steps.map((s) => s.stepId).filter((s): s is string => s !== undefined);
    const dup = ids.find((id, i) => ids.indexOf(id) !== i);
    if (dup !== undefined) throw badRequest(`Step id '${dup}' is used by more than one step`);
    return svc.store.tx(() => {
      if (svc.store.workflows.findByTrigger(env.id, body.workflowId)) {
        throw conflict(`Workflow with workflowId '${body.workflowId}' already exists`);
      }
      return workflowView(svc.store.workflows.create(env, body));
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
    return workflowView(wf);
  },
};

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function previewOf(step: StoredStep, c: JsonObject): JsonObject {
  switch (step.type) {
    case 'email':
      return { subject: str(c.subject), body: typeof c.body === 'string' ? c.body : JSON.stringify(c.body ?? '') };
    case 'in_app': {
      const { skip, disableOutputSanitization, ...rest } = c;
      return { ...rest, body: str(c.body) };
    }
    case 'sms':
    case 'chat':
      return { body: str(c.body) };
    case 'push':
      return { subject: str(c.subject), body: str(c.body) };
    case 'delay':
    case 'digest':
      return {
        amount: typeof c.amount === 'number' ? c.amount : 0,
        unit: typeof c.unit === 'string' ? c.unit : 'seconds',
        ...(typeof c.digestKey === 'string' && { digestKey: c.digestKey }),
        ...(c.lookBackWindow !== undefined && { lookBackWindow: c.lookBackWindow }),
      };
    default:
      return c;
  }
}

export const previewStep: Route<'previewStep'> = {
  envelope: 'data',
  handle({ svc, env, params, body }): PreviewResponse {
    const wf = svc.store.workflows.find(env.id, params.workflowId!);
    if (!wf) throw notFound(`Workflow cannot be found: '${params.workflowId}'`);
    const step = wf.steps.find((s) => s.stepId === params.stepId || s._id === params.stepId || s.slug === params.stepId);
    if (!step) throw notFound(`Step '${params.stepId}' not found in workflow '${wf.workflowId}'`);
    const controls = body.controlValues ?? step.controlValues;
    const given = body.previewPayload ?? {};
    return {
      previewPayloadExample: {
        subscriber: given.subscriber ?? { subscriberId: 'preview-subscriber', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
        payload: given.payload ?? {},
        ...(given.context !== undefined && { context: given.context }),
      },
      schema: wf.payloadSchema,
      result: { type: step.type, preview: previewOf(step, controls) },
    };
  },
};

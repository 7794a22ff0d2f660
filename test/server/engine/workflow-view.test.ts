import { describe, expect, it } from 'vitest';
import { Workflow } from '../../../src/api/schemas/workflow.js';
import { channelPreference, workflowPreferences } from '../../../src/server/engine/workflow-preferences.js';
import { toWorkflowResponse, workflowPayloadExample } from '../../../src/server/engine/workflow-view.js';
import type { WorkflowDefinition } from '../../../src/server/engine/types.js';
import { ENV, allChannels, workflow } from './fixtures.js';

const options = { environmentId: ENV, activeIntegrations: allChannels(), createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-02T00:00:00.000Z' };

describe('toWorkflowResponse', () => {
  it('builds a full workflow that the shared schema accepts', () => {
    const response = toWorkflowResponse(workflow(), { ...options, _id: '65a1b2c3d4e5f60718293a4b', lastTriggeredAt: '2025-01-03T00:00:00.000Z' });
    expect(Workflow.parse(response)).toEqual(response);
    expect(response).toMatchObject({
      _id: '65a1b2c3d4e5f60718293a4b',
      workflowId: 'welcome',
      status: 'ACTIVE',
      origin: 'svc-cloud',
      severity: 'none',
      active: true,
      tags: [],
      payloadSchema: null,
      lastTriggeredAt: '2025-01-03T00:00:00.000Z',
      payloadExample: { product: '{{payload.product}}' },
    });
    expect(response.slug).toMatch(/^welcome_wf_/);
    const [inApp, email] = response.steps;
    expect(inApp).toMatchObject({
      stepId: 'in-app',
      type: 'in_app',
      workflowId: 'welcome',
      workflowDatabaseId: '65a1b2c3d4e5f60718293a4b',
      controls: { values: { subject: 'Hi {{ subscriber.firstName }}' }, uiSchema: { group: 'IN_APP' }, dataSchema: { type: 'object' } },
      controlValues: { subject: 'Hi {{ subscriber.firstName }}' },
    });
    expect(inApp?.issues).toBeUndefined();
    expect(inApp?._id).toMatch(/^[0-9a-f]{24}$/);
    expect(email?.slug).toMatch(/^email_st_/);
    expect(Object.keys((email?.variables as { properties: { steps: { properties: object } } }).properties.steps.properties)).toEqual(['in-app']);
  });

  it('is ERROR when a step has issues, INACTIVE when not active', () => {
    const broken = workflow({ steps: [{ name: 'SMS', type: 'sms', controlValues: { body: '{{ nope }}' } }] });
    const response = toWorkflowResponse(broken, options);
    expect(response.status).toBe('ERROR');
    expect(response.steps[0]?.issues?.controls?.body?.[0]?.issueType).toBe('ILLEGAL_VARIABLE_IN_CONTROL_VALUE');
    expect(toWorkflowResponse({ ...broken, active: false }, options).status).toBe('INACTIVE');
    expect(toWorkflowResponse(workflow(), { ...options, activeIntegrations: [] }).status).toBe('ERROR');
    expect(toWorkflowResponse({ ...workflow(), active: undefined }, options).status).toBe('INACTIVE');
  });

  it('gives steps created without controls their defaults', () => {
    const response = toWorkflowResponse(workflow({ steps: [{ name: 'Wait', type: 'delay' }] }), options);
    expect(response.steps[0]?.controls.values).toEqual({ type: 'regular', amount: 30, unit: 'seconds' });
    expect(response.status).toBe('ACTIVE');
  });

  it('derives a stable database id and keeps description, severity and payload schema', () => {
    const def: WorkflowDefinition = {
      ...workflow(),
      description: 'd',
      severity: 'high',
      payloadSchema: { type: 'object', properties: { product: { type: 'string', default: 'svc' } } },
    };
    const a = toWorkflowResponse(def, options);
    expect(a._id).toBe(toWorkflowResponse(def, options)._id);
    expect(a).toMatchObject({ description: 'd', severity: 'high', payloadExample: { product: 'svc' } });
  });
});

describe('workflowPayloadExample', () => {
  it('is null when nothing reads the payload and there is no schema', () => {
    expect(workflowPayloadExample(workflow({ steps: [{ name: 'S', type: 'sms', controlValues: { body: 'static' } }] }))).toBeNull();
  });
});

describe('preferences', () => {
  it('completes preferences with every channel', () => {
    const prefs = workflowPreferences(
      workflow({ preferences: { workflow: { all: { enabled: true, readOnly: false }, channels: { sms: { enabled: false } } } } }),
    );
    expect(prefs.user).toBeNull();
    expect(prefs.default.channels).toEqual({
      in_app: { enabled: true },
      email: { enabled: true },
      sms: { enabled: false },
      push: { enabled: true },
      chat: { enabled: true },
    });
    expect(workflowPreferences(workflow({ critical: true })).default.all.readOnly).toBe(true);
  });

  it('decides whether a channel delivers', () => {
    const smsOff = workflow({ preferences: { workflow: { all: { enabled: true, readOnly: false }, channels: { sms: { enabled: false } } } } });
    expect(channelPreference(smsOff, 'sms')).toEqual({ enabled: false, reason: "the sms channel is turned off in the workflow's preferences", by: 'workflow' });
    expect(channelPreference(smsOff, 'email').enabled).toBe(true);
    expect(channelPreference(workflow(), 'email', { enabled: false })).toMatchObject({ enabled: false, by: 'subscriber' });
    expect(channelPreference(workflow(), 'email', { enabled: false, level: 'global' }).reason).toBe(
      'the subscriber turned the email channel off in their global preferences',
    );
    expect(channelPreference(workflow({ critical: true }), 'email', { enabled: false })).toEqual({ enabled: true, reason: 'the workflow is critical' });
    // Critical workflows ignore even the workflow's own channel switches.
    expect(channelPreference({ ...smsOff, critical: true }, 'sms')).toEqual({ enabled: true, reason: 'the workflow is critical' });
  });
});

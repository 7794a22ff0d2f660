import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { STEP_KINDS } from '../../../src/api/schemas/workflow.js';
import { UI_COMPONENTS, controlsDataSchema, controlsUiSchema, defaultControlValues, withControlDefaults } from '../../../src/server/engine/controls-meta.js';
import { stepIssues } from '../../../src/server/engine/issues.js';
import { workflow } from './fixtures.js';

const ajv = new Ajv({ strict: false });
const valid = (kind: (typeof STEP_KINDS)[number], values: unknown) => ajv.validate(controlsDataSchema(kind), values);

describe('controlsDataSchema', () => {
  it('is a JSON Schema of every kind that accepts the kind defaults', () => {
    for (const kind of STEP_KINDS) {
      const schema = controlsDataSchema(kind);
      expect(schema.type).toBe('object');
      expect(schema.$schema).toBeUndefined();
      expect(ajv.validateSchema(schema)).toBe(true);
    }
    expect(valid('delay', defaultControlValues('delay'))).toBe(true);
    expect(valid('throttle', defaultControlValues('throttle'))).toBe(true);
  });

  it('states the requirements that depend on the type', () => {
    expect(valid('in_app', { subject: 'x' })).toBe(true);
    expect(valid('in_app', { avatar: '/a.png' })).toBe(false);
    expect(valid('delay', { type: 'timed', cron: '0 9 * * *' })).toBe(true);
    expect(valid('delay', { type: 'timed' })).toBe(false);
    expect(valid('delay', { type: 'dynamic', delayPath: 'sendAt' })).toBe(true);
    expect(valid('digest', { cron: '0 9 * * *' })).toBe(true);
    expect(valid('digest', { amount: 5 })).toBe(false);
    expect(valid('throttle', { type: 'dynamic', dynamicKey: 'payload.w' })).toBe(true);
    expect(valid('throttle', { type: 'dynamic' })).toBe(false);
    expect(valid('email', { subject: 's' })).toBe(false);
    expect(valid('http_request', { method: 'POST', url: 'https://x' })).toBe(true);
  });
});

describe('controlsUiSchema', () => {
  it('uses only the components and groups of the spec', () => {
    for (const kind of STEP_KINDS) {
      const ui = controlsUiSchema(kind);
      for (const property of Object.values(ui.properties)) expect(UI_COMPONENTS).toContain(property.component);
      expect(ui.properties.skip?.component).toBe('QUERY_EDITOR');
    }
    expect(controlsUiSchema('in_app')).toMatchObject({
      group: 'IN_APP',
      properties: { body: { component: 'IN_APP_BODY' }, avatar: { component: 'IN_APP_AVATAR' } },
    });
    expect(controlsUiSchema('digest').properties.amount?.component).toBe('DIGEST_AMOUNT');
    expect(controlsUiSchema('throttle').properties.threshold?.component).toBe('THROTTLE_THRESHOLD');
    expect(controlsUiSchema('http_request').properties.url?.component).toBe('DESTINATION_URL');
  });

  it('returns copies callers may change', () => {
    controlsUiSchema('sms').properties.body = { component: 'DATA' };
    expect(controlsUiSchema('sms').properties.body?.component).toBe('SMS_BODY');
  });
});

describe('defaults', () => {
  it('give flow-control steps a working configuration and channel steps empty fields to fill', () => {
    const issuesFor = (kind: (typeof STEP_KINDS)[number]) =>
      Object.keys(stepIssues(workflow({ steps: [{ name: 'S', type: kind, controlValues: defaultControlValues(kind) }] }), 0).controls ?? {});
    for (const kind of ['delay', 'digest', 'throttle', 'custom'] as const) expect(issuesFor(kind)).toEqual([]);
    expect(issuesFor('email')).toEqual(['subject', 'body']);
    expect(issuesFor('http_request')).toEqual(['url']);
  });

  it('apply schema defaults for execution without hiding invalid values', () => {
    expect(withControlDefaults('throttle', { amount: 1, unit: 'hours' })).toEqual({ type: 'fixed', amount: 1, unit: 'hours', threshold: 1 });
    expect(withControlDefaults('delay', { amount: 1, unit: 'hours' })).toMatchObject({ type: 'regular' });
    expect(withControlDefaults('delay', { amount: -1 })).toEqual({ amount: -1 });
  });
});

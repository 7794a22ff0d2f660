import { describe, expect, it } from 'vitest';
import { databaseIdFromSlug, objectIdFrom, slugify, stepSlug, workflowSlug } from '../../../src/server/engine/derived-ids.js';
import {
  effectivePayloadSchema,
  findStep,
  payloadPathAllowed,
  resolveSteps,
  stepVariablesSchema,
  workflowPayloadPaths,
} from '../../../src/server/engine/variables.js';
import { workflow } from './fixtures.js';

describe('ids', () => {
  it('slugifies names and derives stable 24-hex ids', () => {
    expect(slugify('Welcome Email! (v2)')).toBe('welcome-email-v2');
    expect(slugify('Été')).toBe('ete');
    expect(objectIdFrom('a')).toMatch(/^[0-9a-f]{24}$/);
    expect(objectIdFrom('a')).toBe(objectIdFrom('a'));
  });

  it('builds slugs that lead back to the database id', () => {
    const id = '65a1b2c3d4e5f60718293a4b';
    expect(workflowSlug('Order Shipped', id)).toMatch(/^order-shipped_wf_[0-9a-zA-Z]+$/);
    expect(databaseIdFromSlug(workflowSlug('Order Shipped', id))).toBe(id);
    expect(databaseIdFromSlug(stepSlug('x', '000000000000000000000001'))).toBe('000000000000000000000001');
    expect(databaseIdFromSlug('no-slug-here')).toBeNull();
  });
});

describe('resolveSteps and findStep', () => {
  const wf = workflow({
    steps: [
      { name: 'Send Email', type: 'email', controlValues: { subject: 's', body: 'b' } },
      { name: 'Send Email', type: 'email' },
      { _id: '65a1b2c3d4e5f60718293a4b', stepId: 'custom-id', name: 'Chat', type: 'chat' },
    ],
  });
  const steps = resolveSteps(wf);

  it('derives unique step ids from names and keeps given ones', () => {
    expect(steps.map((s) => s.stepId)).toEqual(['send-email', 'send-email-2', 'custom-id']);
    expect(steps[2]?._id).toBe('65a1b2c3d4e5f60718293a4b');
    expect(steps[0]?._id).toBe(resolveSteps(wf)[0]?._id);
    expect(steps[1]?.controlValues).toEqual({ subject: '', body: '', editorType: 'html' });
  });

  it('finds a step by step id, database id or slug', () => {
    expect(findStep(steps, 'send-email-2')?.index).toBe(1);
    expect(findStep(steps, '65a1b2c3d4e5f60718293a4b')?.index).toBe(2);
    expect(findStep(steps, stepSlug('Chat', '65a1b2c3d4e5f60718293a4b'))?.index).toBe(2);
    expect(findStep(steps, 'missing')).toBeUndefined();
  });
});

describe('payload paths', () => {
  const wf = workflow({
    steps: [
      {
        name: 'In-App',
        type: 'in_app',
        controlValues: {
          body: '{% for c in payload.comments %}{{ c.author }}{% endfor %}{{ payload.post.title }}',
          skip: { '==': [{ var: 'payload.muted' }, true] },
        },
      },
      { name: 'SMS', type: 'sms', controlValues: { body: '{{ payload.code }} {{ subscriber.phone }}' } },
    ],
  });

  it('collects what templates and skip rules read from the payload', () => {
    const paths = workflowPayloadPaths(wf);
    expect(paths).toHaveLength(5);
    expect(paths).toEqual(expect.arrayContaining([['comments'], ['comments', 0, 'author'], ['post', 'title'], ['muted'], ['code']]));
  });

  it('infers a payload schema when none is declared', () => {
    expect(effectivePayloadSchema(wf)).toMatchObject({
      type: 'object',
      properties: { comments: { type: 'array', items: { properties: { author: { type: 'string' } } } }, post: { type: 'object' }, code: { type: 'string' } },
    });
    const declared = { type: 'object', properties: { code: { type: 'string' } } };
    expect(effectivePayloadSchema({ ...wf, payloadSchema: declared })).toBe(declared);
  });

  it('allows paths a schema declares, indexes arrays, and free-form objects', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'object', additionalProperties: true }, b: { type: 'array', items: { type: 'string' } }, c: { type: 'object' } },
    };
    expect(payloadPathAllowed(schema, ['a', 'anything'])).toBe(true);
    expect(payloadPathAllowed(schema, ['b', 0])).toBe(true);
    expect(payloadPathAllowed(schema, ['b', 'size'])).toBe(true);
    expect(payloadPathAllowed(schema, ['c', 'x'])).toBe(true);
    expect(payloadPathAllowed(schema, ['d'])).toBe(false);
    expect(payloadPathAllowed(undefined, ['d'])).toBe(true);
  });
});

describe('stepVariablesSchema', () => {
  const wf = workflow({
    steps: [
      { name: 'Digest', type: 'digest', controlValues: { amount: 1, unit: 'hours' } },
      { name: 'Inbox', type: 'in_app', controlValues: { body: '{{ payload.title }}' } },
      { name: 'Email', type: 'email', controlValues: { subject: 's', body: 'b' } },
    ],
  });

  it('describes the scope a step can read, with only earlier steps', () => {
    const first = stepVariablesSchema(wf, 0) as { properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(Object.keys(first.properties)).toEqual(['subscriber', 'payload', 'steps', 'actor', 'tenant', 'context', 'env']);
    expect(first.properties.steps?.properties).toEqual({});
    const third = stepVariablesSchema(wf, 2) as { properties: { steps: { properties: Record<string, { properties: Record<string, unknown> }> } } };
    expect(Object.keys(third.properties.steps.properties)).toEqual(['digest', 'inbox']);
    expect(Object.keys(third.properties.steps.properties.digest?.properties ?? {})).toEqual(['eventCount', 'events']);
    expect(Object.keys(third.properties.steps.properties.inbox?.properties ?? {})).toEqual(['seen', 'read', 'lastSeenDate', 'lastReadDate']);
  });
});

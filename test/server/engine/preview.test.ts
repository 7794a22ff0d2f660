import { describe, expect, it } from 'vitest';
import { PreviewResponse } from '../../../src/api/schemas/workflow.js';
import { StepNotFoundError, generatePreview } from '../../../src/server/engine/preview.js';
import { buildScope, contextScope } from '../../../src/server/engine/scope.js';
import type { StepDefinition } from '../../../src/server/engine/types.js';
import { signature } from '../../../src/server/outbound/index.js';
import { verifySignature } from '../../helpers/signature.js';
import { workflow } from './fixtures.js';

const now = Date.UTC(2025, 0, 31, 10);

function preview(steps: StepDefinition[], stepId: string, extra: Partial<Parameters<typeof generatePreview>[0]> = {}) {
  const response = generatePreview({ workflow: workflow({ steps }), stepId, now, ...extra });
  expect(PreviewResponse.parse(response)).toEqual(response);
  return response;
}

describe('generatePreview: channel steps', () => {
  it('renders an in-app step with placeholders where the payload goes', () => {
    const r = preview(
      [{ name: 'Inbox', type: 'in_app', controlValues: { subject: 'Hi {{ subscriber.firstName }}', body: 'Order {{ payload.order.id }}' } }],
      'inbox',
    );
    expect(r.result).toEqual({ type: 'in_app', preview: { subject: 'Hi John', body: 'Order {{payload.order.id}}' } });
    expect(r.previewPayloadExample.payload).toEqual({ order: { id: '{{payload.order.id}}' } });
    expect(r.schema).toMatchObject({ type: 'object', properties: { payload: { type: 'object', properties: { order: { type: 'object' } } } } });
    expect(r.previewPayloadExample.subscriber).toMatchObject({ firstName: 'John', email: 'user@example.com' });
  });

  it('uses the preview payload the caller sends, over the example', () => {
    const r = preview(
      [{ name: 'SMS', type: 'sms', controlValues: { body: '{{ subscriber.firstName }}: {{ payload.code }} {{ context.tenant.data.name }}' } }],
      'sms',
      {
        previewPayload: { subscriber: { firstName: 'Ada' }, payload: { code: '1234' }, context: { tenant: { id: 'acme', data: { name: 'Acme' } } } },
      },
    );
    expect(r.result).toEqual({ type: 'sms', preview: { body: 'Ada: 1234 Acme' } });
    expect(r.previewPayloadExample).toMatchObject({
      payload: { code: '1234' },
      subscriber: { firstName: 'Ada', lastName: 'Doe' },
      context: { tenant: { id: 'acme' } },
    });
  });

  it('builds the payload example from the payload schema when there is one', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', default: '9999' } } };
    const r = generatePreview({
      workflow: workflow({ payloadSchema: schema, steps: [{ name: 'SMS', type: 'sms', controlValues: { body: '{{ payload.code }}' } }] }),
      stepId: 'sms',
      now,
    });
    expect((r.schema as { properties: { payload: unknown } }).properties.payload).toEqual(schema);
    expect(r.result).toEqual({ type: 'sms', preview: { body: '9999' } });
  });

  it('previews given control values instead of the stored ones', () => {
    const r = preview([{ name: 'Push', type: 'push', controlValues: { subject: 'old', body: 'old' } }], 'push', {
      controlValues: { subject: 'New {{ payload.n }}', body: 'b' },
    });
    expect(r.result).toEqual({ type: 'push', preview: { subject: 'New {{payload.n}}', body: 'b' } });
  });

  it('lists earlier digest events, with the payload fields the step reads', () => {
    const steps: StepDefinition[] = [
      { name: 'Digest', type: 'digest', controlValues: { amount: 1, unit: 'hours' } },
      {
        name: 'Inbox',
        type: 'in_app',
        controlValues: { body: '{{ steps.digest.eventCount }} new: {{ steps.digest.events | toSentence: "payload.author", 2 }}' },
      },
    ];
    const r = preview(steps, 'inbox', { previewPayload: { steps: { digest: { events: [{ payload: { author: 'Ann' } }, { payload: { author: 'Bob' } }] } } } });
    expect(r.result).toEqual({ type: 'in_app', preview: { body: '2 new: Ann and Bob' } });
    const example = preview(steps, 'inbox');
    const events = (example.previewPayloadExample.steps as { digest: { events: Array<{ payload: object }> } }).digest.events;
    expect(events).toHaveLength(3);
    expect(events[0]?.payload).toEqual({ author: '{{payload.author}}' });
    expect(example.result.preview).toEqual({ body: '3 new: {{payload.author}}, {{payload.author}}, and 1 other' });
  });

  it('renders an email body inside the layout', () => {
    const r = preview([{ name: 'Email', type: 'email', controlValues: { subject: 'S', body: '<p>{{ subscriber.lastName }}</p>' } }], 'email');
    expect(r.result.type).toBe('email');
    expect((r.result.preview as { body: string }).body).toMatch(/^<!DOCTYPE html>.*<p>Doe<\/p>/s);
  });

  it('returns a template error as {title, message, hint}', () => {
    const r = preview([{ name: 'Chat', type: 'chat', controlValues: { body: 'line\n{% if payload.x %}open' } }], 'chat');
    expect(r.result).toEqual({
      type: 'chat',
      error: {
        title: 'Template syntax error',
        message: 'body (line 2, column 1): tag {% if payload.x %} not closed',
        hint: 'Check the Liquid in body: every {{ needs its }}, and every {% if %} or {% for %} its {% endif %} or {% endfor %}.',
      },
    });
  });
});

describe('generatePreview: flow-control steps', () => {
  it('delay and digest show their timing', () => {
    expect(preview([{ name: 'Wait', type: 'delay', controlValues: { amount: 5, unit: 'minutes' } }], 'wait').result).toEqual({
      type: 'delay',
      preview: { type: 'regular', amount: 5, unit: 'minutes' },
    });
    expect(preview([{ name: 'Wait', type: 'delay', controlValues: { type: 'timed', cron: '0 12 * * *' } }], 'wait').result.preview).toMatchObject({
      type: 'timed',
      cron: '0 12 * * *',
      nextRunAt: '2025-01-31T17:00:00.000Z',
    });
    expect(
      preview(
        [
          {
            name: 'D',
            type: 'digest',
            controlValues: { amount: 1, unit: 'hours', digestKey: 'payload.postId', lookBackWindow: { amount: 5, unit: 'minutes' } },
          },
        ],
        'd',
      ).result,
    ).toEqual({
      type: 'digest',
      preview: { type: 'backoff', amount: 1, unit: 'hours', digestKey: 'payload.postId', lookBackWindow: { amount: 5, unit: 'minutes' } },
    });
  });

  it('survives control values of the wrong type (found by the property tests)', () => {
    const odd = Object.assign(Object.create(null) as object, { label: '' });
    expect(preview([{ name: 'Wait', type: 'delay', controlValues: { type: odd } }], 'wait').result).toEqual({ type: 'delay', preview: { type: 'regular' } });
  });

  it('throttle and custom show their values', () => {
    expect(preview([{ name: 'T', type: 'throttle', controlValues: { amount: 1, unit: 'hours', threshold: 2 } }], 't').result).toEqual({
      type: 'throttle',
      preview: { type: 'fixed', amount: 1, unit: 'hours', threshold: 2 },
    });
    expect(preview([{ name: 'C', type: 'custom', controlValues: { custom: { who: '{{ subscriber.firstName }}' } } }], 'c').result).toEqual({
      type: 'custom',
      preview: { who: 'John' },
    });
  });

  it('http_request shows the request and a verifiable signature sample', () => {
    const steps: StepDefinition[] = [
      { name: 'Hook', type: 'http_request', controlValues: { method: 'POST', url: 'http://127.0.0.1:9/{{ payload.id }}', body: '{"id": "{{ payload.id }}"}' } },
    ];
    const r = preview(steps, 'hook', { sign: (text: string) => signature('sk_test', text, now), previewPayload: { payload: { id: 'abc' } } });
    expect(r.result).toEqual({ type: 'http_request', preview: { method: 'POST', url: 'http://127.0.0.1:9/abc', headers: {}, body: { id: 'abc' } } });
    expect(verifySignature('sk_test', r.svcSignature, '{"id":"abc"}', { now })).toEqual({ ok: true, timestamp: now });
    expect(preview(steps, 'hook').svcSignature).toBeUndefined();
  });
});

describe('generatePreview: lookup', () => {
  it('finds steps by step id or database id, and throws a typed error otherwise', () => {
    const steps: StepDefinition[] = [{ _id: '65a1b2c3d4e5f60718293a4b', name: 'SMS', type: 'sms', controlValues: { body: 'x' } }];
    expect(preview(steps, '65a1b2c3d4e5f60718293a4b').result.type).toBe('sms');
    expect(() => generatePreview({ workflow: workflow({ steps }), stepId: 'nope', now })).toThrow(StepNotFoundError);
  });

  it('normalises trigger-style contexts, actors and tenants for templates', () => {
    expect(contextScope({ tenant: 'acme', app: { id: 'web', data: { v: 1 } } })).toEqual({
      tenant: { id: 'acme', data: {} },
      app: { id: 'web', data: { v: 1 } },
    });
    expect(buildScope({ actor: 'u-2', tenant: 'acme', payload: { a: 1 } })).toEqual({
      subscriber: {},
      payload: { a: 1 },
      actor: { subscriberId: 'u-2' },
      tenant: { identifier: 'acme' },
      context: {},
      steps: {},
      env: {},
    });
  });
});

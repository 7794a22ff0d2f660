import { describe, expect, it } from 'vitest';
import { describeIssues, hasIssues, isValidUrlControl, stepIssues } from '../../../src/server/engine/issues.js';
import type { StepDefinition, WorkflowDefinition } from '../../../src/server/engine/types.js';
import { allChannels, integration, workflow } from './fixtures.js';

function issuesOf(steps: StepDefinition[], at = steps.length - 1, extra: Partial<WorkflowDefinition> = {}) {
  return stepIssues(workflow({ steps, ...extra }), at, { integrations: allChannels() });
}

const inApp = (controlValues: Record<string, unknown>): StepDefinition => ({ name: 'In-App', type: 'in_app', controlValues });

describe('stepIssues: templates', () => {
  it('has no issues for a correct step', () => {
    expect(issuesOf([inApp({ subject: 'Hi {{ subscriber.firstName }}', body: '{{ payload.x | upcase }} {{ subscriber.data.plan }}' })])).toEqual({});
  });

  it('flags unknown roots, unknown subscriber fields and missing namespaces', () => {
    const issues = issuesOf([inApp({ body: '{{ user.name }} {{ subscriber.nickname }} {{ firstName }}' })]);
    expect(issues.controls?.body?.map((i) => [i.issueType, i.variableName])).toEqual([
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'user.name'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'subscriber.nickname'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'firstName'],
    ]);
    expect(issues.controls?.body?.[0]?.message).toMatch(/^Variable "user.name" is not supported/);
    expect(issues.controls?.body?.[2]?.message).toBe('Variable "firstName" is missing a namespace. Did you mean {{ payload.firstName }}?');
  });

  it('allows earlier step outputs only', () => {
    const digest: StepDefinition = { name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } };
    const later: StepDefinition = { name: 'Later', type: 'sms', controlValues: { body: 'x' } };
    const ok = issuesOf([digest, inApp({ body: '{{ steps.digest.eventCount }} {{ steps.digest.events | toSentence: "payload.name" }}' })]);
    expect(ok).toEqual({});
    const bad = issuesOf([digest, inApp({ body: '{{ steps.later.x }} {{ steps.nope.y }} {{ steps.digest.total }}' }), later], 1);
    expect(bad.controls?.body?.map((i) => i.message)).toEqual([
      'Variable "steps.later.x" is not supported: step "later" runs after this step',
      'Variable "steps.nope.y" is not supported: there is no step "nope" before this step',
      'Variable "steps.digest.total" is not supported: a digest step outputs events, eventCount',
    ]);
  });

  it('checks payload variables against a declared payload schema', () => {
    const schema = {
      type: 'object',
      properties: {
        order: { type: 'object', properties: { id: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    };
    const issues = issuesOf([inApp({ body: '{{ payload.order.id }} {{ payload.items[0].sku }} {{ payload.items.size }} {{ payload.ordr.id }}' })], 0, {
      payloadSchema: schema,
    });
    expect(issues.controls?.body?.map((i) => i.variableName)).toEqual(['payload.ordr.id']);
  });

  it('reports syntax errors with their location, naming the offending variable', () => {
    const issues = issuesOf([inApp({ subject: 'ok', body: 'line\n{{ payload.x' })]);
    expect(issues.controls?.body).toEqual([
      {
        issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        variableName: 'payload.x',
        message: 'Content compilation error: output "{{ payload.x" not closed (line 2, column 1)',
      },
    ]);
  });

  it('reports unknown filters and bad filter arguments', () => {
    const issues = issuesOf([
      inApp({ body: '{{ payload.a | shout }} {{ payload.b | truncate: "x" }} {{ payload.c | replace: "a" }} {{ payload.d | append: "!" }}' }),
    ]);
    expect(issues.controls?.body?.map((i) => [i.issueType, i.variableName, i.message])).toEqual([
      ['INVALID_FILTER_ARG_IN_VARIABLE', 'payload.a', 'Filter "shout" in "{{ payload.a | shout }}" does not exist'],
      ['INVALID_FILTER_ARG_IN_VARIABLE', 'payload.b', 'Filter "truncate" in "{{ payload.b | truncate: "x" }}" argument 1 must be a number'],
      ['INVALID_FILTER_ARG_IN_VARIABLE', 'payload.c', 'Filter "replace" in "{{ payload.c | replace: "a" }}" needs at least 2 arguments, got 1'],
    ]);
  });

  it('requires a key path when toSentence lists digest events', () => {
    const digest: StepDefinition = { name: 'Digest', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } };
    const issues = issuesOf([digest, inApp({ body: '{{ steps.digest.events | toSentence }}' })]);
    expect(issues.controls?.body?.[0]?.message).toMatch(/needs a key path for digest events/);
  });

  it('checks nested controls and block-editor bodies', () => {
    const body = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'account.name' } }] }] };
    const issues = issuesOf([{ name: 'Email', type: 'email', controlValues: { subject: 'S', body, layoutId: null } }]);
    expect(issues.controls?.body?.[0]).toMatchObject({ variableName: 'account.name' });
    const nested = issuesOf([inApp({ body: 'b', primaryAction: { label: '{{ who.am }}', redirect: { url: '/x' } } })]);
    expect(Object.keys(nested.controls ?? {})).toEqual(['primaryAction.label']);
  });

  it('checks skip conditions', () => {
    const issues = issuesOf([inApp({ body: 'b', skip: { and: [{ '==': [{ var: 'payload.tier' }, 'pro'] }, { weird: [{ var: 'user.role' }] }] } })]);
    expect(issues.controls?.skip?.map((i) => i.message)).toEqual([
      'Unknown operator "weird" in skip conditions',
      expect.stringMatching(/^Variable "user.role" is not supported/),
    ]);
  });
});

describe('stepIssues: values', () => {
  it.each([
    ['email without subject and body', { name: 'E', type: 'email', controlValues: {} }, { subject: 'Subject is required', body: 'Body is required' }],
    [
      'email with an empty block document',
      { name: 'E', type: 'email', controlValues: { subject: 's', body: { type: 'doc', content: [] } } },
      { body: 'Body is required' },
    ],
    [
      'email with a body that is neither',
      { name: 'E', type: 'email', controlValues: { subject: 's', body: { html: '<p/>' } } },
      { body: 'Body must be an HTML string or a block-editor document' },
    ],
    ['in_app without body or subject', { name: 'I', type: 'in_app', controlValues: { avatar: 'https://x/a.png' } }, { body: 'Subject or body is required' }],
    ['sms without body', { name: 'S', type: 'sms', controlValues: { body: '  ' } }, { body: 'Body is required' }],
    ['push without subject', { name: 'P', type: 'push', controlValues: { body: 'b' } }, { subject: 'Subject is required' }],
    ['regular delay without unit', { name: 'D', type: 'delay', controlValues: { type: 'regular', amount: 5 } }, { unit: 'Unit is required' }],
    [
      'timed delay with a bad cron',
      { name: 'D', type: 'delay', controlValues: { type: 'timed', cron: '99 * * * *' } },
      { cron: expect.stringMatching(/invalid cron expression/) },
    ],
    ['dynamic delay without key', { name: 'D', type: 'delay', controlValues: { type: 'dynamic' } }, { dynamicKey: 'Dynamic key is required' }],
    ['regular digest without amount', { name: 'G', type: 'digest', controlValues: { unit: 'hours' } }, { amount: 'Amount is required' }],
    ['timed digest without cron', { name: 'G', type: 'digest', controlValues: { type: 'timed' } }, { cron: 'Cron expression is required' }],
    [
      'fixed throttle without window',
      { name: 'T', type: 'throttle', controlValues: { threshold: 2 } },
      { amount: 'Amount is required', unit: 'Unit is required' },
    ],
    ['dynamic throttle without key', { name: 'T', type: 'throttle', controlValues: { type: 'dynamic' } }, { dynamicKey: 'Dynamic key is required' }],
    ['throttle in seconds', { name: 'T', type: 'throttle', controlValues: { amount: 1, unit: 'seconds' } }, { unit: expect.stringMatching(/^unit: /) }],
    ['http request without url', { name: 'H', type: 'http_request', controlValues: { method: 'POST' } }, { url: 'URL is required' }],
    [
      'http request with a bad method',
      { name: 'H', type: 'http_request', controlValues: { method: 'FETCH', url: 'https://x.io' } },
      { method: expect.stringMatching(/^method: /) },
    ],
  ] as const)('%s', (_name, step, expected) => {
    const issues = issuesOf([step as StepDefinition]);
    const messages = Object.fromEntries(Object.entries(issues.controls ?? {}).map(([k, list]) => [k, list[0]?.message]));
    expect(messages).toEqual(expected);
    expect(
      Object.values(issues.controls ?? {})
        .flat()
        .every((i) => i.issueType === 'MISSING_VALUE'),
    ).toBe(true);
  });

  it('flags invalid URLs in avatar, redirects and http_request', () => {
    const issues = issuesOf([
      inApp({
        body: 'b',
        avatar: 'not a url',
        redirect: { url: 'javascript:alert(1)' },
        primaryAction: { label: 'Go', redirect: { url: 'https://{{ payload.host }}/x' } },
        secondaryAction: { label: 'No', redirect: { url: 'mailto:a@b.c' } },
      }),
    ]);
    expect(Object.keys(issues.controls ?? {}).sort()).toEqual(['avatar', 'redirect.url', 'secondaryAction.redirect.url']);
    // As the service: a bad redirect URL of an in-app step is a MISSING_VALUE issue; a bad avatar, INVALID_URL.
    expect(issues.controls?.['redirect.url']?.[0]?.issueType).toBe('MISSING_VALUE');
    expect(issues.controls?.['secondaryAction.redirect.url']?.[0]?.issueType).toBe('MISSING_VALUE');
    expect(issues.controls?.avatar?.[0]).toEqual({
      issueType: 'INVALID_URL',
      variableName: 'avatar',
      message: 'Invalid URL. Must be a valid full URL, path starting with /, or {{variable}}',
    });
    const http = issuesOf([{ name: 'H', type: 'http_request', controlValues: { method: 'GET', url: 'ftp://x' } }]);
    expect(http.controls?.url?.[0]?.issueType).toBe('INVALID_URL');
  });

  it('accepts URLs, paths and variables', () => {
    for (const ok of ['https://example.com/a?b=1', '/inbox/{{ payload.id }}', '{{ payload.url }}', 'http://localhost:3000'])
      expect(isValidUrlControl(ok)).toBe(true);
    for (const bad of ['example.com', 'javascript:alert(1)', '/has space', '']) expect(isValidUrlControl(bad)).toBe(false);
  });
});

describe('stepIssues: integrations', () => {
  it('reports a channel without an active integration', () => {
    const wf = workflow({ steps: [{ name: 'SMS', type: 'sms', controlValues: { body: 'b' } }] });
    expect(stepIssues(wf, 0, { integrations: [integration({ channel: 'email', providerId: 'ses' })] })).toEqual({
      integration: { sms: [{ issueType: 'MISSING_INTEGRATION', message: 'Missing active SMS integration provider: add or activate one in this environment' }] },
    });
    expect(stepIssues(wf, 0)).toEqual({});
  });

  it('needs no integration for flow-control steps', () => {
    const wf = workflow({ steps: [{ name: 'Delay', type: 'delay', controlValues: { amount: 1, unit: 'hours' } }] });
    expect(stepIssues(wf, 0, { integrations: [] })).toEqual({});
  });
});

describe('hasIssues and describeIssues', () => {
  it('summarise issues for execution details', () => {
    const issues = issuesOf([{ name: 'S', type: 'sms', controlValues: { body: '{{ nope.x }}' } }], 0);
    expect(hasIssues(issues)).toBe(true);
    expect(hasIssues({})).toBe(false);
    expect(describeIssues(issues)).toEqual([expect.stringMatching(/^body: Variable "nope.x" is not supported/)]);
  });
});

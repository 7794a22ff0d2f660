import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_LAYOUT } from '../../../src/server/engine/email-layout.js';
import { inAppMessageFields, renderCustomOutput, renderHttpRequest, renderStep } from '../../../src/server/engine/render-step.js';

const scope = {
  subscriber: { firstName: 'Ada', email: 'ada@example.com' },
  payload: { product: 'Engine', id: 42, quote: 'say "hi"\nnow', items: [{ name: 'a' }, { name: 'b' }], evil: '<script>x()</script><b>ok</b>' },
};

describe('renderStep: in_app', () => {
  it('renders subject, body, avatar, actions, redirect and data', () => {
    const result = renderStep(
      'in_app',
      {
        subject: 'Hi {{ subscriber.firstName }}',
        body: 'Your {{ payload.product }} is ready',
        avatar: 'https://cdn/{{ payload.id }}.png',
        primaryAction: { label: 'Open', redirect: { url: '/items/{{ payload.id }}', target: '_self' } },
        secondaryAction: { label: '', redirect: { url: '/x' } },
        redirect: { url: '/home' },
        data: { id: '{{ payload.id }}', n: 1 },
        skip: { '==': [1, 1] },
      },
      scope,
    );
    expect(result).toEqual({
      ok: true,
      kind: 'in_app',
      undefinedVariables: [],
      content: {
        subject: 'Hi Ada',
        body: 'Your Engine is ready',
        avatar: 'https://cdn/42.png',
        primaryAction: { label: 'Open', redirect: { url: '/items/42', target: '_self' } },
        redirect: { url: '/home' },
        data: { id: '42', n: 1 },
      },
    });
  });

  it('sanitizes unless told not to', () => {
    const unsafe = { body: '{{ payload.evil }}' };
    expect(renderStep('in_app', unsafe, scope)).toMatchObject({ content: { body: '<b>ok</b>' } });
    expect(renderStep('in_app', { ...unsafe, disableOutputSanitization: true }, scope)).toMatchObject({ content: { body: scope.payload.evil } });
  });

  it('returns template errors with their control', () => {
    const result = renderStep('in_app', { body: 'ok', primaryAction: { label: '{% if %}' } }, scope);
    expect(result).toMatchObject({ ok: false, errors: [{ control: 'primaryAction.label', kind: 'syntax' }] });
  });

  it('maps to the message record fields', () => {
    const result = renderStep(
      'in_app',
      { body: 'b', subject: 's', primaryAction: { label: 'Go' }, secondaryAction: { label: 'Later' }, redirect: { url: '/r' } },
      scope,
    );
    expect(result.ok && inAppMessageFields(result.content)).toEqual({
      subject: 's',
      content: 'b',
      cta: {
        type: 'redirect',
        data: { url: '/r' },
        action: {
          status: 'pending',
          buttons: [
            { type: 'primary', content: 'Go' },
            { type: 'secondary', content: 'Later' },
          ],
        },
      },
    });
  });
});

describe('renderStep: email', () => {
  it('wraps an HTML body in the default layout when no layoutId is given', () => {
    const result = renderStep('email', { subject: 'Welcome {{ subscriber.firstName }}', body: '<p>{{ payload.product }}</p>' }, scope);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content.subject).toBe('Welcome Ada');
    expect(result.content.body).toMatch(/^<!DOCTYPE html><html>/);
    expect(result.content.body).toContain('<title>Welcome Ada</title>');
    expect(result.content.body).toContain('<p>Engine</p>');
  });

  it('uses no layout when layoutId is null, and a given layout by id', () => {
    expect(renderStep('email', { subject: 's', body: '<p>x</p>', layoutId: null }, scope)).toMatchObject({ content: { body: '<p>x</p>' } });
    const layouts = { brand: '<div class="brand">{{ subscriber.firstName }}|{{ content }}</div>' };
    expect(renderStep('email', { subject: 's', body: '<p>x</p>', layoutId: 'brand' }, scope, { layouts })).toMatchObject({
      content: { body: '<div class="brand">Ada|<p>x</p></div>' },
    });
    expect(renderStep('email', { subject: 's', body: '<p>x</p>', layoutId: 'unknown' }, scope)).toMatchObject({
      content: { body: expect.stringContaining('<!DOCTYPE html>') },
    });
  });

  it('does not wrap a body that is already a document', () => {
    const body = '<html><body><p>{{ payload.id }}</p></body></html>';
    expect(renderStep('email', { subject: 's', body }, scope)).toMatchObject({ content: { body: '<html><body><p>42</p></body></html>' } });
  });

  it('renders a block-editor body, given as an object or JSON text', () => {
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'for',
          attrs: { each: 'payload.items' },
          content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { id: 'payload.items.name' } }] }],
        },
      ],
    };
    for (const body of [doc, JSON.stringify(doc)]) {
      expect(renderStep('email', { subject: 's', body, layoutId: null }, scope)).toMatchObject({ content: { body: '<p>a</p><p>b</p>' } });
    }
    expect(renderStep('email', { subject: 's', body: JSON.stringify(doc), editorType: 'html', layoutId: null }, scope)).toMatchObject({
      content: { body: JSON.stringify(doc) },
    });
  });

  it('sanitizes the final HTML unless told not to', () => {
    const controls = { subject: 's', body: '<p onclick="x()">{{ payload.evil }}</p>', layoutId: null };
    expect(renderStep('email', controls, scope)).toMatchObject({ content: { body: '<p><b>ok</b></p>' } });
    expect(renderStep('email', { ...controls, disableOutputSanitization: true }, scope)).toMatchObject({
      content: { body: `<p onclick="x()">${scope.payload.evil}</p>` },
    });
  });

  it('reports undefined variables and errors per control', () => {
    const ok = renderStep('email', { subject: '{{ payload.nope }}', body: 'x', layoutId: null }, scope);
    expect(ok).toMatchObject({ ok: true, undefinedVariables: [{ control: 'subject', variable: 'payload.nope' }] });
    const bad = renderStep('email', { subject: 's', body: '{% for %}' }, scope);
    expect(bad).toMatchObject({ ok: false, errors: [{ control: 'body' }] });
  });

  it('has a default layout with a content slot', () => {
    expect(DEFAULT_EMAIL_LAYOUT).toContain('{{ content }}');
  });
});

describe('renderStep: sms, push, chat', () => {
  it('renders their text fields only', () => {
    expect(renderStep('sms', { body: 'Code {{ payload.id }}', subject: 'ignored' }, scope)).toMatchObject({ content: { body: 'Code 42' } });
    expect(renderStep('push', { subject: 'Hi {{ subscriber.firstName }}', body: 'b' }, scope)).toMatchObject({ content: { subject: 'Hi Ada', body: 'b' } });
    expect(renderStep('chat', {}, scope)).toMatchObject({ ok: true, content: { body: '' } });
  });
});

describe('renderHttpRequest', () => {
  it('renders url, headers and a JSON body whose outputs stay valid JSON', () => {
    const result = renderHttpRequest(
      {
        method: 'post',
        url: 'http://127.0.0.1:9/hook/{{ payload.id }}',
        headers: [
          { key: 'X-Id', value: '{{ payload.id }}' },
          { key: '', value: 'dropped' },
        ],
        body: '{"text": "{{ payload.quote }}", "items": {{ payload.items }}, "n": {{ payload.id }}}',
        timeout: 2000,
      },
      scope,
    );
    expect(result).toEqual({
      ok: true,
      undefinedVariables: [],
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9/hook/42',
        headers: { 'X-Id': '42' },
        body: { text: 'say "hi"\nnow', items: [{ name: 'a' }, { name: 'b' }], n: 42 },
        timeoutMs: 2000,
        continueOnFailure: false,
      },
    });
  });

  it('turns a legacy key-value body into an object and drops bodies of GET requests', () => {
    expect(renderHttpRequest({ method: 'PUT', url: 'http://x', body: [{ key: 'who', value: '{{ subscriber.firstName }}' }] }, scope)).toMatchObject({
      request: { body: { who: 'Ada' }, timeoutMs: 5000 },
    });
    const get = renderHttpRequest({ method: 'GET', url: 'http://x', body: '{"a":1}' }, scope);
    expect(get.ok && get.request).toEqual({ method: 'GET', url: 'http://x', headers: {}, timeoutMs: 5000, continueOnFailure: false });
  });

  it('sends a body that is not JSON as text, and reports template errors', () => {
    expect(renderHttpRequest({ method: 'POST', url: 'http://x', body: 'plain {{ payload.id }}' }, scope)).toMatchObject({ request: { body: 'plain 42' } });
    expect(renderHttpRequest({ method: 'POST', url: '{{ payload.id', body: '' }, scope)).toMatchObject({ ok: false, errors: [{ control: 'url' }] });
  });
});

describe('renderCustomOutput', () => {
  it('renders the custom values', () => {
    expect(renderCustomOutput({ custom: { greeting: 'Hi {{ subscriber.firstName }}', n: 2 } }, scope)).toEqual({
      ok: true,
      output: { greeting: 'Hi Ada', n: 2 },
    });
    expect(renderCustomOutput({}, scope)).toEqual({ ok: true, output: {} });
  });
});

// Pure parts of the fidelity fixes (where svc dev once differed from the hosted service): the rule editor's skip operators, text escaping in
// sanitized HTML, trigger overrides as a channel step reads them, and the email subject and layout.
import { describe, expect, it } from 'vitest';
import { CUSTOM_SKIP_OPERATORS, shouldSkip, unknownSkipOperators } from '../../../src/server/engine/conditions.js';
import { deliveryOverrides } from '../../../src/server/engine/overrides.js';
import { renderStep } from '../../../src/server/engine/render-step.js';
import { sanitizeHtml } from '../../../src/server/engine/sanitize.js';
import { buildScope } from '../../../src/server/engine/scope.js';

const scope = (payload: Record<string, unknown>) => buildScope({ subscriber: { subscriberId: 'ada' }, payload });

describe('skip operators of the rule editor', () => {
  it.each([
    [{ containsAny: [{ var: 'payload.tags' }, ['a', 'b']] }, { tags: ['b', 'c'] }, true],
    [{ containsAny: [{ var: 'payload.tags' }, ['a', 'b']] }, { tags: ['c'] }, false],
    [{ containsAll: [{ var: 'payload.tags' }, ['a', 'b']] }, { tags: ['a', 'b', 'c'] }, true],
    [{ containsNone: [{ var: 'payload.tags' }, ['a']] }, { tags: ['c'] }, true],
    [{ containsAny: [{ var: 'payload.text' }, ['urgent', 'now']] }, { text: 'do it now' }, true],
    [{ startsWith: [{ var: 'payload.code' }, 'X-'] }, { code: 'X-1' }, true],
    [{ endsWith: [{ var: 'payload.email' }, '@acme.com'] }, { email: 'a@acme.com' }, true],
    [{ doesNotBeginWith: [{ var: 'payload.code' }, 'X-'] }, { code: 'X-1' }, false],
    [{ doesNotContain: [{ var: 'payload.tags' }, 'a'] }, { tags: ['a'] }, false],
    [{ isEmpty: [{ var: 'payload.missing' }] }, {}, true],
    [{ isNotEmpty: [{ var: 'payload.tags' }] }, { tags: [] }, false],
  ])('%j on %j → skip %s', (rule, payload, skip) => {
    expect(shouldSkip(rule, scope(payload))).toEqual({ skip });
  });

  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
  it.each([
    // The service's own operators: string ones are false for anything but two strings.
    [{ contains: [{ var: 'payload.text' }, 'now'] }, { text: 'do it now' }, true],
    [{ contains: [{ var: 'payload.tags' }, 'a'] }, { tags: ['a'] }, false],
    [{ doesNotContain: [{ var: 'payload.missing' }, 'a'] }, {}, false],
    [{ '=': [{ var: 'payload.n' }, '5'] }, { n: 5 }, true],
    [{ null: [{ var: 'payload.x' }] }, { x: null }, true],
    [{ notNull: [{ var: 'payload.x' }] }, { x: 1 }, true],
    [{ notIn: [{ var: 'payload.plan' }, ['pro', 'team']] }, { plan: 'free' }, true],
    [{ notIn: [{ var: 'payload.plan' }, ['pro', 'team']] }, { plan: 'pro' }, false],
    [{ between: [{ var: 'payload.n' }, [1, 10]] }, { n: 10 }, true],
    [{ between: [{ var: 'payload.n' }, [1, 10]] }, { n: '5' }, false],
    [{ notBetween: [{ var: 'payload.n' }, [1, 10]] }, { n: 11 }, true],
    [{ moreThanXAgo: [{ var: 'payload.at' }, { amount: 2, unit: 'days' }] }, { at: daysAgo(3) }, true],
    [{ lessThanXAgo: [{ var: 'payload.at' }, { amount: 2, unit: 'days' }] }, { at: daysAgo(3) }, false],
    [{ withinLast: [{ var: 'payload.at' }, { amount: 1, unit: 'weeks' }] }, { at: daysAgo(3) }, true],
    [{ notWithinLast: [{ var: 'payload.at' }, { amount: 1, unit: 'weeks' }] }, { at: daysAgo(3) }, false],
    [{ exactlyXAgo: [{ var: 'payload.at' }, { amount: 3, unit: 'days' }] }, { at: daysAgo(3) }, true],
    [{ moreThanXAgo: [{ var: 'payload.at' }, { amount: 0, unit: 'days' }] }, { at: daysAgo(3) }, false],
    // The comparisons as the service replaces them: "true"/"false", numbers in strings, ISO dates.
    [{ '==': [{ var: 'payload.flag' }, 'true'] }, { flag: true }, true],
    [{ '==': [{ var: 'payload.n' }, '10'] }, { n: 10 }, true],
    [{ '==': [{ var: 'payload.x' }, null] }, {}, true], // a missing var is null
    [{ '==': [{ var: 'payload.s' }, 'A'] }, { s: 'a' }, false],
    [{ '!=': [{ var: 'payload.s' }, 'b'] }, { s: 'a' }, true],
    [{ '>': [{ var: 'payload.n' }, '9'] }, { n: '10' }, true],
    [{ '<': [{ var: 'payload.at' }, '2030-01-01T00:00:00Z'] }, { at: '2029-12-31T23:59:59Z' }, true],
    [{ '<': [{ var: 'payload.s' }, 'b'] }, { s: 'a' }, false],
    [{ '<=': [1, { var: 'payload.n' }, 10] }, { n: 10 }, true],
    [{ '<=': [1, { var: 'payload.n' }, 10] }, { n: 11 }, false],
  ])("the service's %j on %j → skip %s", (rule, payload, skip) => {
    expect(shouldSkip(rule, scope(payload))).toEqual({ skip });
  });

  it('are known operators (no issue), and an unknown one fails with the reason as raw', () => {
    expect(unknownSkipOperators({ and: Object.keys(CUSTOM_SKIP_OPERATORS).map((op) => ({ [op]: [1, [1]] })) })).toEqual([]);
    const d = shouldSkip({ nope: [1] }, scope({}));
    expect(d).toMatchObject({ skip: false, error: 'skip condition could not be evaluated: Unrecognized operation nope' });
    expect(JSON.parse(d.raw!)).toEqual({ rule: { nope: [1] }, reason: 'Failed to evaluate rule: Unrecognized operation nope' });
  });
});

describe('sanitized text', () => {
  it("escapes <, > and a bare & in text, keeps quotes, entities (but the quotes') and the CSS of <style>", () => {
    expect(sanitizeHtml(`<p>a < b > c & d " ' &amp; &#39; &quot;q&quot; &apos; &#x27; &#34; &lt;b&gt; &copy;</p>`)).toBe(
      `<p>a &lt; b &gt; c &amp; d " ' &amp; ' "q" ' ' " &lt;b&gt; &copy;</p>`,
    );
    // In an attribute a quote stays escaped: it would end the value.
    expect(sanitizeHtml(`<a href="https://x.test/?q=&quot;">l</a>`)).toBe(`<a href="https://x.test/?q=&quot;">l</a>`);
    expect(sanitizeHtml('<style>td > p { color: red }</style><p>x</p>')).toBe('<style>td > p { color: red }</style><p>x</p>');
  });
});

describe('email rendering', () => {
  const render = (controls: Record<string, unknown>) => {
    const r = renderStep('email', controls, scope({ x: `< > & " '` }));
    if (!r.ok) throw new Error('render failed');
    return r.content;
  };
  it('decodes entities in the subject', () => {
    expect(render({ subject: 'Hello &lt;b&gt; &amp; {{ payload.x }}', body: 'x', editorType: 'html' }).subject).toBe(`Hello <b> & < > & " '`);
  });
  it('an html body without layoutId is not wrapped; with a layoutId or a block body it is', () => {
    expect(render({ subject: 's', body: '<p>{{ payload.x }}</p>', editorType: 'html' }).body).toBe(`<p>&lt; &gt; &amp; " '</p>`);
    expect(render({ subject: 's', body: '<p>b</p>', editorType: 'html', layoutId: 'default' }).body).toMatch(/^<!DOCTYPE html>/);
    expect(render({ subject: 's', body: '<p>b</p>' }).body).toMatch(/^<!DOCTYPE html>/);
    expect(render({ subject: 's', body: '<p>b</p>', layoutId: null }).body).toBe('<p>b</p>');
  });
});

describe('trigger overrides for a channel step', () => {
  it('step overrides win over channel ones, which win over the deprecated per-channel object', () => {
    const o = {
      steps: { mail: { integrationIdentifier: 'step-mail', layoutId: null } },
      channels: { email: { layoutId: 'promo' } },
      email: { integrationIdentifier: 'legacy', toRecipient: ' to@example.com ' },
    };
    expect(deliveryOverrides(o, 'email', 'mail')).toMatchObject({
      integrationIdentifier: 'step-mail',
      layoutId: null,
      toRecipient: 'to@example.com',
      source: { integrationIdentifier: 'overrides.steps.mail.integrationIdentifier', layoutId: 'overrides.steps.mail.layoutId' },
    });
    expect(deliveryOverrides(o, 'email', 'other')).toMatchObject({ integrationIdentifier: 'legacy', layoutId: 'promo' });
    expect(deliveryOverrides({ sms: { integrationIdentifier: 'alt-sms' } }, 'sms', 's')).toMatchObject({ integrationIdentifier: 'alt-sms' });
    expect(deliveryOverrides({ email: { toRecipient: 'x@example.com' } }, 'sms', 's').toRecipient).toBeUndefined();
    expect(deliveryOverrides(undefined, 'email', 'mail')).toEqual({ source: {} });
  });
});

// Property tests: whatever users type into control values, the renderer, the analyser and the issue
// detector answer with data and never throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STEP_KINDS } from '../../../src/api/schemas/workflow.js';
import {
  analyzeTemplate,
  blockDocumentToLiquid,
  generatePreview,
  renderControls,
  renderStep,
  renderTemplate,
  sanitizeHtml,
  shouldSkip,
  stepIssues,
  toWorkflowResponse,
} from '../../../src/server/engine/index.js';
import { Workflow } from '../../../src/api/schemas/workflow.js';
import { ENV, allChannels } from './fixtures.js';

// Fragments that make random strings look like (broken) Liquid far more often than chance would.
const LIQUID_PIECES = [
  '{{',
  '}}',
  '{%',
  '%}',
  ' ',
  '|',
  ':',
  ',',
  '.',
  '"',
  "'",
  '[',
  ']',
  '(',
  ')',
  '..',
  'if',
  'endif',
  'for',
  'endfor',
  'in',
  'else',
  'assign',
  '=',
  'capture',
  'endcapture',
  'raw',
  'endraw',
  'include',
  'case',
  'when',
  'payload',
  'subscriber',
  'steps',
  'digest.events',
  'firstName',
  'x',
  '0',
  '1',
  'upcase',
  'truncate',
  'toSentence',
  'default',
  'nope',
  '-',
  '\n',
  '<script>',
  '</p>',
  '&',
  'forloop.index',
];
const liquidish = fc.oneof(
  fc.string(),
  fc.array(fc.oneof(fc.constantFrom(...LIQUID_PIECES), fc.string({ maxLength: 3 })), { maxLength: 30 }).map((parts) => parts.join('')),
);
const json = fc.jsonValue({ maxDepth: 3 });
const controls = fc.dictionary(
  fc.constantFrom(
    'subject',
    'body',
    'avatar',
    'primaryAction',
    'redirect',
    'data',
    'skip',
    'type',
    'amount',
    'unit',
    'cron',
    'digestKey',
    'dynamicKey',
    'threshold',
    'url',
    'method',
    'headers',
    'custom',
    'layoutId',
    'editorType',
    'lookBackWindow',
  ),
  fc.oneof(liquidish, json, fc.record({ label: liquidish, redirect: fc.record({ url: liquidish }) })),
);
const scope = fc.record({ payload: fc.dictionary(fc.string(), json), subscriber: fc.dictionary(fc.string(), json) });

const RUNS = { numRuns: 300 };

describe('never throws', () => {
  it('renderTemplate and analyzeTemplate on arbitrary strings and scopes', () => {
    fc.assert(
      fc.property(liquidish, scope, (source, s) => {
        const rendered = renderTemplate(source, s);
        expect(typeof rendered.ok).toBe('boolean');
        if (!rendered.ok) expect(typeof rendered.error.message).toBe('string');
        const analysed = analyzeTemplate(source);
        expect(typeof analysed.ok).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('renderControls on arbitrary objects', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(liquidish, json)), scope, (values, s) => {
        const result = renderControls(values, s);
        expect(Array.isArray(result.errors)).toBe(true);
      }),
      RUNS,
    );
  });

  it('stepIssues, renderStep and generatePreview on arbitrary control values of every kind', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STEP_KINDS), controls, (kind, values) => {
        const workflow = { workflowId: 'w', name: 'W', active: true, steps: [{ name: 'Step', type: kind, controlValues: values }] };
        const issues = stepIssues(workflow, 0, { integrations: allChannels() });
        expect(typeof issues).toBe('object');
        if (kind === 'in_app' || kind === 'email' || kind === 'sms' || kind === 'push' || kind === 'chat') {
          expect(typeof renderStep(kind, values, { payload: {} }).ok).toBe('boolean');
        }
        const preview = generatePreview({ workflow, stepId: 'step', now: 0 });
        expect(preview.result).toBeDefined();
      }),
      { numRuns: 200 },
    );
  });

  it('toWorkflowResponse always produces a valid workflow', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STEP_KINDS), controls, (kind, values) => {
        const workflow = { workflowId: 'w', name: 'W', active: true, steps: [{ name: 'Step', type: kind, controlValues: values }] };
        const response = toWorkflowResponse(workflow, { environmentId: ENV, activeIntegrations: allChannels(), createdAt: 'c', updatedAt: 'u' });
        expect(Workflow.safeParse(response).success).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('shouldSkip on arbitrary JSON', () => {
    fc.assert(
      fc.property(json, scope, (rule, s) => {
        expect(typeof shouldSkip(rule, s).skip).toBe('boolean');
      }),
      RUNS,
    );
  });

  it('blockDocumentToLiquid on arbitrary JSON trees', () => {
    const node: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.record({
        type: fc.constantFrom('doc', 'paragraph', 'text', 'variable', 'for', 'button', 'image', 'heading', 'weird'),
        text: fc.option(liquidish, { nil: undefined }),
        attrs: fc.option(fc.dictionary(fc.constantFrom('id', 'each', 'showIfKey', 'url', 'src', 'level', 'fallback'), fc.oneof(liquidish, json)), {
          nil: undefined,
        }),
        content: fc.option(fc.array(tie('node'), { maxLength: 3 }), { nil: undefined }),
      }),
    })).node;
    fc.assert(
      fc.property(node, (doc) => {
        const liquid = blockDocumentToLiquid(doc as never);
        expect(typeof renderTemplate(liquid, { payload: {} }).ok).toBe('boolean');
      }),
      RUNS,
    );
  });
});

describe('sanitizeHtml', () => {
  it('never lets a script element or an event handler through', () => {
    const html = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            '<script>',
            '</script>',
            '<SCRIPT src=x>',
            '<img src=x onerror=alert(1)>',
            '<a href="javascript:x">',
            '<p>',
            '</p>',
            '<',
            '>',
            '"',
            "'",
            '<!--',
            '-->',
            '<svg onload=x>',
            '<iframe>',
          ),
          fc.string({ maxLength: 5 }),
        ),
        { maxLength: 25 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(html, (input) => {
        const out = sanitizeHtml(input);
        expect(out).not.toMatch(/<script/i);
        expect(out).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
        expect(out).not.toMatch(/href="\s*javascript:/i);
      }),
      { numRuns: 500 },
    );
  });
});

// Step issues in the service's shape: `controls` (template syntax, illegal variables, bad filters,
// invalid URLs, missing values) keyed by control path, and `integration` keyed by channel. A workflow
// with issues reports status ERROR, and the job runner fails a step that still has them.
import type { Integration } from '../../api/schemas/resources.js';
import type { z } from 'zod';
import { CONTROL_SCHEMAS, type StepIssue, type StepIssues } from '../../api/schemas/workflow.js';
import { analyzeTemplate, controlTemplates, type FilterUse } from './analysis.js';
import { parseBlockDocument } from './block-editor.js';
import { skipVariables, unknownSkipOperators } from './conditions.js';
import { chooseIntegration } from './integrations.js';
import { liquid } from './template.js';
import { cronProblem } from './timing.js';
import { isChannelKind, type StepKind, type WorkflowDefinition } from './types.js';
import { resolveSteps, variableProblem, type VariableContext } from './variables.js';

type ControlIssue = z.infer<typeof StepIssue>;

class IssueMap {
  readonly controls: Record<string, ControlIssue[]> = {};
  add(control: string, issue: ControlIssue): void {
    const list = (this.controls[control] ??= []);
    if (!list.some((i) => i.issueType === issue.issueType && i.message === issue.message)) list.push(issue);
  }
  has(control: string): boolean {
    return (this.controls[control]?.length ?? 0) > 0;
  }
}

// --- filters ------------------------------------------------------------------------------------

/** [min, max] positional arguments, and which positions must be numbers, for the filters people use. */
const FILTER_ARITY: Record<string, [number, number, number[]?]> = {
  append: [1, 1],
  prepend: [1, 1],
  remove: [1, 1],
  remove_first: [1, 1],
  remove_last: [1, 1],
  replace: [2, 2],
  replace_first: [2, 2],
  replace_last: [2, 2],
  split: [1, 1],
  join: [0, 1],
  truncate: [0, 2, [0]],
  truncatewords: [0, 2, [0]],
  slice: [1, 2, [0, 1]],
  default: [1, 1],
  date: [0, 2],
  plus: [1, 1, [0]],
  minus: [1, 1, [0]],
  times: [1, 1, [0]],
  divided_by: [1, 2, [0]],
  modulo: [1, 1, [0]],
  round: [0, 1, [0]],
  at_least: [1, 1, [0]],
  at_most: [1, 1, [0]],
  abs: [0, 0],
  ceil: [0, 0],
  floor: [0, 0],
  upcase: [0, 0],
  downcase: [0, 0],
  capitalize: [0, 0],
  strip: [0, 1],
  lstrip: [0, 1],
  rstrip: [0, 1],
  escape: [0, 0],
  escape_once: [0, 0],
  strip_html: [0, 0],
  strip_newlines: [0, 0],
  newline_to_br: [0, 0],
  url_encode: [0, 0],
  url_decode: [0, 0],
  size: [0, 0],
  first: [0, 0],
  last: [0, 0],
  reverse: [0, 0],
  uniq: [0, 0],
  sort: [0, 1],
  sort_natural: [0, 1],
  map: [1, 1],
  where: [1, 2],
  concat: [1, 1],
  json: [0, 1, [0]],
  digest: [0, 4, [0]],
  toSentence: [0, 7, [1]],
  pluralize: [0, 2],
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function filterProblem(filter: FilterUse): string | null {
  if (!Object.prototype.hasOwnProperty.call(liquid().filters, filter.name)) return 'does not exist';
  const arity = FILTER_ARITY[filter.name];
  if (arity) {
    const [min, max, numeric = []] = arity;
    const n = filter.args.length;
    if (n < min) return `needs at least ${plural(min, 'argument')}, got ${n}`;
    if (n > max) return `takes at most ${plural(max, 'argument')}, got ${n}`;
    for (const i of numeric) {
      const arg = filter.args[i];
      const isNumber =
        arg === undefined ||
        arg.kind === 'number' ||
        arg.kind === 'variable' ||
        (arg.kind === 'string' && arg.value.trim() !== '' && !Number.isNaN(Number(arg.value)));
      if (!isNumber) return `argument ${i + 1} must be a number`;
    }
  }
  if (filter.name === 'toSentence' && /^steps\.[^.]+\.events$/.test(filter.subject ?? '')) {
    const keyPath = filter.args[0];
    if (!keyPath || (keyPath.kind === 'string' && keyPath.value.trim() === '')) {
      return 'needs a key path for digest events, e.g. toSentence: "payload.name"';
    }
  }
  return null;
}

// --- templates ----------------------------------------------------------------------------------

function templateIssues(controls: Record<string, unknown>, ctx: VariableContext, issues: IssueMap): void {
  for (const { control, source } of controlTemplates(controls)) {
    const analysis = analyzeTemplate(source);
    if (!analysis.ok) {
      const { message, line, column } = analysis.error;
      const where = line !== undefined ? ` (line ${line}, column ${column})` : '';
      issues.add(control, {
        issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE',
        variableName: analysis.error.variable ?? offendingExpression(source, line, column) ?? control,
        message: `Content compilation error: ${message}${where}`,
      });
      continue;
    }
    for (const variable of analysis.variables) {
      const problem = variableProblem(variable, ctx);
      if (problem)
        issues.add(control, { issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: variable.path, message: `Variable "${variable.path}" ${problem}` });
    }
    for (const filter of analysis.filters) {
      const problem = filterProblem(filter);
      if (problem) {
        issues.add(control, {
          issueType: 'INVALID_FILTER_ARG_IN_VARIABLE',
          variableName: filter.subject ?? filter.expression,
          message: `Filter "${filter.name}" in "${filter.expression}" ${problem}`,
        });
      }
    }
  }
}

/**
 * The `{{ … }}` (or `{% … %}`) a compile error points into, as written, e.g. `{{ payload.name | }}`:
 * the service names the offending variable in `variableName`, not the control.
 */
function offendingExpression(source: string, line: number | undefined, column: number | undefined): string | undefined {
  const lines = source.split('\n');
  const at = line !== undefined && column !== undefined ? lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1 : -1;
  const blocks = [...source.matchAll(/\{\{[\s\S]*?(?:\}\}|$)|\{%[\s\S]*?(?:%\}|$)/g)];
  const hit = blocks.find((m) => at >= m.index! && at < m.index! + m[0].length) ?? (at < 0 ? blocks[0] : undefined);
  // An unclosed `{{` swallows the rest of the control: name only its first line.
  return hit ? hit[0].split('\n')[0]!.trim() : undefined;
}

function skipIssues(skip: unknown, ctx: VariableContext, issues: IssueMap): void {
  if (skip === undefined || skip === null) return;
  if (typeof skip !== 'object' || Array.isArray(skip)) {
    issues.add('skip', { issueType: 'MISSING_VALUE', variableName: 'skip', message: 'Skip conditions must be a JSON-logic object' });
    return;
  }
  for (const op of unknownSkipOperators(skip)) {
    issues.add('skip', { issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'skip', message: `Unknown operator "${op}" in skip conditions` });
  }
  for (const path of skipVariables(skip)) {
    const segments = path.split('.');
    const problem = variableProblem({ path, root: segments[0] as string, segments }, ctx);
    if (problem) issues.add('skip', { issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: path, message: `Variable "${path}" ${problem}` });
  }
}

// --- values -------------------------------------------------------------------------------------

const URL_MESSAGE = 'Invalid URL. Must be a valid full URL, path starting with /, or {{variable}}';

/** A full http(s) URL (variables allowed inside), a path starting with `/`, or a `{{ variable }}`. */
export function isValidUrlControl(value: string): boolean {
  const v = value.trim();
  if (v.startsWith('{{')) return true;
  if (v.startsWith('/')) return !/\s/.test(v.replace(/\{\{[\s\S]*?\}\}/g, ''));
  try {
    const url = new URL(v.replace(/\{\{[\s\S]*?\}\}/g, 'x'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function get(controls: Record<string, unknown>, path: string): unknown {
  let current: unknown = controls;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function requireValue(controls: Record<string, unknown>, path: string, label: string, issues: IssueMap): void {
  if (blank(get(controls, path))) issues.add(path, { issueType: 'MISSING_VALUE', variableName: path, message: `${label} is required` });
}

function checkUrl(controls: Record<string, unknown>, path: string, issues: IssueMap, issueType: 'INVALID_URL' | 'MISSING_VALUE' = 'INVALID_URL'): void {
  const value = get(controls, path);
  if (typeof value === 'string' && value.trim() !== '' && !isValidUrlControl(value)) {
    issues.add(path, { issueType, variableName: path, message: URL_MESSAGE });
  }
}

function checkCron(controls: Record<string, unknown>, issues: IssueMap): void {
  requireValue(controls, 'cron', 'Cron expression', issues);
  const cron = controls.cron;
  if (typeof cron === 'string' && cron.trim() !== '') {
    const problem = cronProblem(cron);
    if (problem) issues.add('cron', { issueType: 'MISSING_VALUE', variableName: 'cron', message: problem });
  }
}

function emailBodyProblem(body: unknown): string | null {
  const doc = parseBlockDocument(body);
  if (doc) return (doc.content ?? []).length === 0 ? 'Body is required' : null;
  if (blank(body)) return 'Body is required';
  return typeof body === 'string' ? null : 'Body must be an HTML string or a block-editor document';
}

function valueIssues(kind: StepKind, controls: Record<string, unknown>, issues: IssueMap): void {
  switch (kind) {
    case 'email':
      requireValue(controls, 'subject', 'Subject', issues);
      {
        const problem = emailBodyProblem(controls.body);
        if (problem) issues.add('body', { issueType: 'MISSING_VALUE', variableName: 'body', message: problem });
      }
      break;
    case 'in_app':
      if (blank(controls.body) && blank(controls.subject)) {
        issues.add('body', { issueType: 'MISSING_VALUE', variableName: 'body', message: 'Subject or body is required' });
      }
      for (const action of ['primaryAction', 'secondaryAction']) {
        if (controls[action] === undefined || controls[action] === null) continue;
        requireValue(controls, `${action}.label`, 'Label', issues);
        if (get(controls, `${action}.redirect`) !== undefined) requireValue(controls, `${action}.redirect.url`, 'URL', issues);
        // The service reports a bad redirect URL of an in-app step as a missing value, not INVALID_URL.
        checkUrl(controls, `${action}.redirect.url`, issues, 'MISSING_VALUE');
      }
      if (controls.redirect !== undefined && controls.redirect !== null) requireValue(controls, 'redirect.url', 'URL', issues);
      checkUrl(controls, 'redirect.url', issues, 'MISSING_VALUE');
      checkUrl(controls, 'avatar', issues);
      break;
    case 'sms':
    case 'chat':
      requireValue(controls, 'body', 'Body', issues);
      break;
    case 'push':
      requireValue(controls, 'subject', 'Subject', issues);
      requireValue(controls, 'body', 'Body', issues);
      break;
    case 'delay': {
      const type = controls.type ?? 'regular';
      if (type === 'regular') {
        requireValue(controls, 'amount', 'Amount', issues);
        requireValue(controls, 'unit', 'Unit', issues);
      } else if (type === 'timed') {
        checkCron(controls, issues);
      } else if ((type === 'dynamic' || type === 'scheduled') && blank(controls.dynamicKey) && blank(controls.delayPath)) {
        issues.add('dynamicKey', { issueType: 'MISSING_VALUE', variableName: 'dynamicKey', message: 'Dynamic key is required' });
      }
      break;
    }
    case 'digest': {
      const timed = controls.type === 'timed' || (controls.type === undefined && !blank(controls.cron));
      if (timed) {
        checkCron(controls, issues);
      } else {
        requireValue(controls, 'amount', 'Amount', issues);
        requireValue(controls, 'unit', 'Unit', issues);
      }
      if (controls.lookBackWindow !== undefined && controls.lookBackWindow !== null) {
        requireValue(controls, 'lookBackWindow.amount', 'Look-back amount', issues);
        requireValue(controls, 'lookBackWindow.unit', 'Look-back unit', issues);
      }
      break;
    }
    case 'throttle':
      if ((controls.type ?? 'fixed') === 'fixed') {
        requireValue(controls, 'amount', 'Amount', issues);
        requireValue(controls, 'unit', 'Unit', issues);
      } else {
        requireValue(controls, 'dynamicKey', 'Dynamic key', issues);
      }
      break;
    case 'http_request':
      requireValue(controls, 'method', 'Method', issues);
      requireValue(controls, 'url', 'URL', issues);
      checkUrl(controls, 'url', issues);
      break;
    default:
      break;
  }
}

/** Type and range problems the zod schema of the kind finds, on controls not already flagged. */
function schemaIssues(kind: StepKind, controls: Record<string, unknown>, issues: IssueMap): void {
  const parsed = CONTROL_SCHEMAS[kind].safeParse(controls);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    if (path === '' || issues.has(path) || [...Object.keys(issues.controls)].some((k) => k.startsWith(`${path}.`))) continue;
    issues.add(path, { issueType: 'MISSING_VALUE', variableName: path, message: `${path}: ${issue.message}` });
  }
}

interface IssueContext {
  /** The environment's integrations; leave out to skip integration issues. */
  integrations?: readonly Integration[];
}

/** The issues of one step of a workflow (by position), in the spec's `StepIssues` shape. */
export function stepIssues(workflow: WorkflowDefinition, stepIndex: number, ctx: IssueContext = {}): StepIssues {
  const steps = resolveSteps(workflow);
  const step = steps[stepIndex];
  if (!step) throw new RangeError(`workflow ${workflow.workflowId} has no step at position ${stepIndex}`);
  const variables: VariableContext = {
    earlierSteps: steps.slice(0, stepIndex),
    allStepIds: new Set(steps.map((s) => s.stepId)),
    payloadSchema: workflow.payloadSchema ?? null,
  };
  const issues = new IssueMap();
  const controls = step.controlValues;
  valueIssues(step.type, controls, issues);
  templateIssues(controls, variables, issues);
  skipIssues(controls.skip, variables, issues);
  schemaIssues(step.type, controls, issues);
  const result: StepIssues = {};
  if (Object.keys(issues.controls).length > 0) result.controls = issues.controls;
  if (ctx.integrations && isChannelKind(step.type)) {
    const choice = chooseIntegration(step.type, ctx.integrations);
    if (!choice.ok) result.integration = { [step.type]: [choice.issue] };
  }
  return result;
}

export function hasIssues(issues: StepIssues | undefined): boolean {
  const count = (map: Record<string, unknown[]> | undefined) => Object.values(map ?? {}).some((list) => list.length > 0);
  return count(issues?.controls) || count(issues?.integration);
}

/** One line per issue, e.g. `body: Variable "user.name" is not supported...`, for execution details. */
export function describeIssues(issues: StepIssues | undefined): string[] {
  const lines: string[] = [];
  for (const [key, list] of Object.entries(issues?.controls ?? {})) for (const i of list) lines.push(`${key}: ${i.message}`);
  for (const [channel, list] of Object.entries(issues?.integration ?? {})) for (const i of list) lines.push(`${channel} integration: ${i.message}`);
  return lines;
}

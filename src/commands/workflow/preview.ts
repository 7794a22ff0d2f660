// svc workflow preview WORKFLOW_ID STEP_ID [--payload] [--subscriber] [--controls] [--context]
// → POST /v2/workflows/{workflowId}/step/{stepId}/preview (a POST that changes nothing).
import { collect } from '../../cli-args.js';
import { ApiError, EXIT, SvcError } from '../../core/errors.js';
import { checkId, isPlainObject } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { contextMap, payloadFrom } from '../shared.js';

export const command = () =>
  examples(
    new Command('preview')
      .description(about('render a step with a payload', 'previewStep'))
      .argument('<workflowId>', 'workflow identifier')
      .argument('<stepId>', 'step identifier')
      .option('--payload <json>', 'payload: inline JSON, @file or -')
      .option('--set <key=value>', 'set a payload field (repeatable; key:=<json> for non-strings)', collect)
      .option('--subscriber <id|json>', "a subscriber id (renders with that subscriber's stored fields), or the fields as JSON")
      .option('--controls <json>', 'control values to render instead of the saved ones')
      .option('--context <type=id|json>', 'context entry TYPE=ID, or a JSON map (repeatable)', collect),
    [
      'svc workflow preview welcome in-app --set name=Ada',
      'svc workflow preview welcome email --payload @data.json --subscriber ada',
      'svc workflow preview welcome email --subscriber \'{"firstName":"Ada"}\'',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [workflow, step]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', workflow);
  const stepId = checkId('STEP_ID', step);
  const previewPayload: Record<string, unknown> = {};
  const payload = await payloadFrom(deps, opts.payload, opts.set);
  if (payload) previewPayload.payload = payload;
  const subscriberJson = opts.subscriber !== undefined && isJsonValue(opts.subscriber);
  if (subscriberJson) previewPayload.subscriber = await deps.input.jsonObject('--subscriber', opts.subscriber!);
  const context = await contextMap(deps, '--context', opts.context);
  if (context) previewPayload.context = context;
  const controlValues = opts.controls !== undefined ? await deps.input.jsonObject('--controls', opts.controls) : undefined;
  const subscriberId = opts.subscriber !== undefined && !subscriberJson ? checkId('--subscriber', opts.subscriber) : undefined;
  const body: Record<string, unknown> = {};
  if (Object.keys(previewPayload).length) body.previewPayload = previewPayload;
  if (controlValues !== undefined) body.controlValues = controlValues;
  const labels = flagLabels({ controlValues: '--controls' });
  const { PreviewBody } = await import('../../api/schemas/workflow.js');
  const valid = parseOrUsage(PreviewBody, body, (p) => {
    const m = /^previewPayload\.(payload|subscriber|context)(.*)$/.exec(p);
    return m ? `--${m[1]}${m[2] ? ` ${m[2].replace(/^\./, '')}` : ''}` : labels(p);
  });
  const api = await deps.client();
  // Looked up once everything typed is known to be valid: bad input sends nothing.
  if (subscriberId !== undefined) valid.previewPayload = { ...valid.previewPayload, subscriber: await storedSubscriber(api, subscriberId) };
  const res = await api.call(
    'previewStep',
    { params: { workflowId, stepId }, body: valid },
    { mutates: false, bodyLabel: (f) => (f === 'controlValues' ? '--controls' : '--payload/--subscriber') },
  );
  if (!res) return;
  const result = (isPlainObject(res.data) && isPlainObject(res.data.result) ? res.data.result : {}) as Record<string, unknown>;
  const preview = result.preview;
  // A code-first step whose bridge call failed: the answer's error holds the bridge's whole answer
  // (with the app's stack) as its hint. JSON output keeps it; a terminal gets one line. Either way the
  // preview failed, and the exit code says so.
  if (isPlainObject(result.error) && isBridgeFailure(result.error)) {
    if (deps.format() !== 'table') {
      await deps.print(res.data, { view: 'preview' });
      throw bridgePreviewError(workflowId, stepId, result.error);
    }
    throw bridgePreviewError(workflowId, stepId, result.error, "the bridge's whole answer is in -o json");
  }
  // The service answers an unknown workflow or step with an empty preview (201): say which it was.
  if (isPlainObject(preview) && Object.keys(preview).length === 0) {
    await explainEmpty(api, workflowId, stepId);
  }
  if (deps.format() !== 'table' || !isPlainObject(preview)) {
    await deps.print(res.data, { view: 'preview' });
    return;
  }
  // A terminal gets the message whole: the table holds the short fields, the body follows it wrapped
  // (an HTML body as the text it shows).
  const { TEXT_FIELDS, textBlock } = await import('./preview-text.js');
  const long = TEXT_FIELDS.filter((k) => k !== 'subject' && typeof preview[k] === 'string' && preview[k] !== '');
  const short = Object.fromEntries(Object.entries(preview).filter(([k]) => !(long as string[]).includes(k)));
  await deps.print({ ...(res.data as object), result: { ...result, preview: short } }, { view: 'preview' });
  const width = deps.io.stdout.columns || 100;
  for (const k of long) await deps.print(textBlock(k, preview[k] as string, width), { view: 'preview' });
}

/**
 * `--subscriber` given as JSON (inline, @file or stdin) rather than as a subscriber id. An inline
 * array is JSON too, so it is refused as the wrong type instead of looked up as an id.
 */
function isJsonValue(v: string): boolean {
  return v === '-' || v.startsWith('@') || /^\s*[{[]/.test(v);
}

/** What the preview renders `subscriber.*` with: the stored subscriber's own fields. */
const SUBSCRIBER_FIELDS = ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

/**
 * The subscriber as stored, for the preview. Under --dry-run nothing is read: the request printed
 * carries the id alone. Unknown: exit 5, with the id of another case when one exists.
 */
async function storedSubscriber(api: Awaited<ReturnType<Deps['client']>>, subscriberId: string): Promise<Record<string, unknown>> {
  let res: Awaited<ReturnType<typeof api.call>>;
  try {
    res = await api.call('getSubscriber', { params: { subscriberId } });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      throw new SvcError(
        `--subscriber: no subscriber has the id '${subscriberId}'`,
        'not_found',
        EXIT.notFound,
        'svc subscribers search --name NAME finds ids',
      );
    }
    throw e;
  }
  if (!res) return { subscriberId };
  const stored = (isPlainObject(res.data) ? res.data : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of SUBSCRIBER_FIELDS) if (stored[k] !== undefined && stored[k] !== null) out[k] = stored[k];
  return out;
}

/** An empty preview: the workflow or the step does not exist (exit 5, naming the steps there are). */
async function explainEmpty(api: Awaited<ReturnType<Deps['client']>>, workflowId: string, stepId: string): Promise<void> {
  let wf: { steps?: { stepId?: string; slug?: string; _id?: string; name?: string }[] } | undefined;
  try {
    wf = (await api.call('getWorkflow', { params: { workflowId } }))?.data as typeof wf;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      throw new SvcError(`no workflow ${workflowId}`, 'not_found', EXIT.notFound, 'svc workflow list shows the workflow ids');
    }
    throw e;
  }
  const steps = wf?.steps ?? [];
  const known = steps.some((s) => [s.stepId, s.slug, s._id].includes(stepId));
  if (known) return; // the step is there and rendered nothing: the empty preview is the answer
  const ids = steps.map((s) => s.stepId ?? s.slug ?? s._id).filter(Boolean);
  throw new SvcError(`no step ${stepId} in ${workflowId}; its steps: ${ids.length ? ids.join(', ') : '(none)'}`, 'not_found', EXIT.notFound);
}

/**
 * The answer's error is a code-first step's bridge call that failed (svc dev's: the raw bridge answer,
 * with its URL and action, is the hint). A template error of a step kept in the service is the answer
 * itself, shown as such, and exits 0.
 */
function isBridgeFailure(error: Record<string, unknown>): boolean {
  if (error.title === 'Bridge preview failed') return true;
  try {
    const raw: unknown = typeof error.hint === 'string' && error.hint.startsWith('{') ? JSON.parse(error.hint) : undefined;
    return isPlainObject(raw) && typeof raw.url === 'string' && raw.action === 'preview';
  } catch {
    return false;
  }
}

/**
 * A failed preview in one line: the step, the bridge URL and the reason (the app's error, or why
 * nothing answered). Nothing answered at the bridge: exit 4, as `workflow sync` says it; an answer
 * that was an error (the app threw): exit 1.
 */
function bridgePreviewError(workflowId: string, stepId: string, error: Record<string, unknown>, hint?: string): SvcError {
  const message = typeof error.message === 'string' ? error.message : 'no reason given';
  const title = typeof error.title === 'string' && error.title !== '' ? error.title.toLowerCase() : 'preview failed';
  let raw: { url?: unknown; statusCode?: unknown } = {};
  try {
    const parsed: unknown = typeof error.hint === 'string' ? JSON.parse(error.hint) : undefined;
    if (isPlainObject(parsed)) raw = parsed;
  } catch {
    // A hint that is not the bridge's answer: the message alone says it.
  }
  const url = typeof raw.url === 'string' ? raw.url.split('?')[0]! : undefined;
  const reason = url !== undefined && message.startsWith(`${url}: `) ? message.slice(url.length + 2) : message;
  const short = reason.length > 300 ? `${reason.slice(0, 299)}…` : reason;
  const answered = typeof raw.statusCode === 'number';
  return new SvcError(
    `step ${stepId} of ${workflowId}: ${title}${url !== undefined ? ` at ${url}` : ''}: ${short}`,
    answered ? 'bridge_preview_failed' : 'bridge_unreachable',
    answered || url === undefined ? EXIT.failure : EXIT.network,
    hint === undefined || answered ? hint : 'is the app running and serving its bridge there?',
  );
}

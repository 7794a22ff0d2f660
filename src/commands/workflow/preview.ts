// svc workflow preview WORKFLOW_ID STEP_ID [--payload] [--subscriber] [--controls] [--context]
// → POST /v2/workflows/{workflowId}/step/{stepId}/preview (a POST that changes nothing).
import { collect } from '../../cli-args.js';
import { checkId } from '../../core/input.js';
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
      .option('--subscriber <json>', 'subscriber fields as JSON, e.g. {"firstName":"Ada"}')
      .option('--controls <json>', 'control values to render instead of the saved ones')
      .option('--context <type=id|json>', 'context entry TYPE=ID, or a JSON map (repeatable)', collect),
    ['svc workflow preview welcome in-app --set name=Ada', 'svc workflow preview welcome email --payload @data.json --subscriber \'{"firstName":"Ada"}\''],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [workflow, step]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', workflow);
  const stepId = checkId('STEP_ID', step);
  const previewPayload: Record<string, unknown> = {};
  const payload = await payloadFrom(deps, opts.payload, opts.set);
  if (payload) previewPayload.payload = payload;
  if (opts.subscriber !== undefined) previewPayload.subscriber = await deps.input.jsonObject('--subscriber', opts.subscriber);
  const context = await contextMap(deps, '--context', opts.context);
  if (context) previewPayload.context = context;
  const body: Record<string, unknown> = {};
  if (Object.keys(previewPayload).length) body.previewPayload = previewPayload;
  if (opts.controls !== undefined) body.controlValues = await deps.input.jsonObject('--controls', opts.controls);
  const labels = flagLabels({ controlValues: '--controls' });
  const { PreviewBody } = await import('../../api/schemas/workflow.js');
  const valid = parseOrUsage(PreviewBody, body, (p) => {
    const m = /^previewPayload\.(payload|subscriber|context)(.*)$/.exec(p);
    return m ? `--${m[1]}${m[2] ? ` ${m[2].replace(/^\./, '')}` : ''}` : labels(p);
  });
  const res = await (await deps.client()).call('previewStep', { params: { workflowId, stepId }, body: valid }, { mutates: false });
  if (res) await deps.print(res.data, { view: 'preview' });
}

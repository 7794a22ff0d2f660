// svc workflow preview WORKFLOW_ID STEP_ID [--payload] [--subscriber] [--controls] [--context]
// → POST /v2/workflows/{workflowId}/step/{stepId}/preview (a POST that changes nothing).
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { PreviewBody } from '../../api/schemas/workflow.js';
import { contextMap, payloadFrom } from '../shared.js';

export interface PreviewOptions {
  payload?: string;
  set?: string[];
  subscriber?: string;
  controls?: string;
  context?: string[];
}

export async function run(deps: Deps, opts: PreviewOptions, args: unknown[]): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', String(args[0]));
  const stepId = checkId('STEP_ID', String(args[1]));
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
  const valid = parseOrUsage(PreviewBody, body, (p) => {
    const m = /^previewPayload\.(payload|subscriber|context)(.*)$/.exec(p);
    return m ? `--${m[1]}${m[2] ? ` ${m[2].replace(/^\./, '')}` : ''}` : labels(p);
  });
  const res = await call(deps, operations.previewStep, { params: { workflowId, stepId }, body: valid }, { mutates: false });
  if (res) await deps.print(res.data, { view: 'preview' });
}

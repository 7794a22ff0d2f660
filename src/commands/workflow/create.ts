// svc workflow create --data @workflow.yaml → POST /v2/workflows
import type { Deps } from '../../deps.js';
import { parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { CreateWorkflowBody } from '../../api/schemas/workflow.js';

export async function run(deps: Deps, opts: { data: string }): Promise<void> {
  const data = await deps.input.jsonObject('--data', opts.data);
  const body = parseOrUsage(CreateWorkflowBody, data, (p) => `--data ${p}`.trim());
  const res = await call(deps, operations.createWorkflow, { body });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

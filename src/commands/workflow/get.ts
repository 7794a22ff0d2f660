// svc workflow get WORKFLOW_ID → GET /v2/workflows/{workflowId}
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

export async function run(deps: Deps, opts: { environmentId?: string }, args: unknown[]): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', String(args[0]));
  const query = opts.environmentId !== undefined ? { environmentId: checkId('--environment-id', opts.environmentId) } : undefined;
  const res = await call(deps, operations.getWorkflow, { params: { workflowId }, ...(query ? { query } : {}) });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

// svc workflow deactivate WORKFLOW_ID → PATCH /v2/workflows/{workflowId} {"active": false}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('deactivate')
      .description(about('deactivate a workflow: triggers answer trigger_not_active', 'patchWorkflow'))
      .argument('<workflowId>', 'workflow identifier, slug or id'),
    ['svc workflow deactivate welcome'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', id);
  const res = await (await deps.client()).call('patchWorkflow', { params: { workflowId }, body: { active: false } });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

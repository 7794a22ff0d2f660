// svc workflow delete WORKFLOW_ID [--yes] → DELETE /v2/workflows/{workflowId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete a workflow (asks first on a terminal)', 'deleteWorkflow'))
      .argument('<workflowId>', 'workflow identifier, slug or id')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc workflow delete old-welcome', 'svc workflow delete old-welcome --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', id);
  if (!(await confirmed(deps, `workflow ${workflowId}`, opts.yes))) return;
  const res = await (await deps.client()).call('deleteWorkflow', { params: { workflowId } });
  if (res) deps.info(`deleted workflow ${workflowId}`);
}

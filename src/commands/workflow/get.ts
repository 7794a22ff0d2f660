// svc workflow get WORKFLOW_ID → GET /v2/workflows/{workflowId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('get')
      .description(about('show a workflow with its steps and issues', 'getWorkflow'))
      .argument('<workflowId>', 'workflow identifier, slug or id')
      .option('--environment-id <id>', 'environment id'),
    ['svc workflow get welcome', 'svc workflow get welcome --json | jq ".steps[].issues"'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', id);
  const query = opts.environmentId !== undefined ? { environmentId: checkId('--environment-id', opts.environmentId) } : undefined;
  const res = await (await deps.client()).call('getWorkflow', { params: { workflowId }, ...(query ? { query } : {}) });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

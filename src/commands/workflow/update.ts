// svc workflow update WORKFLOW_ID --data FILE → PUT /v2/workflows/{workflowId}
import { checkId } from '../../core/input.js';
import { parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { DATA_HELP, readDefinition } from './definition.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('update')
      .description(about('replace a workflow with a new definition', 'updateWorkflow'))
      .argument('<workflowId>', 'workflow identifier, slug or id')
      .requiredOption('--data <file>', DATA_HELP),
    [
      'svc workflow update welcome --data workflows/welcome.yaml',
      'svc workflow get welcome --json | jq \'.name = "Welcome v2"\' | svc workflow update welcome --data -',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const workflowId = checkId('WORKFLOW_ID', id);
  const data = await readDefinition(deps, opts.data);
  const { UpdateWorkflowBody } = await import('../../api/schemas/workflow.js');
  const body = parseOrUsage(UpdateWorkflowBody, data, (p) => `--data ${p}`.trim());
  const res = await (await deps.client()).call('updateWorkflow', { params: { workflowId }, body }, { bodyLabel: () => '--data' });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

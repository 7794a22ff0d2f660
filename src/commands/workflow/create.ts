// svc workflow create --data @workflow.yaml → POST /v2/workflows
import { parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('create').description(about('create a workflow from a definition', 'createWorkflow')).requiredOption('--data <json>', 'the workflow as JSON or YAML: inline, @file or -'),
    ['svc workflow create --data @workflows/welcome.yaml'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const data = await deps.input.jsonObject('--data', opts.data);
  const { CreateWorkflowBody } = await import('../../api/schemas/workflow.js');
  const body = parseOrUsage(CreateWorkflowBody, data, (p) => `--data ${p}`.trim());
  const res = await (await deps.client()).call('createWorkflow', { body });
  if (res) await deps.print(res.data, { view: 'workflow' });
}

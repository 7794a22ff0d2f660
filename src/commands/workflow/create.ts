// svc workflow create --data FILE → POST /v2/workflows
import { parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { DATA_HELP, readDefinition } from './definition.js';
import { about, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(new Command('create').description(about('create a workflow from a definition', 'createWorkflow')).requiredOption('--data <file>', DATA_HELP), [
    'svc workflow create --data workflows/welcome.yaml',
    'svc workflow get welcome --json | jq \'.workflowId = "welcome-2"\' | svc workflow create --data -',
  ]);

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const data = await readDefinition(deps, opts.data);
  const { CreateWorkflowBody } = await import('../../api/schemas/workflow.js');
  const body = parseOrUsage(CreateWorkflowBody, data, (p) => `--data ${p}`.trim());
  const res = await (await deps.client()).call('createWorkflow', { body }, { bodyLabel: () => '--data' });
  if (!res) return;
  await deps.print(res.data, { view: 'workflow' });
  // The service gives a workflowId already taken a suffix rather than refusing it: a re-run of the
  // same file makes a second workflow, which a person should hear about.
  const made = (res.data as { workflowId?: unknown } | undefined)?.workflowId;
  if (typeof made === 'string' && made !== body.workflowId) {
    deps.warn(
      `workflowId '${body.workflowId}' was already taken: the service created '${made}' (to change the existing one: svc workflow update ${body.workflowId} --data FILE)`,
    );
  }
}

// svc contexts create TYPE ID [--data JSON] → POST /v2/contexts
import type { Deps } from '../../deps.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('create')
      .description(about('create a context', 'createContext'))
      .argument('<type>', 'context type, e.g. tenant (1-100 of a-z A-Z 0-9 _ -)')
      .argument('<id>', 'context id (1-100 of a-z A-Z 0-9 _ -)')
      .option('--data <json>', 'custom data as a JSON object'),
    ['svc contexts create tenant acme --data \'{"plan":"pro"}\''],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [type, id]: ArgsOf<typeof command>): Promise<void> {
  const body: Record<string, unknown> = { type, id };
  if (opts.data !== undefined) body.data = await deps.input.jsonObject('--data', opts.data);
  const { CreateContextBody } = await import('../../api/schemas/requests.js');
  const valid = parseOrUsage(CreateContextBody, body, flagLabels({ type: 'TYPE', id: 'ID', data: '--data' }));
  const res = await (await deps.client()).call('createContext', { body: valid }, { bodyLabel: (f) => (f === 'data' ? '--data' : f) });
  if (res) await deps.print(res.data);
}

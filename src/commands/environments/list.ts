// svc environments list → GET /v1/environments
import type { Deps } from '../../deps.js';
import { about, Command, examples } from '../define.js';

export const command = () =>
  examples(
    new Command('list').description(
      about("list the organisation's environments, the profile's own with its key (any service, hosted too)", 'listEnvironments'),
    ),
    ['svc environments list', 'svc environments list -o json --query "[].{id: _id, name: name, app: identifier}"'],
  );

export async function run(deps: Deps): Promise<void> {
  const res = await (await deps.client()).call('listEnvironments');
  if (!res) return;
  await deps.print(res.data, { view: 'environments' });
}

// svc integrations active → GET /v1/integrations/active
import type { Deps } from '../../deps.js';
import { about, Command, examples } from '../define.js';
import { hmacNote } from './hmac.js';

export const command = () =>
  examples(new Command('active').description(about('list active integrations', 'listActiveIntegrations')), [
    'svc integrations active',
    'svc integrations active --query "[?channel==\'email\'].identifier"',
  ]);

export async function run(deps: Deps): Promise<void> {
  const res = await (await deps.client()).call('listActiveIntegrations');
  if (!res) return;
  await deps.print(res.data, { view: 'integrations' });
  for (const i of res.data as unknown[]) hmacNote(deps, i);
}

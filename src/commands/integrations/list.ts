// svc integrations list → GET /v1/integrations
import type { Deps } from '../../deps.js';
import { about, Command, examples } from '../define.js';
import { hmacState } from './hmac.js';

export const command = () =>
  examples(new Command('list').description(about('list every integration of the organisation, active or not', 'listIntegrations')), [
    'svc integrations list',
    'svc integrations list --query "[?active==`false`].identifier"',
  ]);

export async function run(deps: Deps): Promise<void> {
  const res = await (await deps.client()).call('listIntegrations');
  if (!res) return;
  await deps.print(res.data, { view: 'all-integrations' });
  for (const i of res.data as { channel?: string; identifier?: string }[]) {
    const state = i.channel === 'in_app' ? hmacState(i) : undefined;
    if (state !== undefined) deps.info(`HMAC ${state ? 'on' : 'off'} for ${i.identifier}`);
  }
}

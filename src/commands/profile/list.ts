// svc profile list
import type { Deps } from '../../deps.js';
import { hideUrlCredentials } from '../../core/mask.js';
import { Command, examples } from '../define.js';
export const command = () => examples(new Command('list').description('list profiles'), ['svc profile list']);

export async function run(deps: Deps): Promise<void> {
  const file = deps.profiles().read();
  const rows = Object.entries(file.profiles).map(([name, p]) => ({
    name,
    current: file.current === name,
    baseUrl: p.baseUrl === undefined ? null : deps.globals.showSecrets ? p.baseUrl : hideUrlCredentials(p.baseUrl),
    apiKey: p.apiKey ?? null,
    readOnly: Boolean(p.readOnly),
  }));
  if (rows.length === 0) deps.info('no profiles yet: run `svc login`, `svc profile add`, or `svc dev`');
  // print() masks the keys unless --show-secrets.
  await deps.print(rows, { view: 'profiles' });
}

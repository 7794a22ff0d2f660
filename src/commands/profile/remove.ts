// svc profile remove NAME
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { saved } from './key.js';
import { type ArgsOf, Command, examples, type OptsOf } from '../define.js';
export const command = () => examples(new Command('remove').description('remove a profile').argument('<name>'), ['svc profile remove old']);


export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const name = validateProfileName(given);
  await deps.profiles().update((f) => {
    if (!f.profiles[name]) throw new UsageError(`no profile named '${name}'`);
    delete f.profiles[name];
    if (f.current === name) delete f.current;
  });
  saved(deps, `removed profile '${name}'`, `remove profile '${name}'`);
}

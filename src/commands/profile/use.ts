// svc profile use NAME
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { saved } from './key.js';
import { type ArgsOf, Command, examples, type OptsOf } from '../define.js';
export const command = () => examples(new Command('use').description('make a profile the current one').argument('<name>'), ['svc profile use prod']);


export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const name = validateProfileName(given);
  await deps.profiles().update((f) => {
    if (!f.profiles[name]) {
      const known = Object.keys(f.profiles);
      throw new UsageError(`no profile named '${name}'${known.length ? `; known profiles: ${known.join(', ')}` : ''}`);
    }
    f.current = name;
  });
  saved(deps, `'${name}' is now the current profile`, `make '${name}' the current profile`);
}

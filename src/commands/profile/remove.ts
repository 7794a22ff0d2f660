// svc profile remove NAME
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { saved } from './key.js';

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const name = validateProfileName(String(args[0]));
  await deps.profiles().update((f) => {
    if (!f.profiles[name]) throw new UsageError(`no profile named '${name}'`);
    delete f.profiles[name];
    if (f.current === name) delete f.current;
  });
  saved(deps, `removed profile '${name}'`, `remove profile '${name}'`);
}

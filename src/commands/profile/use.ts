// svc profile use NAME
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { saved } from './key.js';

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const name = validateProfileName(String(args[0]));
  await deps.profiles().update((f) => {
    if (!f.profiles[name]) {
      const known = Object.keys(f.profiles);
      throw new UsageError(`no profile named '${name}'${known.length ? `; known profiles: ${known.join(', ')}` : ''}`);
    }
    f.current = name;
  });
  saved(deps, `'${name}' is now the current profile`, `make '${name}' the current profile`);
}

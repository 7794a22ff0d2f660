// svc profile remove NAME [--yes]: asks first on a terminal, needs --yes without one.
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { validateProfileName } from '../../config/profiles.js';
import { saved } from './key.js';
import { confirmed } from '../confirm.js';
import { type ArgsOf, Command, examples, type OptsOf } from '../define.js';
export const command = () =>
  examples(
    new Command('remove')
      .description('remove a profile and its saved key (asks first on a terminal)')
      .argument('<name>')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc profile remove old', 'svc profile remove old --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const name = validateProfileName(given);
  // An unknown name is said before anything is asked.
  if (!deps.profiles().read().profiles[name]) throw new UsageError(`no profile named '${name}'`);
  if (!(await confirmed(deps, `profile '${name}' and its saved key`, opts.yes))) return;
  await deps.profiles().update((f) => {
    if (!f.profiles[name]) throw new UsageError(`no profile named '${name}'`);
    delete f.profiles[name];
    if (f.current === name) delete f.current;
  });
  saved(deps, `removed profile '${name}'`, `remove profile '${name}'`);
}

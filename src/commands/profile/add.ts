// svc profile add NAME --base-url URL (--api-key KEY | --with-key) [--read-only] [--use] [--force]
// A profile of the same name is replaced only with --force: its key may be the only copy.
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { hideUrlCredentials, maskKey } from '../../core/mask.js';
import { checkApiKey, validateProfileName } from '../../config/profiles.js';
import { readKeyFromStdin, saved } from './key.js';
import { type ArgsOf, Command, examples, type OptsOf } from '../define.js';
export const command = () =>
  examples(
    new Command('add')
      .description('add a profile; --base-url and --api-key or --with-key give its values (--force replaces one of the same name)')
      .argument('<name>', 'profile name')
      .option('--with-key', 'read the API key from stdin')
      .option('--read-only', 'refuse commands that change state with this profile')
      .option('--use', 'make it the current profile')
      .option('--force', 'replace a profile of the same name'),
    [
      'svc profile add prod --base-url https://api.novu.co --with-key --read-only < key.txt',
      'svc profile add local --base-url http://127.0.0.1:2999 --api-key sk_test_...',
    ],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const name = validateProfileName(given);
  const baseUrl = deps.globals.baseUrl;
  if (!baseUrl) throw new UsageError('missing --base-url: the service URL of this profile, e.g. https://api.novu.co or http://127.0.0.1:2999');
  if (deps.globals.apiKey !== undefined && opts.withKey) throw new UsageError('--api-key and --with-key cannot be used together');
  const apiKey = opts.withKey ? await readKeyFromStdin(deps, '--with-key') : deps.globals.apiKey;
  if (!apiKey) throw new UsageError('missing API key: give --with-key (reads it from stdin) or --api-key KEY');
  checkApiKey(apiKey, opts.withKey ? '--with-key' : '--api-key');
  let current: string | undefined;
  await deps.profiles().update((f) => {
    if (f.profiles[name] && !opts.force)
      throw new UsageError(
        `a profile named '${name}' exists (${hideUrlCredentials(f.profiles[name].baseUrl ?? '')}); --force replaces it, or choose another name`,
      );
    f.profiles[name] = { baseUrl, apiKey, ...(opts.readOnly ? { readOnly: true } : {}) };
    if (opts.use || !f.current || !f.profiles[f.current]) f.current = name;
    current = f.current;
  });
  const what = `profile '${name}' (${hideUrlCredentials(baseUrl)}, key ${maskKey(apiKey)}${opts.readOnly ? ', read-only' : ''})`;
  saved(deps, `saved ${what}${current === name ? '; it is the current profile' : ''}`, `save ${what}${current === name ? ' as the current profile' : ''}`);
}

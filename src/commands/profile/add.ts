// svc profile add NAME --base-url URL (--api-key KEY | --with-key) [--read-only] [--use]
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { maskKey } from '../../core/mask.js';
import { validateProfileName } from '../../config/profiles.js';
import { readKeyFromStdin, saved } from './key.js';

export async function run(deps: Deps, opts: { withKey?: boolean; readOnly?: boolean; use?: boolean }, args: unknown[]): Promise<void> {
  const name = validateProfileName(String(args[0]));
  const baseUrl = deps.globals.baseUrl;
  if (!baseUrl) throw new UsageError('missing --base-url: the service URL of this profile, e.g. https://api.novu.co or http://127.0.0.1:2999');
  if (deps.globals.apiKey !== undefined && opts.withKey) throw new UsageError('--api-key and --with-key cannot be used together');
  const apiKey = opts.withKey ? await readKeyFromStdin(deps, '--with-key') : deps.globals.apiKey;
  if (!apiKey) throw new UsageError('missing API key: give --with-key (reads it from stdin) or --api-key KEY');
  let current: string | undefined;
  await deps.profiles().update((f) => {
    f.profiles[name] = { baseUrl, apiKey, ...(opts.readOnly ? { readOnly: true } : {}) };
    if (opts.use || !f.current || !f.profiles[f.current]) f.current = name;
    current = f.current;
  });
  const what = `profile '${name}' (${baseUrl}, key ${maskKey(apiKey)}${opts.readOnly ? ', read-only' : ''})`;
  saved(deps, `saved ${what}${current === name ? '; it is the current profile' : ''}`, `save ${what}${current === name ? ' as the current profile' : ''}`);
}

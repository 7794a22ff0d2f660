// svc login [--profile NAME] [--base-url URL] [--with-key]: asks for (or reads) a key, checks it against
// the service, and saves it in a profile that becomes the current one. Nothing is saved if the check fails.
// At a terminal a rejected key is asked for again (up to three tries); the local service is offered at
// the address `svc dev` saved in the `local` profile, not a guessed port.
import type { Deps } from '../deps.js';
import { ApiError, CredentialsError, UsageError } from '../core/errors.js';
import { hideUrlCredentials, maskKey } from '../core/mask.js';
import { checkApiKey, DEFAULT_BASE_URL, validateProfileName } from '../config/profiles.js';
import { routes } from '../api/routes.js';
import { Command, examples, type OptsOf } from './define.js';
import { readKeyFromStdin, saved } from './profile/key.js';

export const command = () =>
  examples(
    new Command('login')
      .description('save an API key in a profile after checking it against the service')
      .option('--with-key', 'read the API key from stdin instead of prompting'),
    ['svc login', 'svc login --profile eu --base-url https://eu.api.novu.co', 'printf %s "$KEY" | svc login --with-key --profile ci'],
  );

/** The services to choose from; the local one where `svc dev` said it runs (its `local` profile). */
function services(localUrl: string | undefined) {
  const local = localUrl ?? 'http://127.0.0.1:2999';
  return [
    { name: 'US (https://api.novu.co)', value: 'https://api.novu.co' },
    { name: 'EU (https://eu.api.novu.co)', value: 'https://eu.api.novu.co' },
    { name: `Local svc dev (${local}${localUrl ? ', from the local profile' : ''})`, value: local },
    { name: 'Another URL', value: 'other' },
  ];
}

/** Tries at a terminal before a rejected key ends the login. */
const KEY_TRIES = 3;

function localProfileUrl(deps: Deps): string | undefined {
  try {
    return deps.profiles().get('local')?.baseUrl;
  } catch {
    return undefined; // an unreadable store: the default address
  }
}

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
  const g = deps.globals;
  const interactive = deps.interactive();
  if (g.apiKey !== undefined) checkApiKey(g.apiKey, '--api-key');
  if (!interactive && !opts.withKey && !g.apiKey) {
    throw new UsageError('svc login needs a terminal to ask for the key; use --with-key (reads it from stdin) or svc profile add');
  }
  const prompt = interactive ? await import('../io/prompt.js') : undefined;

  const name = validateProfileName(g.profile ?? (prompt ? await prompt.askText(deps, 'Profile name:', { default: 'default' }) : 'default'));
  let baseUrl = g.baseUrl ?? deps.env.SVC_BASE_URL;
  if (!baseUrl && prompt) {
    const choice = await prompt.askChoice(deps, 'Which service?', services(localProfileUrl(deps)), 'https://api.novu.co');
    baseUrl =
      choice === 'other'
        ? await prompt.askText(deps, 'Base URL:', { validate: (v) => (/^https?:\/\/\S+$/.test(v) ? true : 'an http:// or https:// URL') })
        : choice;
  }
  baseUrl = (baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');

  let apiKey = g.apiKey;
  if (opts.withKey) apiKey = await readKeyFromStdin(deps, '--with-key');
  if (!apiKey && prompt) apiKey = (await prompt.askSecret(deps, 'API key:', (v) => (v.trim() ? true : 'the key must not be empty'))).trim();
  if (!apiKey) throw new UsageError('missing API key');
  checkApiKey(apiKey, opts.withKey ? '--with-key' : 'the API key');

  if (g.dryRun) {
    // Send nothing and save nothing: show the check that would be made.
    await deps.print({
      method: 'GET',
      url: hideUrlCredentials(`${baseUrl}${routes.listActiveIntegrations.path}`),
      headers: { accept: 'application/json', authorization: `ApiKey ${maskKey(apiKey)}` },
    });
    saved(deps, '', `check the key, then save profile '${name}' (${hideUrlCredentials(baseUrl)}, key ${maskKey(apiKey)}) as the current profile`);
    return;
  }
  // The factory's client, for this service and key rather than the resolved ones.
  for (let attempt = 1; ; attempt++) {
    const api = await deps.client({ baseUrl, apiKey });
    try {
      await api.call('listActiveIntegrations');
      break;
    } catch (e) {
      if (!(e instanceof ApiError && (e.status === 401 || e.status === 403))) throw e;
      const rejected = `the service at ${hideUrlCredentials(baseUrl)} rejected the key ${maskKey(apiKey)} (${e.status})`;
      // A key typed at the prompt may be mistyped or pasted incompletely: ask again.
      if (!prompt || opts.withKey || g.apiKey || attempt >= KEY_TRIES) throw new CredentialsError(`${rejected}; nothing was saved`, 'unauthorized');
      deps.io.stderr.write(`key ${maskKey(apiKey)} rejected (${e.status}); try again (${attempt + 1} of ${KEY_TRIES}, Ctrl-C stops)\n`);
      apiKey = (await prompt.askSecret(deps, 'API key:', (v) => (v.trim() ? true : 'the key must not be empty'))).trim();
    }
  }
  await deps.profiles().update((f) => {
    f.profiles[name] = { ...f.profiles[name], baseUrl, apiKey };
    f.current = name;
  });
  deps.info(`logged in: profile '${name}' (${hideUrlCredentials(baseUrl)}, key ${maskKey(apiKey)}) is the current profile`);
}

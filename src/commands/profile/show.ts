// svc profile show [NAME]: the resolved settings and where each came from (flag, env, profile, default).
import type { Deps } from '../../deps.js';
import { hideUrlCredentials, maskKey } from '../../core/mask.js';
import { UsageError } from '../../core/errors.js';
import { resolveSettings, validateProfileName } from '../../config/profiles.js';
import { type ArgsOf, Command, examples, type OptsOf } from '../define.js';
export const command = () =>
  examples(
    new Command('show').description('show the resolved settings and where each came from').argument('[name]', 'profile to show (default: as resolved)'),
    ['svc profile show', 'svc profile show local', 'SVC_API_KEY=sk_x svc profile show prod'],
  );

/** How long the application identifier may take: it is an extra, the settings are the answer. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * The environment's application identifier (what the in-app Inbox is given), from the service the
 * settings point at: `GET /v1/environments/me`, one attempt, a short timeout. Undefined without a key,
 * under --dry-run (nothing is sent), or when the service does not answer it: the rest is shown as ever.
 */
async function applicationIdentifier(deps: Deps, baseUrl: string, apiKey: string | undefined): Promise<string | undefined> {
  if (!apiKey || deps.globals.dryRun) return undefined;
  try {
    const client = await deps.client({
      baseUrl,
      apiKey,
      retries: 0,
      timeoutMs: LOOKUP_TIMEOUT_MS,
      signal: AbortSignal.any([deps.signal, AbortSignal.timeout(LOOKUP_TIMEOUT_MS)]),
    });
    const res = await client.call<{ identifier?: unknown }>('getCurrentEnvironment');
    const id = res?.data?.identifier;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [given]: ArgsOf<typeof command>): Promise<void> {
  const name = given === undefined ? undefined : validateProfileName(given);
  const g = deps.globals;
  if (name !== undefined) {
    const known = Object.keys(deps.profiles().read().profiles);
    if (!known.includes(name)) throw new UsageError(`no profile named '${name}'${known.length ? `; known profiles: ${known.join(', ')}` : ''}`);
  }
  const s =
    name === undefined
      ? deps.settings()
      : resolveSettings({ flags: { apiKey: g.apiKey, baseUrl: g.baseUrl, profile: name }, env: deps.env, store: deps.profiles() });
  const key = s.apiKey.value;
  const shownKey = key ? (g.showSecrets ? key : maskKey(key)) : null;
  const settings = {
    profile: { value: s.profile.value ?? null, source: s.profile.value === undefined ? 'none' : name !== undefined ? 'argument' : s.profile.source },
    baseUrl: { value: g.showSecrets ? s.baseUrl.value : hideUrlCredentials(s.baseUrl.value), source: s.baseUrl.source },
    apiKey: { value: shownKey, source: s.apiKey.source },
    readOnly: s.readOnly,
    configFile: s.configFile,
  };
  const identifier = await applicationIdentifier(deps, s.baseUrl.value, key);
  const withIdentifier = identifier === undefined ? settings : { ...settings, applicationIdentifier: { value: identifier, source: 'service' } };
  if (deps.format() === 'table' && !g.query && !g.fields) {
    await deps.print(
      [
        { setting: 'profile', value: settings.profile.value ?? '(none)', source: settings.profile.source },
        { setting: 'base URL', value: settings.baseUrl.value, source: settings.baseUrl.source },
        { setting: 'API key', value: shownKey ?? '(none)', source: settings.apiKey.source },
        ...(identifier === undefined ? [] : [{ setting: 'application identifier', value: identifier, source: 'service' }]),
        { setting: 'read-only', value: settings.readOnly ? 'yes' : 'no', source: settings.profile.value ? 'profile' : '-' },
        { setting: 'config file', value: settings.configFile, source: '-' },
      ],
      { view: 'settings' },
    );
    return;
  }
  await deps.print(withIdentifier);
}

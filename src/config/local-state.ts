// What svc remembers on this machine beside the profiles (the completion cache, the index of bulk
// runs) lives in the config folder, kept per service: the profile in use, else the base URL.
import { dirname } from 'node:path';
import type { ResolvedSettings } from './profiles.js';

/** The folder and the service key for remembered state; undefined when no settings resolve. */
export function localState(settings: () => ResolvedSettings): { dir: string; profile: string } | undefined {
  try {
    const s = settings();
    return { dir: dirname(s.configFile), profile: s.profile.value ?? s.baseUrl.value };
  } catch {
    return undefined;
  }
}

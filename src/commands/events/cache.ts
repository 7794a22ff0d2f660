// Fills the completion cache (core/completion-cache.ts) with the workflow and subscriber ids the events
// commands have just read, so that Tab can offer them without a request. Never fails a command.
import { dirname } from 'node:path';
import type { Deps } from '../../deps.js';

export function cacheScope(deps: Deps): { dir: string; profile: string } | undefined {
  try {
    const s = deps.settings();
    return { dir: dirname(s.configFile), profile: s.profile.value ?? s.baseUrl.value };
  } catch {
    return undefined;
  }
}

export async function rememberIds(deps: Deps, records: readonly unknown[]): Promise<void> {
  if (deps.globals.dryRun || records.length === 0) return;
  const scope = cacheScope(deps);
  if (!scope) return;
  try {
    const { rememberRecords } = await import('../../core/completion-cache.js');
    rememberRecords(records, scope);
  } catch {
    // best effort
  }
}

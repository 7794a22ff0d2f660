// What the profile commands share: an API key read from stdin (svc login --with-key, svc profile add
// --with-key), and saying what was saved.
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';

export async function readKeyFromStdin(deps: Deps, flag: string): Promise<string> {
  const key = (await deps.input.stdinText(flag)).trim();
  if (!key) throw new UsageError(`${flag}: stdin held no API key`);
  if (/\s/.test(key)) throw new UsageError(`${flag}: the API key must be a single word (stdin held several)`);
  return key;
}

/** Says what a profile command did; under --dry-run, what it would have done (nothing was written). */
export function saved(deps: Deps, done: string, wouldDo: string): void {
  deps.info(deps.globals.dryRun ? `dry run, nothing was written: would ${wouldDo}` : done);
}

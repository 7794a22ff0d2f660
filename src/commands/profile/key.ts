// An API key read from stdin (svc login --with-key, svc profile add --with-key).
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';

export async function readKeyFromStdin(deps: Deps, flag: string): Promise<string> {
  const key = (await deps.input.stdinText(flag)).trim();
  if (!key) throw new UsageError(`${flag}: stdin held no API key`);
  if (/\s/.test(key)) throw new UsageError(`${flag}: the API key must be a single word (stdin held several)`);
  return key;
}

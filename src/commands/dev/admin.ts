// What svc dev's admin commands (clock, reset, snapshot) share: the API client of the current profile,
// after asking it whether it is svc dev (against anything else they refuse in one line, exit 5, before
// sending what they came to send), and the snapshot's wire form.
import type { Api } from '../../api/session.js';
import type { Deps } from '../../deps.js';

/** The client, once the service said it is svc dev (a dry run asks nothing and shows the request). */
export async function adminClient(deps: Deps, command: string, opts?: { timeoutMs?: number }): Promise<Api> {
  const api = await deps.client(opts);
  if (deps.globals.dryRun) return api;
  const { requireLocalService } = await import('../../api/local-service.js');
  await requireLocalService(api, command);
  return api;
}

/** How a snapshot travels in JSON: the SQLite file's bytes, gzip-compressed, base64-encoded. */
export const SNAPSHOT_ENCODING = 'sqlite3+gzip+base64' as const;

/** A path as the user gave it, resolved against the command's working directory. */
export function resolveFile(deps: Deps, file: string): string {
  return process.getBuiltinModule('node:path').resolve(deps.cwd, file);
}

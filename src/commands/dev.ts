// Placeholder until the local service lands from the server branch (replaced on merge).
import type { Deps } from '../deps.js';
import { UsageError } from '../core/errors.js';

export async function run(_deps: Deps): Promise<void> {
  throw new UsageError('svc dev is not part of this build yet');
}

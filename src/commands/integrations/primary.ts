// svc integrations primary ID → POST /v1/integrations/{id}/set-primary
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

export async function run(deps: Deps, _opts: unknown, args: unknown[]): Promise<void> {
  const integrationId = checkId('INTEGRATION_ID', String(args[0]));
  const res = await call(deps, operations.setPrimaryIntegration, { params: { integrationId } });
  if (res) await deps.print(res.data);
}

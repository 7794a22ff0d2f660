// svc integrations active → GET /v1/integrations/active
import type { Deps } from '../../deps.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';

export async function run(deps: Deps): Promise<void> {
  const res = await call(deps, operations.listActiveIntegrations);
  if (res) await deps.print(res.data, { view: 'integrations' });
}

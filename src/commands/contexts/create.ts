// svc contexts create TYPE ID [--data JSON] → POST /v2/contexts
import type { Deps } from '../../deps.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { CreateContextBody } from '../../api/schemas/requests.js';

export async function run(deps: Deps, opts: { data?: string }, args: unknown[]): Promise<void> {
  const body: Record<string, unknown> = { type: args[0], id: args[1] };
  if (opts.data !== undefined) body.data = await deps.input.jsonObject('--data', opts.data);
  const valid = parseOrUsage(CreateContextBody, body, flagLabels({ type: 'TYPE', id: 'ID', data: '--data' }));
  const res = await call(deps, operations.createContext, { body: valid });
  if (res) await deps.print(res.data);
}

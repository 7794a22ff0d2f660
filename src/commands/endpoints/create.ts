// svc endpoints create --subscriber S --integration I --type T --endpoint JSON → POST /v1/channel-endpoints
import type { Deps } from '../../deps.js';
import { checkId } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { CreateEndpointBody } from '../../api/schemas/requests.js';
import { contextMap } from '../shared.js';

export interface CreateOptions {
  subscriber: string;
  integration: string;
  type: string;
  endpoint: string;
  connection?: string;
  context?: string[];
  identifier?: string;
}

export async function run(deps: Deps, opts: CreateOptions): Promise<void> {
  const body: Record<string, unknown> = {
    subscriberId: checkId('--subscriber', opts.subscriber),
    integrationIdentifier: checkId('--integration', opts.integration),
    type: opts.type,
    endpoint: await deps.input.jsonObject('--endpoint', opts.endpoint),
  };
  if (opts.connection !== undefined) body.connectionIdentifier = checkId('--connection', opts.connection);
  if (opts.identifier !== undefined) body.identifier = checkId('--identifier', opts.identifier);
  const context = await contextMap(deps, '--context', opts.context);
  if (context) body.context = context;
  const valid = parseOrUsage(
    CreateEndpointBody,
    body,
    flagLabels({
      subscriberId: '--subscriber', integrationIdentifier: '--integration', type: '--type', endpoint: '--endpoint',
      connectionIdentifier: '--connection', identifier: '--identifier', context: '--context',
    }),
  );
  const res = await call(deps, operations.createChannelEndpoint, { body: valid });
  if (res) await deps.print(res.data, { view: 'endpoints' });
}

// svc connections create --integration X --workspace-id W (--access-token T | --access-token-stdin) ...
// → POST /v1/channel-connections
import type { Deps } from '../../deps.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import { operations } from '../../api/operations.js';
import { call } from '../../api/call.js';
import { CreateConnectionBody } from '../../api/schemas/requests.js';
import { contextMap } from '../shared.js';
import { accessToken, workspace, type TokenOptions } from './token.js';

export interface CreateOptions extends TokenOptions {
  integration: string;
  subscriber?: string;
  context?: string[];
  mode?: 'subscriber' | 'shared';
  identifier?: string;
}

export const LABELS = flagLabels({
  identifier: '--identifier', subscriberId: '--subscriber', context: '--context', connectionMode: '--mode',
  integrationIdentifier: '--integration', workspace: '--workspace-id', auth: '--access-token',
});

export async function run(deps: Deps, opts: CreateOptions): Promise<void> {
  const mode = opts.mode ?? 'subscriber';
  const context = await contextMap(deps, '--context', opts.context);
  // The service answers 400 for these; saying so before sending names the flag to fix.
  if (mode === 'shared' && !context) throw new UsageError('--mode shared needs --context TYPE=ID (a shared connection belongs to a context)');
  if (mode === 'subscriber' && opts.subscriber === undefined) {
    throw new UsageError('missing --subscriber: a subscriber-mode connection links a subscriber (or use --mode shared with --context)');
  }
  const body: Record<string, unknown> = {
    integrationIdentifier: checkId('--integration', opts.integration),
    workspace: workspace(opts),
    auth: { accessToken: await accessToken(deps, opts) },
  };
  if (opts.mode) body.connectionMode = opts.mode;
  if (opts.subscriber !== undefined) body.subscriberId = checkId('--subscriber', opts.subscriber);
  if (context) body.context = context;
  if (opts.identifier !== undefined) body.identifier = checkId('--identifier', opts.identifier);
  const valid = parseOrUsage(CreateConnectionBody, body, LABELS);
  const res = await call(deps, operations.createChannelConnection, { body: valid });
  if (res) await deps.print(res.data, { view: 'connections' });
}

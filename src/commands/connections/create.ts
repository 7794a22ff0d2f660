// svc connections create --integration X --workspace-id W (--access-token T | --access-token-stdin) ...
// → POST /v1/channel-connections
import { CONNECTION_MODES } from '../../api/enum-values.js';
import { collect } from '../../cli-args.js';
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, Option, type OptsOf } from '../define.js';
import { contextMap } from '../shared.js';
import { accessToken, tokenOptions, workspace } from './token.js';

export const command = () =>
  examples(
    tokenOptions(
      new Command('create')
        .description(about('create a channel connection', 'createChannelConnection'))
        .requiredOption('--integration <identifier>', 'integration identifier'),
    )
      .option('--subscriber <id>', 'subscriber to link (subscriber mode)')
      .option('--context <type=id>', 'context entry TYPE=ID (repeatable; required in shared mode)', collect)
      .addOption(new Option('--mode <mode>', 'subscriber (default) or shared').choices(CONNECTION_MODES))
      .option('--identifier <id>', 'identifier of the connection (generated when absent)'),
    [
      'printf %s "$SLACK_TOKEN" | svc connections create --integration slack --workspace-id T123 --subscriber ada --access-token-stdin',
      'svc connections create --integration slack --workspace-id T123 --mode shared --context tenant=acme --access-token-stdin < token.txt',
    ],
  );

export const LABELS = flagLabels({
  identifier: '--identifier',
  subscriberId: '--subscriber',
  context: '--context',
  connectionMode: '--mode',
  integrationIdentifier: '--integration',
  workspace: '--workspace-id',
  auth: '--access-token',
});

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
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
  const { CreateConnectionBody } = await import('../../api/schemas/requests.js');
  const valid = parseOrUsage(CreateConnectionBody, body, LABELS);
  const res = await (await deps.client()).call('createChannelConnection', { body: valid });
  if (res) await deps.print(res.data, { view: 'connections' });
}

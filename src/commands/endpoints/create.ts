// svc endpoints create --subscriber S --integration I --type T --endpoint JSON → POST /v1/channel-endpoints
import { CHANNEL_ENDPOINT_TYPES } from '../../api/enum-values.js';
import { collect } from '../../cli-args.js';
import { checkId } from '../../core/input.js';
import { flagLabels, parseOrUsage } from '../../core/validate.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, Option, type OptsOf } from '../define.js';
import { contextMap } from '../shared.js';

export const command = () =>
  examples(
    new Command('create')
      .description(about('create a channel endpoint', 'createChannelEndpoint'))
      .requiredOption('--subscriber <id>', 'subscriber id')
      .requiredOption('--integration <identifier>', 'integration identifier')
      .addOption(new Option('--type <type>', 'endpoint type').choices(CHANNEL_ENDPOINT_TYPES).makeOptionMandatory())
      .requiredOption('--endpoint <json>', 'the endpoint as JSON, e.g. {"channelId":"C123"} or {"phoneNumber":"+15551234567"}')
      .option('--connection <identifier>', 'channel connection identifier')
      .option('--context <type=id>', 'context entry TYPE=ID (repeatable)', collect)
      .option('--identifier <id>', 'identifier (generated when absent)'),
    ['svc endpoints create --subscriber ada --integration slack --type slack_channel --endpoint \'{"channelId":"C123"}\''],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>): Promise<void> {
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
  const { CreateEndpointBody } = await import('../../api/schemas/requests.js');
  const valid = parseOrUsage(
    CreateEndpointBody,
    body,
    flagLabels({
      subscriberId: '--subscriber',
      integrationIdentifier: '--integration',
      type: '--type',
      endpoint: '--endpoint',
      connectionIdentifier: '--connection',
      identifier: '--identifier',
      context: '--context',
    }),
  );
  const res = await (await deps.client()).call('createChannelEndpoint', { body: valid });
  if (res) await deps.print(res.data, { view: 'endpoints' });
}

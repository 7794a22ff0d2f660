// svc subscribers online ID true|false → PATCH /v1/subscribers/{id}/online-status
import { booleanArg } from '../../cli-args.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, Argument, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('online')
      .description(about('set a subscriber online or offline', 'updateOnlineStatus'))
      .argument('<subscriberId>', 'subscriber id')
      .addArgument(new Argument('<online>', 'true or false').choices(['true', 'false']).argParser(booleanArg)),
    ['svc subscribers online ada true', 'svc subscribers online ada false'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id, online]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  const res = await (await deps.client()).call('updateOnlineStatus', { params: { subscriberId }, body: { isOnline: online === true } });
  if (res) await deps.print(res.data);
}

// svc subscribers get SUBSCRIBER_ID → GET /v2/subscribers/{subscriberId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(new Command('get').description(about('show a subscriber', 'getSubscriber')).argument('<subscriberId>', 'subscriber id'), [
    'svc subscribers get ada',
    'svc subscribers get ada --query data',
  ]);

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  const res = await (await deps.client()).call('getSubscriber', { params: { subscriberId } });
  if (res) await deps.print(res.data);
}

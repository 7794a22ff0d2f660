// svc subscribers delete SUBSCRIBER_ID [--yes] → DELETE /v2/subscribers/{subscriberId}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete a subscriber (asks first on a terminal)', 'deleteSubscriber'))
      .argument('<subscriberId>', 'subscriber id')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc subscribers delete alan', 'svc subscribers delete alan --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  if (!(await confirmed(deps, `subscriber ${subscriberId}`, opts.yes))) return;
  const res = await (await deps.client()).call('deleteSubscriber', { params: { subscriberId } });
  if (res) deps.info(`deleted subscriber ${subscriberId}`);
}

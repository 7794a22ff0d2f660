// svc subscribers update SUBSCRIBER_ID [profile flags] → PATCH /v2/subscribers/{subscriberId}
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { bodyLabel, PROFILE_FLAG_NAMES, profileBody, profileFlags } from './profile.js';

export const command = () =>
  examples(
    profileFlags(
      new Command('update').description(about('change the fields given of a subscriber', 'patchSubscriber')).argument('<subscriberId>', 'subscriber id'),
    ),
    ['svc subscribers update ada --email ada@new.example.com', 'svc subscribers update ada --phone ""   # clear the phone'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  const body = await profileBody(deps, opts);
  if (Object.keys(body).length === 0) throw new UsageError(`nothing to update: give at least one of ${PROFILE_FLAG_NAMES.join(', ')}`);
  const res = await (await deps.client()).call('patchSubscriber', { params: { subscriberId }, body }, { bodyLabel });
  if (res) await deps.print(res.data);
}

// svc subscribers create SUBSCRIBER_ID [profile flags] [--fail-if-exists] → POST /v2/subscribers
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { bodyLabel, profileBody, profileFlags } from './profile.js';

export const command = () =>
  examples(
    profileFlags(
      new Command('create')
        .description(about('create a subscriber (an existing one gets the fields given)', 'createSubscriber'))
        .argument('<subscriberId>', 'subscriber id: your user id'),
    ).option('--fail-if-exists', 'fail (409) when the subscriber already exists instead of updating it'),
    ['svc subscribers create user-1 --first-name Ada --email ada@example.com', 'svc subscribers create user-1 --data \'{"plan":"pro"}\' --fail-if-exists'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  const subscriberId = checkId('SUBSCRIBER_ID', id);
  const body = { subscriberId, ...(await profileBody(deps, opts)) };
  const res = await (await deps.client()).call('createSubscriber', { body, ...(opts.failIfExists ? { query: { failIfExists: true } } : {}) }, { bodyLabel });
  if (res) await deps.print(res.data);
}

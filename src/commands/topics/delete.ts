// svc topics delete TOPIC_KEY [--yes] → DELETE /v2/topics/{topicKey}
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { confirmed } from '../confirm.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('delete')
      .description(about('delete a topic and its subscriptions (asks first on a terminal)', 'deleteTopic'))
      .argument('<topicKey>', 'topic key')
      .option('-y, --yes', 'do not ask; needed when there is no terminal'),
    ['svc topics delete ops-oncall', 'svc topics delete ops-oncall --yes   # in scripts and CI'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [key]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  if (!(await confirmed(deps, `topic ${topicKey}`, opts.yes))) return;
  const res = await (await deps.client()).call('deleteTopic', { params: { topicKey } });
  if (res) deps.info(`deleted topic ${topicKey}`);
}

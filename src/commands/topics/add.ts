// svc topics add TOPIC_KEY SUBSCRIBER... → POST /v2/topics/{topicKey}/subscriptions
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples } from '../define.js';
import { type Result, report, subscriberIds } from './shared.js';

export const command = () =>
  examples(
    new Command('add')
      .description(about('subscribe subscribers to a topic (made when missing)', 'createTopicSubscriptions'))
      .argument('<topicKey>', 'topic key')
      .argument('<subscriberIds...>', 'subscriber ids'),
    ['svc topics add ops-oncall ada grace'],
  );

export async function run(deps: Deps, _opts: unknown, [key, subscribers]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  const body = { subscriberIds: subscriberIds(subscribers) };
  const res = await (await deps.client()).call('createTopicSubscriptions', { params: { topicKey }, body });
  if (res) await report(deps, 'added', topicKey, res.data as Result);
}

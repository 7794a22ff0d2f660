// svc topics remove TOPIC_KEY SUBSCRIBER... → DELETE /v2/topics/{topicKey}/subscriptions
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples } from '../define.js';
import { type Result, report, subscriberIds } from './shared.js';

export const command = () =>
  examples(
    new Command('remove')
      .description(about('unsubscribe subscribers from a topic', 'deleteTopicSubscriptions'))
      .argument('<topicKey>', 'topic key')
      .argument('<subscriberIds...>', 'subscriber ids'),
    ['svc topics remove ops-oncall grace'],
  );

export async function run(deps: Deps, _opts: unknown, [key, subscribers]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  const body = { subscriberIds: subscriberIds(subscribers) };
  const res = await (await deps.client()).call('deleteTopicSubscriptions', { params: { topicKey }, body });
  if (res) await report(deps, 'removed', topicKey, res.data as Result);
}

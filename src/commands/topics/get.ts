// svc topics get TOPIC_KEY → GET /v2/topics/{topicKey} (and its subscriptions)
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('get')
      .description(about('show a topic and its subscribers', 'getTopic'))
      .argument('<topicKey>', 'topic key')
      .option('--no-subscribers', 'the topic only, without listing its subscribers'),
    ['svc topics get engineering', 'svc topics get engineering -o json --no-subscribers'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [key]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  const client = await deps.client();
  const res = await client.call('getTopic', { params: { topicKey } });
  if (!res) return;
  if (!opts.subscribers) return deps.print(res.data);
  const subs = await client.call('listTopicSubscriptions', { params: { topicKey }, query: { limit: 100 } });
  if (!subs) return;
  const page = subs.data as { data: { subscriber: { subscriberId: string } }[]; totalCount: number };
  const subscribers = page.data.map((s) => s.subscriber.subscriberId);
  await deps.print({ ...(res.data as Record<string, unknown>), subscribers, subscriberCount: page.totalCount });
}

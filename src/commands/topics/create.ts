// svc topics create TOPIC_KEY [--name N] [--fail-if-exists] → POST /v2/topics
import { UsageError } from '../../core/errors.js';
import { checkId } from '../../core/input.js';
import type { Deps } from '../../deps.js';
import { TOPIC_KEY_RE } from '../../api/inbox-values.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('create')
      .description(about('create a topic (or rename one that exists)', 'createTopic'))
      .argument('<topicKey>', 'topic key: letters, digits, "_", "-" and ":"')
      .option('--name <name>', 'a readable name')
      .option('--fail-if-exists', 'refuse (409) when the key is taken'),
    ['svc topics create ops-oncall --name "Ops on call"'],
  );

export async function run(deps: Deps, opts: OptsOf<typeof command>, [key]: ArgsOf<typeof command>): Promise<void> {
  const topicKey = checkId('TOPIC_KEY', key);
  if (!TOPIC_KEY_RE.test(topicKey)) throw new UsageError('TOPIC_KEY: must contain only letters, digits, "_", "-" and ":"');
  const body = { key: topicKey, ...(opts.name !== undefined && { name: opts.name }) };
  const query = opts.failIfExists ? { failIfExists: 'true' as const } : {};
  const res = await (await deps.client()).call('createTopic', { body, query });
  if (res) await deps.print(res.data);
}

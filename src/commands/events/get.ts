// svc events get ID → GET /v1/notifications/{id}, shown as a timeline of jobs and execution details.
import { OBJECT_ID_RE } from '../../api/enum-values.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';

export const command = () =>
  examples(
    new Command('get').description(about('show one event with every job and its execution details', 'getEvent')).argument('<notificationId>', '24-character id of the event'),
    ['svc events get 6761f0c2a3b4c5d6e7f80912', 'svc events get 6761f0c2a3b4c5d6e7f80912 --json | jq .jobs'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [id]: ArgsOf<typeof command>): Promise<void> {
  if (!OBJECT_ID_RE.test(id)) throw new UsageError(`NOTIFICATION_ID: expected a 24-character hexadecimal id, got "${id.slice(0, 40)}"`);
  const res = await (await deps.client()).call('getEvent', { params: { notificationId: id } });
  if (res) await deps.print(res.data, { view: 'event' });
}

// svc dev reset [--empty]: the whole store of svc dev back to its start state in one call: the
// environments and API keys it started with and its seed or demo data (or, with --empty, the
// environments and keys alone); environments made since are gone, the runner's pending jobs with them,
// and connected Inboxes are told. Only with the key svc dev printed (the `local` profile's).
import type { Deps } from '../../deps.js';
import { about, type AnyCommand, Command, examples, helpNote, type OptsOf } from '../define.js';
import { adminClient } from './admin.js';

export const command = () =>
  examples(
    helpNote(
      new Command('reset')
        .description(about('put the whole store of svc dev back to its start state', 'resetStore'))
        .option('--empty', 'keep only the environments and their API keys: no seed or demo data'),
      [
        'Everything written since svc dev started is gone, in every environment: events, messages, subscribers,',
        'workflows, environments created since. The environments and keys it started with stay, so profiles,',
        'apps and Inboxes configured with them keep working. Works only against svc dev (exit 5 otherwise).',
      ].join(' '),
    ),
    ['svc dev reset', 'svc dev reset --empty', 'svc dev reset -o json'],
  );

interface Summary {
  environments: number;
  events: number;
  ms: number;
  keyKept: boolean;
}

export async function run(deps: Deps, opts: OptsOf<typeof command>, _args: [], cmd: AnyCommand): Promise<void> {
  // commander reads `--empty` after `reset` as svc dev's own flag of that name (a parent's flags are
  // read anywhere on the line): it is reset's all the same.
  const empty = opts.empty === true || cmd.parent?.getOptionValueSource('empty') === 'cli';
  const api = await adminClient(deps, 'svc dev reset');
  const res = await api.call<Summary>('resetStore', { body: empty ? { empty: true } : {} });
  if (!res) return;
  const s = res.data;
  if (deps.format() === 'table') {
    const what = empty ? 'its environments and keys alone' : 'its start state';
    deps.io.stdout.write(
      `svc dev: the store is back to ${what} (${s.environments} environment${s.environments === 1 ? '' : 's'}, ${s.events} events) in ${s.ms} ms\n`,
    );
  } else await deps.print(s);
}

// svc dev clock advance DURATION: service time moves forward, and what comes due on the way (delays,
// digest windows, throttle windows, and the steps they lead to) runs in time order before the command
// returns: a test asserts right after it. With the real clock it adds an offset.
import { MAX_ADVANCE_MS } from '../../api/limits.js';
import type { ClockState } from '../../api/schemas/dev-admin.js';
import { durationArg } from '../../cli-args.js';
import { formatDuration } from '../../core/duration.js';
import { UsageError } from '../../core/errors.js';
import type { Deps } from '../../deps.js';
import { about, type ArgsOf, Command, examples, type OptsOf } from '../define.js';
import { adminClient } from './admin.js';
import { printClock } from './clock.js';

export const command = () =>
  examples(
    new Command('advance')
      .description(about('move service time forward; what comes due runs before this returns', 'advanceClock'))
      .argument('<duration>', 'how far, e.g. 90s, 15m, 1h, 2d', durationArg),
    ['svc dev clock advance 1h', 'svc dev clock advance 90s -o json'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>, [ms]: ArgsOf<typeof command>): Promise<void> {
  if (ms > MAX_ADVANCE_MS) throw new UsageError(`DURATION: at most ${formatDuration(MAX_ADVANCE_MS)} (3650d) in one advance, got ${formatDuration(ms)}`);
  const api = await adminClient(deps, 'svc dev clock advance');
  const res = await api.call<ClockState>('advanceClock', { body: { ms } });
  if (res) await printClock(deps, res.data);
}

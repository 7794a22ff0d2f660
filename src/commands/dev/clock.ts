// svc dev clock: how svc dev's time passes (real, scaled by --time-scale, or manual) and what time it
// is for the service: the time every answer carries. `-o json` is exactly {"mode", "now"}.
import type { ClockState } from '../../api/schemas/dev-admin.js';
import type { Deps } from '../../deps.js';
import { about, Command, examples, helpNote, type OptsOf } from '../define.js';
import { adminClient } from './admin.js';

export const command = () =>
  examples(
    helpNote(
      new Command('clock').description(about("show svc dev's clock: its mode (real, scaled, manual) and the service time", 'getClock')),
      [
        'svc dev --clock manual starts with time standing still; `svc dev clock advance 1h` moves it, and runs the',
        'delays, digests and throttle windows that come due on the way, in time order, before it returns. With the',
        'real clock (or --time-scale) advance adds an offset. Works only against svc dev (exit 5 otherwise).',
      ].join(' '),
    ),
    ['svc dev clock', 'svc dev clock -o json', 'svc dev clock advance 1h'],
  );

export async function run(deps: Deps, _opts: OptsOf<typeof command>): Promise<void> {
  const api = await adminClient(deps, 'svc dev clock');
  const res = await api.call<ClockState>('getClock');
  if (res) await printClock(deps, res.data);
}

/** `{mode, now}` and nothing else, in every format. */
export async function printClock(deps: Deps, state: ClockState): Promise<void> {
  await deps.print({ mode: state.mode, now: state.now });
}

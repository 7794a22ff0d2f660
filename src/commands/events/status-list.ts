// The --status flag of events list, watch and browse: derived statuses (core/status.ts), repeatable or
// a comma list, offered by completion; an unknown one is refused naming the flag and the statuses there are.
import { UsageError } from '../../core/errors.js';
import { EVENT_STATUSES } from '../../core/status.js';
import { Option } from '../define.js';

/** What `--status` accepts: every derived status; `completed` also means "every step finished". */
export const STATUS_FILTERS: readonly string[] = EVENT_STATUSES;

function statusList(value: string, previous: string[] | undefined): string[] {
  const out = [...(previous ?? [])];
  for (const v of value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    if (!STATUS_FILTERS.includes(v)) throw new UsageError(`--status: expected one of ${STATUS_FILTERS.join(', ')}, got "${v.slice(0, 40)}"`);
    out.push(v);
  }
  return out;
}

/** `--status <status>` with its values listed for completion. */
export function statusOption(description: string) {
  const opt = new Option('--status <status>', description).argParser(statusList);
  (opt as unknown as { argChoices: string[] }).argChoices = [...STATUS_FILTERS];
  return opt;
}

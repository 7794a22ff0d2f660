// Confirmation of a destructive command: on a terminal a person is asked; without one the command
// needs --yes, and refuses (exit 2, nothing sent) otherwise. --dry-run sends nothing, so asks nothing.
import { UsageError } from '../core/errors.js';
import type { Deps } from '../deps.js';

/** Whether to go on: true with --yes or --dry-run, else the person's answer; throws without a terminal. */
export async function confirmed(deps: Deps, what: string, yes: boolean | undefined): Promise<boolean> {
  if (yes === true || deps.globals.dryRun) return true;
  if (!deps.interactive()) throw new UsageError(`${deps.commandPath}: deleting ${what} needs --yes when there is no terminal to confirm on`);
  const { askConfirm } = await import('../io/prompt.js');
  if (await askConfirm(deps, `Delete ${what}? This cannot be undone.`)) return true;
  deps.info(`nothing deleted`);
  return false;
}

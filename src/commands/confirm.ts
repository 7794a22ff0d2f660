// Confirmation of a destructive command: on a terminal a person is asked; without one the command
// needs --yes, and refuses (exit 2, nothing sent) otherwise. --dry-run sends nothing, so asks nothing.
// A person who answers no has had their way: "nothing deleted", exit 0. Ctrl-C at the question is
// the interruption cli.md names (exit 130), said as what it is, not as an error.
import { InterruptedError, UsageError } from '../core/errors.js';
import type { Deps } from '../deps.js';

/** Whether to go on: true with --yes or --dry-run, else the person's answer; throws without a terminal. */
export async function confirmed(deps: Deps, what: string, yes: boolean | undefined): Promise<boolean> {
  if (yes === true || deps.globals.dryRun) return true;
  if (!deps.interactive()) throw new UsageError(`${deps.commandPath}: deleting ${what} needs --yes when there is no terminal to confirm on`);
  const { askConfirm } = await import('../io/prompt.js');
  let yesAnswer: boolean;
  try {
    yesAnswer = await askConfirm(deps, `Delete ${what}? This cannot be undone.`);
  } catch (e) {
    if (e instanceof InterruptedError) throw declined();
    throw e;
  }
  if (yesAnswer) return true;
  deps.info(`nothing deleted`);
  return false;
}

/** Ctrl-C at the question: exit 130, one plain line. */
function declined(): InterruptedError {
  const e = new InterruptedError('cancelled: nothing deleted');
  (e as { notAnError?: boolean }).notAnError = true;
  return e;
}

// Prompts, with @inquirer/prompts on the invocation's own streams. Only reached when deps.interactive()
// says a person is there; every prompt has a flag that answers it instead.
import type { Deps } from '../deps.js';
import { InterruptedError } from '../core/errors.js';

function context(deps: Deps) {
  return { input: deps.io.stdin, output: deps.io.stderr, signal: deps.signal, clearPromptOnDone: false };
}

async function guard<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    const name = (e as Error)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError') throw new InterruptedError('prompt cancelled');
    throw e;
  }
}

export async function askText(deps: Deps, message: string, opts: { default?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return guard(input({ message, ...(opts.default !== undefined ? { default: opts.default } : {}), ...(opts.validate ? { validate: opts.validate } : {}) }, context(deps)));
}

/** Masked entry: the characters typed are never echoed. */
export async function askSecret(deps: Deps, message: string, validate?: (v: string) => true | string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return guard(password({ message, mask: '•', ...(validate ? { validate } : {}) }, context(deps)));
}

export async function askChoice<T extends string>(deps: Deps, message: string, choices: { name: string; value: T }[], def?: T): Promise<T> {
  const { select } = await import('@inquirer/prompts');
  return guard(select<T>({ message, choices, ...(def !== undefined ? { default: def } : {}) }, context(deps)));
}

// Prompts, with @inquirer/prompts on the invocation's own streams. Only reached when deps.interactive()
// says a person is there; every prompt has a flag that answers it instead. A prompt may quote service
// text (a profile's URL, a workflow's name): its message and choices are made safe for the terminal.
import { InterruptedError } from '../core/errors.js';
import type { InStream, OutStream } from './types.js';
import { safeText } from './safe-text.js';

/** Where a prompt reads and writes, and what cancels it (the dependency bag fits). */
interface PromptHost {
  readonly io: { readonly stdin: InStream; readonly stderr: OutStream };
  readonly signal: AbortSignal;
}

function context(deps: PromptHost) {
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

export async function askText(deps: PromptHost, message: string, opts: { default?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return guard(
    input(
      {
        message: safeText(message),
        ...(opts.default !== undefined ? { default: safeText(opts.default) } : {}),
        ...(opts.validate ? { validate: opts.validate } : {}),
      },
      context(deps),
    ),
  );
}

/** Masked entry: the characters typed are never echoed. */
export async function askSecret(deps: PromptHost, message: string, validate?: (v: string) => true | string): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  return guard(password({ message: safeText(message), mask: '•', ...(validate ? { validate } : {}) }, context(deps)));
}

export async function askChoice<T extends string>(deps: PromptHost, message: string, choices: { name: string; value: T }[], def?: T): Promise<T> {
  const { select } = await import('@inquirer/prompts');
  return guard(
    select<T>(
      { message: safeText(message), choices: choices.map((c) => ({ ...c, name: safeText(c.name) })), ...(def !== undefined ? { default: def } : {}) },
      context(deps),
    ),
  );
}

/** A yes/no question; `def` is the answer to a bare Enter. */
export async function askConfirm(deps: PromptHost, message: string, def = false): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return guard(confirm({ message: safeText(message), default: def }, context(deps)));
}

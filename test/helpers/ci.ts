// Tests that need a tool of the machine (tmux, Chromium, zsh, fish). Without it, on a developer's
// machine they are reported as skipped, saying what to install; in CI (CI=true) they fail with the same
// words instead: a green CI means those tests ran. Never a silent pass. .ci/run installs the tools.
import { spawnSync } from 'node:child_process';
import { describe, test, type TestContext } from 'vitest';

/** CI=true (or 1): read when a test needs it, so a test of this file can set it. */
export const inCi = (): boolean => process.env.CI === 'true' || process.env.CI === '1';

/** Whether `command args` runs (exit 0). */
export const runs = (command: string, args: string[]): boolean => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

export interface Tool {
  name: string;
  present: boolean;
  /** Why the tests that need it cannot run, and what to install. */
  why: string;
  /** `describe`, or: the suite reported skipped (locally) or one failing test (CI). */
  describe(name: string, fn: () => void): void;
  /** `test`, or: the test reported skipped (locally) or failing (CI). */
  test(name: string, fn: (ctx: TestContext) => unknown, timeout?: number): void;
  /** Inside a test (e.g. one of a `test.each`): skips it locally, fails it in CI, when the tool is missing. */
  check(ctx: TestContext): void;
}

export function tool(name: string, present: boolean, install: string): Tool {
  const why = `${name} is not installed (${install})`;
  const check = (ctx: TestContext) => {
    if (present) return;
    if (inCi()) throw new Error(`${why}: CI is set, so the tests that need it fail instead of skipping (.ci/run installs it)`);
    ctx.skip(`skipped: ${why}`);
  };
  return {
    name,
    present,
    why,
    check,
    describe: (title, fn) =>
      present
        ? describe(title, fn)
        : describe(`${title} (needs ${name})`, () => {
            // The suite's own tests and hooks are not registered: without the tool they could only fail.
            test(`needs ${name}`, check);
          }),
    test: (title, fn, timeout) => (present ? test(title, fn, timeout) : test(`${title} (needs ${name})`, check)),
  };
}

export const tmux = tool('tmux', runs('tmux', ['-V']), 'apt-get install tmux');
export const zsh = tool('zsh', runs('zsh', ['-c', 'true']), 'apt-get install zsh');
export const fish = tool('fish', runs('fish', ['-c', 'true']), 'apt-get install fish');

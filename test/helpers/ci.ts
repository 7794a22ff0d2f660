// Tests that need a tool of the machine (tmux, Chromium, zsh, fish) skip without it on a developer's
// machine; in CI (CI=true) a missing tool fails the run instead: a green CI means those tests ran.
// .ci/run installs the tools.

export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** Throws when `tool` is missing and this is CI; returns whether it is there. */
export function toolOrFailInCi(tool: string, present: boolean): boolean {
  if (!present && inCi) throw new Error(`${tool} is not installed, and CI is set: the tests that need it must run in CI (.ci/run installs it)`);
  return present;
}

// The plain node:test file (kit.node-test.mjs) run as a team runs it, `node --test FILE`: it passes, and
// the process ends on its own (stop() leaves no server, timer or socket that keeps it alive).
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { expect, it } from 'vitest';

it('svc-cli/testing works from node:test, and the process ends by itself after stop()', async () => {
  const file = fileURLToPath(new URL('./kit.node-test.mjs', import.meta.url));
  const r = await execa(process.execPath, ['--test', '--test-reporter=spec', file], { reject: false, timeout: 60_000, env: { NO_COLOR: '1' } });
  expect(r.timedOut, r.stdout).toBe(false);
  expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
  expect(r.stdout).toMatch(/an OTP by SMS/);
  expect(r.stdout).toMatch(/pass 2/);
});

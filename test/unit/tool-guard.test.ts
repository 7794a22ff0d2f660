// A test that needs a tool of the machine never passes without it: skipped (visibly, saying what to
// install) on a developer's machine, failed in CI.
import { afterEach, describe, expect, test, type TestContext } from 'vitest';
import { tool } from '../helpers/ci.js';

const ci = process.env.CI;
afterEach(() => {
  if (ci === undefined) delete process.env.CI;
  else process.env.CI = ci;
});

/** A stand-in for vitest's context that records a skip. */
function context(): TestContext & { skipped?: string } {
  const ctx = {
    skip: (note?: string) => {
      ctx.skipped = note ?? '';
      throw new Error('skipped');
    },
  } as TestContext & { skipped?: string };
  return ctx;
}

describe('a missing tool', () => {
  const missing = tool('teletype', false, 'apt-get install teletype');

  test('in CI: the test fails, naming what to install', () => {
    process.env.CI = 'true';
    const ctx = context();
    expect(() => missing.check(ctx)).toThrow(/teletype is not installed \(apt-get install teletype\).*CI is set/);
    expect(ctx.skipped).toBeUndefined();
  });

  test('locally: the test is skipped, saying what to install', () => {
    delete process.env.CI;
    const ctx = context();
    expect(() => missing.check(ctx)).toThrow('skipped');
    expect(ctx.skipped).toBe('skipped: teletype is not installed (apt-get install teletype)');
  });

  test('a present tool lets the test run', () => {
    process.env.CI = 'true';
    const ctx = context();
    expect(() => tool('sh', true, 'apt-get install dash').check(ctx)).not.toThrow();
    expect(ctx.skipped).toBeUndefined();
  });
});

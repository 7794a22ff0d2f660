import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Records every output and secret of the suite and fails the run if a secret was printed.
    setupFiles: ['test/helpers/fast-check-seed.ts', 'test/helpers/no-proxy.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short for a browser or a service on a loaded 2-core
    // CI machine. A poll that passes returns at once, so a longer limit costs nothing. (vi.waitFor has
    // no setting here: each call passes its own timeout.)
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // End-to-end tests spawn the built binary and servers; two cores do not gain from more workers.
    maxWorkers: 2,
    env: { NO_COLOR: '1', FORCE_COLOR: '0' },
  },
});

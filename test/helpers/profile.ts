// What the tests of profiles and credentials share: per test, a loopback stub of the service, a fresh
// folder, and `svc` run with its profile store in `<dir>/cfg` (never the user's own).
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type RunOptions, type RunResult, runSvc, tempConfigDir } from './run.js';
import { startStub, type Stub } from './stub.js';

export interface ProfileSetup {
  stub: Stub;
  /** The test's own folder; the profile store is `<dir>/cfg`. */
  dir: string;
  /** The store's file: `<dir>/cfg/config.json`. */
  configFile(): string;
  /** svc with SVC_CONFIG_DIR set to `<dir>/cfg` (the environment given is added). */
  svc(argv: string[], opts?: Pick<RunOptions, 'env' | 'stdin'>): Promise<RunResult>;
}

export function profileSetup(): ProfileSetup {
  const setup: ProfileSetup = {
    stub: undefined as unknown as Stub,
    dir: '',
    configFile: () => join(setup.dir, 'cfg', 'config.json'),
    svc: (argv, opts = {}) => runSvc(argv, { ...opts, env: { SVC_CONFIG_DIR: join(setup.dir, 'cfg'), ...opts.env } }),
  };
  beforeEach(async () => {
    setup.stub = await startStub();
    setup.dir = tempConfigDir();
  });
  afterEach(async () => setup.stub.close());
  return setup;
}

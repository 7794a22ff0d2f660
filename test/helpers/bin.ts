// Spawns the built binary (npm test builds it first), as users and scripts run it.
import { execa, type Options } from 'execa';
import { fileURLToPath } from 'node:url';
import { tempConfigDir } from './run.js';

export const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

export function svcBin(args: string[], opts: Options & { env?: Record<string, string | undefined> } = {}) {
  return execa('node', [BIN, ...args], {
    reject: false,
    timeout: 60_000,
    ...opts,
    env: { NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), ...opts.env },
    extendEnv: false,
  });
}

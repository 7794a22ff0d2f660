// Spawns the built binary (npm test builds it first), as users and scripts run it.
import { execa, type Options } from 'execa';
import { fileURLToPath } from 'node:url';
import { tempConfigDir } from './run.js';
import { auditInvocation, auditOutput } from './audit.js';

export const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

export function svcBin(args: string[], opts: Options & { env?: Record<string, string | undefined> } = {}) {
  const env = { NO_COLOR: '1', SVC_CONFIG_DIR: tempConfigDir(), ...opts.env };
  const proc = execa(process.execPath, [BIN, ...args], {
    reject: false,
    timeout: 60_000,
    ...opts,
    env,
    extendEnv: false,
  });
  // For the suite's secrets audit (test/helpers/audit.ts); the subprocess itself is returned untouched.
  const source = `svcBin ${args.slice(0, 4).join(' ')}`;
  const stdin = typeof opts.input === 'string' ? opts.input : undefined;
  void proc.then(
    (r) => {
      auditInvocation(source, args, env, stdin);
      auditOutput(source, `${r.stdout ?? ''}${r.stderr ?? ''}`, args.includes('--show-secrets'));
    },
    () => undefined,
  );
  return proc;
}

// The entry point. Scripts call --version to probe for the tool: it is answered before anything else
// loads (not even commander); every other command line goes to execute.ts.
import type { Host } from './execute.js';

export type { Host } from './execute.js';

export async function main(argv: string[], host: Host): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    host.io.stdout.write(`${__SVC_VERSION__}\n`);
    return 0;
  }
  const { execute } = await import('./execute.js');
  return execute(argv, host);
}

/** Called by bin/svc.js. */
export async function run(argv: string[]): Promise<void> {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // The reader went away (`svc ... | head`): stop quietly, as other tools do.
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  process.exitCode = await main(argv, {
    // stdin as a getter: Node makes its stream on first access, and most commands never read it.
    io: {
      stdout: process.stdout,
      // stderr too: most commands write nothing there.
      get stderr() {
        return process.stderr;
      },
      get stdin() {
        return process.stdin;
      },
    },
    env: process.env,
    cwd: process.cwd(),
    handleSignals: true,
  });
}

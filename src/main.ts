// The entry point: bin/svc.js (which answers a plain --version itself) runs run(); tests call main().
// `--version --verbose` loads about.ts; every other command line goes to execute.ts.
import { execute, type Host } from './execute.js';
import type { CompileCacheResult } from './about.js';

export type { Host } from './execute.js';

const VERSION = new Set(['--version', '-V']);

export async function main(argv: string[], host: Host, compileCache?: CompileCacheResult): Promise<number> {
  if (argv.length === 1 && VERSION.has(argv[0]!)) {
    host.io.stdout.write(`${__SVC_VERSION__}\n`);
    return 0;
  }
  if (argv.length === 2 && argv.includes('--verbose') && argv.some((a) => VERSION.has(a))) {
    const { about } = await import('./about.js');
    host.io.stdout.write(`${__SVC_VERSION__}\n${about(compileCache)}\n`);
    return 0;
  }
  return execute(argv, host);
}

/** Called by bin/svc.js, with what turning on the runtime's compile cache gave. */
export async function run(argv: string[], compileCache?: CompileCacheResult): Promise<void> {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // The reader went away (`svc ... | head`): stop quietly, as other tools do.
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  process.exitCode = await main(
    argv,
    {
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
    },
    compileCache,
  );
}

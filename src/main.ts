// Entry point: placeholder until the command tree lands.
//
// TEMPORARY (server branch): `svc dev ...` is dispatched to src/commands/dev.ts with a minimal flag
// parser and Deps so the local service can be started and end-to-end tested before src/cli.ts exists.
// The lead's command tree replaces everything below `run` except the `dev` flags' meaning.
import type { Deps, GlobalOptions, OutputFormat } from './deps.js';
import { EXIT, SvcError, UsageError } from './core/errors.js';
import { ProfileStore, resolveSettings } from './config/profiles.js';

export async function run(argv: string[]): Promise<void> {
  if (argv[0] === 'dev') {
    process.exitCode = await runDev(argv.slice(1));
    return;
  }
  process.stdout.write(`svc ${__SVC_VERSION__} ${argv.join(' ')}\n`);
}

async function runDev(args: string[]): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  // Persistent listeners, not once(): conf (through when-exit) hooks these signals with once-listeners
  // that re-raise the signal; without a listener of ours left, that re-raise would kill the process
  // before the store is closed.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const { globals, opts } = parseDevArgs(args);
    const deps = makeDeps(globals, controller.signal);
    const { run: runDevCommand } = await import('./commands/dev.js');
    await runDevCommand(deps, opts);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof SvcError) {
      process.stderr.write(`svc: ${e.message}\n${e.hint ? `${e.hint}\n` : ''}`);
      return e.exitCode;
    }
    process.stderr.write(`svc: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.failure;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function parseDevArgs(args: string[]) {
  const globals: GlobalOptions = { timeout: 30_000, retries: 3 };
  const opts: import('./commands/dev.js').DevOptions = {};
  const value = (i: number, flag: string): string => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    switch (a) {
      case '--port': opts.port = Number(value(i++, a)); break;
      case '--host': opts.host = value(i++, a); break;
      case '--data': opts.data = value(i++, a); break;
      case '--in-memory': opts.inMemory = true; break;
      case '--seed': opts.seed = value(i++, a); break;
      case '--empty': opts.empty = true; break;
      case '--rate-limit': {
        const v = args[i + 1];
        if (v !== undefined && !v.startsWith('-')) { opts.rateLimit = v; i++; } else opts.rateLimit = true;
        break;
      }
      case '--time-scale': opts.timeScale = Number(value(i++, a)); break;
      case '--allow-remote-webhooks': opts.allowRemoteWebhooks = true; break;
      case '--no-save-profile': opts.saveProfile = false; break;
      case '--api-key': globals.apiKey = value(i++, a); break;
      case '-q': case '--quiet': globals.quiet = true; break;
      case '--json': globals.json = true; break;
      case '-o': case '--output': globals.output = value(i++, a) as OutputFormat; break;
      case '--show-secrets': globals.showSecrets = true; break;
      default: throw new UsageError(`unknown option '${a}' for svc dev`);
    }
  }
  return { globals, opts };
}

function makeDeps(globals: GlobalOptions, signal: AbortSignal): Deps {
  const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
  let profiles: ProfileStore | undefined;
  const deps: Deps = {
    io,
    env: process.env,
    globals,
    commandPath: 'dev',
    signal,
    now: () => Date.now(),
    interactive: () => Boolean(process.stdin.isTTY && process.stdout.isTTY && !process.env.CI && globals.input !== false),
    format: () => globals.output ?? (globals.json ? 'json' : process.stdout.isTTY ? 'table' : 'json'),
    color: () => false,
    profiles: () => (profiles ??= new ProfileStore(process.env)),
    settings: () => resolveSettings({ flags: globals, env: process.env, store: deps.profiles() }),
    info: (m) => {
      if (!globals.quiet) process.stderr.write(`${m}\n`);
    },
    warn: (m) => process.stderr.write(`warning: ${m}\n`),
  };
  return deps;
}

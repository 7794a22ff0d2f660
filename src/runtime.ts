// Builds the dependency bag (deps.ts) for one invocation. Everything heavy is created on first use: the
// profile store is read only when a value is missing, undici loads with the first request, renderers
// with the first print.
import type { Deps, GlobalOptions, IO, OutputFormat } from './deps.js';
import { ProfileStore, resolveSettings, requireApiKey, type ResolvedSettings } from './config/profiles.js';
import { InputReader } from './core/input.js';
import type { ApiClient } from './api/client.js';
import type { PrintOptions } from './io/output.js';

export interface RuntimeInit {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  commandPath: string;
  signal: AbortSignal;
  cwd: string;
  now?: () => number;
}

export const USER_AGENT = `svc/${__SVC_VERSION__} (node ${process.version}; ${process.platform})`;

export interface Runtime extends Deps {
  /** Closes what the invocation opened (HTTP connections). */
  dispose(): Promise<void>;
}

export function createRuntime(init: RuntimeInit): Runtime {
  const { io, env, globals } = init;
  let store: ProfileStore | undefined;
  let settings: ResolvedSettings | undefined;
  let client: Promise<ApiClient> | undefined;

  const color = (): boolean => {
    if (globals.color === false) return false;
    if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
    if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
    return Boolean(io.stdout.isTTY);
  };

  const deps: Runtime = {
    io,
    env,
    globals,
    cwd: init.cwd,
    commandPath: init.commandPath,
    signal: init.signal,
    input: new InputReader(io.stdin, init.cwd),
    now: init.now ?? (() => Date.now()),
    interactive: () =>
      Boolean(io.stdin.isTTY) && Boolean(io.stdout.isTTY) && !env.CI && globals.input !== false,
    format: (): OutputFormat => {
      if (globals.output) return globals.output;
      if (globals.json || globals.query) return 'json';
      return io.stdout.isTTY ? 'table' : 'json';
    },
    color,
    profiles: () => (store ??= new ProfileStore(env, { dryRun: globals.dryRun })),
    settings: () =>
      (settings ??= resolveSettings({
        flags: { apiKey: globals.apiKey, baseUrl: globals.baseUrl, profile: globals.profile },
        env,
        store: deps.profiles(),
      })),
    info: (message) => {
      if (!globals.quiet) io.stderr.write(`${message}\n`);
    },
    warn: (message) => {
      io.stderr.write(`warning: ${message}\n`);
    },
    client: () =>
      (client ??= (async () => {
        const s = deps.settings();
        const apiKey = requireApiKey(s);
        const { ApiClient } = await import('./api/client.js');
        return new ApiClient({
          baseUrl: s.baseUrl.value,
          apiKey,
          timeoutMs: globals.timeout,
          retries: globals.retries,
          userAgent: USER_AGENT,
          env,
          signal: init.signal,
          ...(globals.debug ? { trace: (line: string) => io.stderr.write(`${line}\n`) } : {}),
        });
      })()),
    print: async (value: unknown, opts?: PrintOptions) => {
      const { print } = await import('./io/output.js');
      await print(deps, value, opts);
    },
    dispose: async () => {
      if (client) await (await client.catch(() => undefined))?.close();
    },
  };
  return deps;
}

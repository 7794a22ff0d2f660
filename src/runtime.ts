// Builds the dependency bag (deps.ts) for one invocation. Everything heavy is created on first use: the
// profile store is read only when a value is missing, the HTTP core loads with the first client (its transport
// with the first request), renderers with the first print.
import type { ClientOptions, Deps, GlobalOptions, IO } from './deps.js';
import { checkApiKey, ProfileStore, requireApiKey, requireBaseUrl, resolveSettings, type ResolvedSettings } from './config/profiles.js';
import { InputReader } from './core/input.js';
import { Api } from './api/session.js';
import { print } from './io/output.js';
import type { Output, OutputFormat, PrintOptions } from './io/types.js';
import { hideUrlCredentialsIn } from './core/mask.js';
import { safeText } from './io/safe-text.js';

interface RuntimeInit {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  commandPath: string;
  signal: AbortSignal;
  cwd: string;
  now?: () => number;
}

const USER_AGENT = `svc/${__SVC_VERSION__} (node ${process.version}; ${process.platform})`;

export interface Runtime extends Deps {
  /** Closes what the invocation opened (HTTP connections). */
  dispose(): Promise<void>;
}

export function createRuntime(init: RuntimeInit): Runtime {
  const { io, env, globals } = init;
  let store: ProfileStore | undefined;
  let settings: ResolvedSettings | undefined;
  let shared: Promise<Api> | undefined;
  const opened: Promise<Api>[] = [];
  let input: InputReader | undefined;
  const color = () => colorOn(globals, env, io);

  const deps: Runtime = {
    io,
    env,
    globals,
    cwd: init.cwd,
    commandPath: init.commandPath,
    signal: init.signal,
    // Made when first used: reading process.stdin sets up a stream for it (fs or tty modules), which most
    // commands never read.
    get input() {
      return (input ??= new InputReader(io.stdin, init.cwd));
    },
    now: init.now ?? (() => Date.now()),
    interactive: () => Boolean(io.stdin.isTTY) && Boolean(io.stdout.isTTY) && !env.CI && globals.input !== false,
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
      // Messages quote service text (a name, a provider's answer): shown, never acted on by the terminal.
      if (!globals.quiet) io.stderr.write(`${safeText(hideUrlCredentialsIn(message), { newlines: true })}\n`);
    },
    warn: (message) => {
      io.stderr.write(`warning: ${safeText(hideUrlCredentialsIn(message), { newlines: true })}\n`);
    },
    client: (opts) => {
      if (!opts) return (shared ??= makeClient(init, deps, {}));
      const p = makeClient(init, deps, opts);
      opened.push(p);
      return p;
    },
    output: (overrides = {}) => outputOf(deps, overrides),
    print: async (value: unknown, opts?: PrintOptions) => {
      await print(deps.output(), value, opts);
    },
    records: async (opts = {}) => {
      const { format, ...rest } = opts;
      const { createRecordWriter } = await import('./io/stream.js');
      return createRecordWriter(deps.output(format ? { format } : {}), rest);
    },
    dispose: async () => {
      for (const p of [shared, ...opened]) if (p) await (await p.catch(() => undefined))?.close();
    },
  };
  return deps;
}

/** Colour: off with --no-color or NO_COLOR, on with FORCE_COLOR, else on a terminal. */
function colorOn(globals: GlobalOptions, env: NodeJS.ProcessEnv, io: IO): boolean {
  if (globals.color === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return Boolean(io.stdout.isTTY);
}

/** The API key in use, scrubbed from whatever is printed: an answer may quote it in any field. */
function keyInUse(deps: Deps): string[] {
  try {
    const key = deps.settings().apiKey.value;
    return key ? [key] : [];
  } catch {
    return []; // no settings (an unknown profile): then no key is in use either
  }
}

/** The writer the renderers take: every output flag of this invocation. */
function outputOf(deps: Deps, overrides: Partial<Pick<Output, 'format'>>): Output {
  const { globals } = deps;
  return {
    stdout: deps.io.stdout,
    format: overrides.format ?? deps.format(),
    ...(globals.fields ? { fields: globals.fields } : {}),
    ...(globals.query !== undefined ? { query: globals.query } : {}),
    showSecrets: Boolean(globals.showSecrets),
    secrets: keyInUse(deps),
    color: deps.color(),
    ...(globals.wide ? { wide: true } : {}),
    ...(globals.utc ? { utc: true } : {}),
    ...(globals.quiet ? { quiet: true } : {}),
    note: (m) => deps.info(m),
  };
}

/** The API client: the resolved settings (or the service and key the caller brings) with every rule of the CLI. */
async function makeClient(init: RuntimeInit, deps: Deps, opts: ClientOptions): Promise<Api> {
  const { globals, io } = init;
  // The resolved settings, unless the caller brings its own service and key (svc login checks a key).
  const own = opts.baseUrl !== undefined && opts.apiKey !== undefined;
  const s = own ? undefined : deps.settings();
  const given = { value: opts.baseUrl ?? '', source: globals.baseUrl !== undefined ? ('flag' as const) : ('env' as const) };
  const baseUrl = requireBaseUrl(opts.baseUrl !== undefined ? { baseUrl: given, profile: { value: undefined, source: 'none' } } : s!);
  const apiKey = opts.apiKey !== undefined ? checkApiKey(opts.apiKey, 'the API key') : requireApiKey(s!);
  const readOnlyProfile = s?.readOnly ? (s.profile.value ?? '?') : undefined;
  const api = new Api(
    {
      baseUrl,
      apiKey,
      timeoutMs: opts.timeoutMs ?? globals.timeout,
      retries: opts.retries ?? globals.retries,
      userAgent: USER_AGENT,
      env: init.env,
      signal: opts.signal ?? init.signal,
      ...(globals.debug ? { trace: (line: string) => io.stderr.write(`${safeText(line, { newlines: true })}\n`) } : {}),
      ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
      ...(opts.onRetry ? { onRetry: opts.onRetry } : {}),
      ...(opts.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: opts.maxRetryDelayMs } : {}),
    },
    {
      ...(readOnlyProfile !== undefined ? { readOnlyProfile } : {}),
      command: `svc ${init.commandPath}`,
      dryRun: Boolean(globals.dryRun),
      ...(globals.idempotencyKey !== undefined ? { idempotencyKey: globals.idempotencyKey } : {}),
      showSecrets: Boolean(globals.showSecrets),
      note: (m) => deps.info(m),
      warn: (m) => deps.warn(m),
      showRequest: (req) => deps.print(req),
    },
  );
  if (opts.writes) api.checkWritable();
  return api;
}

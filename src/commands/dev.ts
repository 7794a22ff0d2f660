// `svc dev`: the local Notification Delivery Service in the foreground. Prints where it listens and
// how to use it, saves the `local` profile, logs one line per request on stderr, and stops cleanly
// (requests in flight finish, the runner stops, the store closes) when deps.signal is aborted.
// The service's modules (fastify, better-sqlite3) load when the command runs, not with its declaration.
import { dirname, join, resolve } from 'node:path';
import { collect, intArg, positiveNumberArg } from '../cli-args.js';
import { EXIT, SvcError, UsageError } from '../core/errors.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';
import { maskKey } from '../core/mask.js';
import type { Deps } from '../deps.js';
import type { LocalService } from '../server/index.js';
import { choiceOption, Command, examples } from './define.js';

export const command = () =>
  examples(
    new Command('dev')
      .description('run the service locally (SQLite store, demo data, real workflow engine)')
      .option('--port <n>', 'port; 0 picks a free one', intArg(0, 65535), 2999)
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--data <file>', 'SQLite store file (default: in the user data directory)')
      .option('--in-memory', 'keep everything in memory (nothing saved)')
      .option('--seed <file>', 'load workflows, integrations, subscribers... from a JSON or YAML file')
      .option('--empty', 'start without the demo data')
      .option('--rate-limit [spec]', 'enforce rate limits, e.g. trigger=60,configuration=20,global=30')
      .option('--time-scale <n>', 'make delays and digests pass N times faster', positiveNumberArg)
      .addOption(choiceOption('--clock <mode>', 'real (the default) or manual: time stands still until `svc dev clock advance`', ['real', 'manual']))
      .option('--import <file>', 'start from a snapshot (`svc dev snapshot save`, --export-on-exit) instead of the store as it is')
      .option('--export-on-exit <file>', 'write a snapshot of the store to this file when svc dev stops (Ctrl-C, SIGTERM)')
      .option('--allow-remote-webhooks', 'let webhooks deliver to non-loopback addresses')
      .option('--retention <duration>', 'delete finished activity older than this, e.g. 30d, 12h, 90m (default: keep all)')
      .option('--log', 'log one line per request on stderr (the default when stderr is not a terminal)')
      .option('--no-log', 'log no requests')
      .option('--no-save-profile', 'do not save the "local" profile')
      .option('--open', 'open the web console in the browser (signed in by a one-time link)')
      .option('--bridge-url <url>', 'an app serving code-first workflows (@novu/framework): registered at start, again when it restarts')
      .option('--allow-remote-bridge', "let bridge URLs (--bridge-url, workflow sync, a trigger's bridgeUrl) be non-loopback addresses")
      .option(
        '--inbox-origin <url>',
        "let pages of this origin use the Inbox API and socket (repeatable; this machine's loopback origins always can)",
        collect,
      ),
    [
      'svc dev',
      'svc dev --open',
      'svc dev --port 0 --in-memory',
      'svc dev --host 127.0.0.1 --port 4000 --in-memory --api-key sk_test_local   # a fixed key (tests, CI)',
      'svc dev --data ./dev.sqlite --seed seed.yaml --time-scale 60',
      'svc dev --retention 30d',
      'svc dev --in-memory --clock manual   # tests move time: svc dev clock advance 1h',
      'svc dev --in-memory --import seed.sqlite --export-on-exit after.sqlite',
      'svc dev --inbox-origin https://myapp.test:5173   # an app page served from a name other than localhost',
    ],
  );

export interface DevOptions {
  /** Default 2999; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  data?: string;
  inMemory?: boolean;
  seed?: string;
  empty?: boolean;
  /** `true` for the free-tier limits, or `trigger=60,configuration=20,global=30`. */
  rateLimit?: boolean | string;
  /** Service time runs this many times faster than real time (delays, digests). */
  timeScale?: number;
  /** `manual`: service time stands still until `svc dev clock advance`. */
  clock?: string;
  /** Start from this snapshot file. */
  import?: string;
  /** Write a snapshot to this file when stopping. */
  exportOnExit?: string;
  allowRemoteWebhooks?: boolean;
  /** Delete finished activity older than this (`30d`, `12h`, `90m`). */
  retention?: string;
  /** false with --no-save-profile. */
  saveProfile?: boolean;
  /** Open the web console in the browser. */
  open?: boolean;
  /** An app serving code-first workflows: registered at start and when it restarts. */
  bridgeUrl?: string;
  /** Bridge URLs may be other than loopback. */
  allowRemoteBridge?: boolean;
  /** Log requests: --log / --no-log; by default only when stderr is not a terminal (where the log would scroll the banner away). */
  log?: boolean;
  /** Origins whose pages may use the Inbox API and socket, besides this machine's loopback origins. */
  inboxOrigin?: string[];
}

const DEFAULT_PORT = 2999;
const DEFAULT_HOST = '127.0.0.1';
const PROFILE_NAME = 'local';

async function defaultDataFile(): Promise<string> {
  const { default: envPaths } = await import('env-paths');
  return join(envPaths('svc', { suffix: '' }).data, 'dev.sqlite');
}

export async function run(deps: Deps, opts: DevOptions): Promise<void> {
  const { port, host } = checkOptions(opts);
  const { originOf } = await import('../server/inbox/origins.js');
  for (const o of opts.inboxOrigin ?? []) {
    if (originOf(o) === undefined)
      throw new UsageError(`--inbox-origin: expected an http(s) origin such as https://myapp.test:5173 (no path), got ${JSON.stringify(o)}`);
  }
  const { service, data, memory } = await openService(deps, opts);
  try {
    const baseUrl = await listen(service, host, port);
    const apiKey = service.environment.apiKey;
    const { profile, madeCurrent } = opts.saveProfile !== false ? await saveLocalProfile(deps, baseUrl, apiKey) : { profile: null, madeCurrent: false };
    // The web console: its address, and a link that signs in once (the code is in the fragment, which
    // no request carries, so no log holds it). --open hands the browser a link of its own.
    const { consoleLinks } = await import('../server/console/index.js');
    const web = consoleLinks(service.app, baseUrl);
    const applicationIdentifier = service.store.tx(() => service.store.inbox.settings(service.environment.id).identifier);
    // With the in-app integration's HMAC on, an <Inbox/> needs the subscriber's hash to get a session.
    const { inboxHashFor } = await import('../server/inbox/jwt.js');
    const subscriberHash = inboxHashFor(service.store, service.environment, 'ada');
    announce(deps, {
      baseUrl,
      apiKey,
      environment: service.environment,
      profile,
      madeCurrent,
      data,
      host,
      memory,
      console: web,
      applicationIdentifier,
      subscriberHash,
      logging: logsRequests(deps, opts),
      manualClock: opts.clock === 'manual',
    });
    if (opts.bridgeUrl !== undefined) {
      const bridge = await watchBridge(deps, service, opts.bridgeUrl, opts.allowRemoteBridge === true, baseUrl);
      deps.signal.addEventListener('abort', () => bridge.stop(), { once: true });
      // The app's workflows, registered now, are part of the state `svc dev reset` goes back to.
      const { keepStartState } = await import('../server/store/snapshot.js');
      await new Promise<void>((done) =>
        service.store.afterCommit(() => {
          keepStartState(service.store);
          done();
        }),
      );
    }
    if (opts.open) {
      const { openInBrowser } = await import('../server/console/open.js');
      await openInBrowser(consoleLinks(service.app, baseUrl).link, deps.env).catch((e: Error) =>
        deps.warn(`could not open a browser (${e.message}): open ${web.url} and use the link above`),
      );
    }
    await aborted(deps.signal);
    deps.info('svc dev: stopping');
  } finally {
    await service.close();
  }
}

/** The flags that need no service to check: bad ones are exit 2 before anything starts. */
function checkOptions(opts: DevOptions): { port: number; host: string } {
  const port = opts.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`invalid --port ${opts.port}: use 0-65535 (0 picks a free port)`);
  if (opts.inMemory && opts.data !== undefined) throw new UsageError('--data and --in-memory cannot be used together');
  const timeScale = opts.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new UsageError(`invalid --time-scale ${opts.timeScale}: use a positive number`);
  if (opts.clock === 'manual' && opts.timeScale !== undefined)
    throw new UsageError('--time-scale and --clock manual cannot be used together: a manual clock moves only with `svc dev clock advance`');
  if (opts.bridgeUrl !== undefined && !/^https?:\/\/[^/]/.test(opts.bridgeUrl))
    throw new UsageError(`--bridge-url: must be an http(s) URL, got ${JSON.stringify(opts.bridgeUrl)}`);
  return { port, host: opts.host ?? DEFAULT_HOST };
}

/** The local service over its store, from the flags: what it refuses of them is the user's input (exit 2). */
async function openService(deps: Deps, opts: DevOptions): Promise<{ service: LocalService; data: string; memory: boolean }> {
  const { ServiceInputError } = await import('../server/errors.js');
  const given = <T>(start: () => T): T => {
    try {
      return start();
    } catch (e) {
      if (e instanceof ServiceInputError) throw new UsageError(e.message, e.hint);
      throw e;
    }
  };
  const { parseRateLimitSpec } = await import('../server/rate-limit.js');
  const rateLimits = given(() => parseRateLimitSpec(opts.rateLimit));
  const seed = opts.seed !== undefined ? await seedFrom(opts.seed, given) : undefined;
  const importSnapshot = opts.import !== undefined ? await snapshotFrom(deps, opts.import) : undefined;
  const exportOnExit = opts.exportOnExit !== undefined ? exportTarget(deps, opts.exportOnExit) : undefined;
  const { parseRetention } = await import('../server/store/retention.js');
  const retentionMs = opts.retention === undefined ? undefined : parseRetention(opts.retention);
  if (opts.retention !== undefined && retentionMs === undefined)
    throw new UsageError(`invalid --retention ${opts.retention}: use a duration such as 30d, 12h or 90m`);
  const { createLocalService } = await import('../server/index.js');
  const { MEMORY, StoreError, StoreFolderMissing } = await import('../server/store/index.js');
  const data = opts.inMemory ? MEMORY : (opts.data ?? (await defaultDataFile()));
  try {
    const service = given(() =>
      createLocalService({
        data,
        createDataFolder: opts.data === undefined,
        retentionMs,
        apiKey: deps.globals.apiKey,
        seed,
        empty: opts.empty,
        timeScale: opts.timeScale ?? 1,
        clockMode: opts.clock === 'manual' ? 'manual' : 'real',
        importSnapshot,
        exportOnExit,
        rateLimits,
        allowRemoteWebhooks: opts.allowRemoteWebhooks,
        allowRemoteBridge: opts.allowRemoteBridge,
        log: logsRequests(deps, opts) ? (line) => deps.io.stderr.write(`${line}\n`) : undefined,
        onInternalError: (e, id) => deps.warn(`internal error ${id}: ${(e as Error)?.stack ?? String(e)}`),
        inboxOrigins: opts.inboxOrigin,
        warn: (line) => deps.warn(line),
      }),
    );
    return { service, data, memory: data === MEMORY };
  } catch (e) {
    // The service refuses a store in a folder that does not exist (a plain error of its own); only the
    // default location is created. A given --data in a missing folder is a usage error naming the flag.
    if (e instanceof StoreFolderMissing) throw new UsageError(`--data ${data}: ${e.message}; create it first, or choose another file`);
    // A store svc dev cannot use (corrupt, another program's, newer, in use): exit 1 with the store's hint.
    if (e instanceof StoreError) throw new SvcError(e.message, 'store_error', EXIT.failure, e.hint);
    throw e;
  }
}

/** The `local` profile points at this service (and becomes the current one when there is none). */
async function saveLocalProfile(deps: Deps, baseUrl: string, apiKey: string): Promise<{ profile: string | null; madeCurrent: boolean }> {
  let madeCurrent = false;
  try {
    await deps.profiles().update((f) => {
      f.profiles[PROFILE_NAME] = { ...f.profiles[PROFILE_NAME], baseUrl, apiKey };
      if (!f.current) {
        f.current = PROFILE_NAME;
        madeCurrent = true;
      }
    });
    return { profile: PROFILE_NAME, madeCurrent };
  } catch (e) {
    deps.warn(`could not save the '${PROFILE_NAME}' profile: ${(e as Error).message}`);
    return { profile: null, madeCurrent: false };
  }
}

/** Code-first workflows: registered now, re-discovered when the app restarts or changes them. */
async function watchBridge(deps: Deps, service: LocalService, bridgeUrl: string, allowRemote: boolean, baseUrl: string): Promise<{ stop(): void }> {
  const { watchBridge: watch, bridgeEnvLines } = await import('../server/bridge/watch.js');
  for (const line of bridgeEnvLines(baseUrl, service.environment.apiKey, deps.globals.showSecrets === true)) deps.io.stderr.write(`${line}\n`);
  const watching = watch({ store: service.store, environment: service.environment, bridgeUrl, allowRemote, log: (l) => deps.info(l) });
  await watching.ready;
  return watching;
}

/** The --import file's bytes, checked whole before anything starts (a bad one is exit 2 naming it). */
async function snapshotFrom(deps: Deps, file: string): Promise<Buffer> {
  const { readSnapshotFile } = await import('./dev/snapshot-load.js');
  const bytes = readSnapshotFile(resolve(deps.cwd, file), file, '--import');
  const { snapshotProblem } = await import('../server/store/snapshot.js');
  const problem = snapshotProblem(bytes);
  if (problem) throw new UsageError(`--import: ${file} is ${problem}`);
  return bytes;
}

/** The --export-on-exit file, resolved now: its folder must exist (found out at the end, it would lose the store). */
function exportTarget(deps: Deps, file: string): string {
  const path = resolve(deps.cwd, file);
  const fs = process.getBuiltinModule('node:fs');
  if (!fs.existsSync(dirname(path)) || !fs.statSync(dirname(path)).isDirectory())
    throw new UsageError(`--export-on-exit: the folder of ${file} does not exist`);
  return path;
}

/** The seed file, checked (the loader's errors name --seed). */
async function seedFrom(file: string, given: <T>(start: () => T) => T) {
  const { loadSeedFile } = await import('../server/seed/load.js');
  const seed = given(() => loadSeedFile(file));
  // Stored as JSON, as request bodies are: nested thousands of levels deep, it would overflow the stack
  // while being written (an "internal error"), where a body gets a 400.
  if (nestedDeeperThan(seed)) throw new UsageError(`--seed: ${file} nests more than ${MAX_JSON_DEPTH} levels deep`);
  return seed;
}

async function listen(service: LocalService, host: string, port: number): Promise<string> {
  try {
    await service.app.listen({ host, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new SvcError(`port ${port} on ${host} is already in use`, 'port_in_use', EXIT.failure, 'choose another with --port, or --port 0 for a free one');
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new SvcError(`cannot listen on ${host}:${port} (${code})`, 'listen_failed', EXIT.failure);
    }
    throw e;
  }
  const addr = service.app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  // An all-interfaces bind is reached from this machine through loopback.
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${actual}`;
}

/**
 * At a terminal a request log scrolls the banner (and its sign-in link) out of sight: requests are
 * logged there only with --log. Piped to a file or another program, the log is kept by default.
 */
function logsRequests(deps: Deps, opts: DevOptions): boolean {
  if (deps.globals.quiet) return false;
  return opts.log ?? !deps.io.stderr.isTTY;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

interface Started {
  baseUrl: string;
  apiKey: string;
  environment: { id: string; name: string };
  profile: string | null;
  madeCurrent: boolean;
  data: string;
  host: string;
  memory: boolean;
  console: { url: string; link: string };
  logging: boolean;
  /** --clock manual: said in the banner (service time stands still). */
  manualClock: boolean;
  /** The environment's application identifier: what the in-app Inbox client is given. */
  applicationIdentifier: string;
  /** The example subscriber's hash, when the in-app integration requires one (HMAC on). */
  subscriberHash: string | undefined;
}

/** A ready `<Inbox/>` for an app's page, against this service. */
function inboxSnippet(s: Started): string {
  const hash = s.subscriberHash !== undefined ? ` subscriberHash="${s.subscriberHash}"` : '';
  return `<Inbox applicationIdentifier="${s.applicationIdentifier}" subscriberId="ada"${hash} backendUrl="${s.baseUrl}" socketUrl="${s.baseUrl}" />`;
}

function announce(deps: Deps, s: Started): void {
  const key = deps.globals.showSecrets ? s.apiKey : maskKey(s.apiKey);
  if (deps.format() !== 'table') {
    const line = {
      baseUrl: s.baseUrl,
      apiKey: key,
      environmentId: s.environment.id,
      profile: s.profile,
      data: s.data,
      console: s.console.url,
      // The link's one-time code signs in as this environment: a secret, so not in a script's or CI
      // log unless asked for (at a terminal a person is reading it).
      ...(deps.globals.showSecrets ? { consoleLink: s.console.link } : {}),
      applicationIdentifier: s.applicationIdentifier,
      inbox: inboxSnippet(s),
    };
    deps.io.stdout.write(`${JSON.stringify(line)}\n`);
    if (!deps.globals.showSecrets) {
      deps.info(`the API key is masked: --show-secrets prints it${s.profile ? `, or use --profile ${s.profile}` : ''}`);
      deps.info(`the console's one-time sign-in link is left out: --show-secrets or --open gives one, or sign in at ${s.console.url} with the API key`);
    }
  } else {
    const use = s.profile ? `svc --profile ${s.profile}` : `svc --base-url ${s.baseUrl} --api-key <key>`;
    const lines = [
      'svc dev: the Notification Delivery Service, running locally',
      `  Base URL     ${s.baseUrl}`,
      `  API key      ${key}${deps.globals.showSecrets ? '' : '   (--show-secrets prints it)'}`,
      `  Environment  ${s.environment.name} (${s.environment.id})`,
      `  Store        ${s.memory ? 'in memory (gone when stopped)' : s.data}`,
      ...(s.manualClock ? ['  Clock        manual: time stands still until `svc dev clock advance 1h`'] : []),
      `  Profile      ${s.profile ? `${s.profile}${s.madeCurrent ? ' (saved, now the current profile)' : ' (saved)'}` : 'not saved'}`,
      `  Console      ${s.console.url}   (the link below signs in once)`,
      `  Sign-in link ${s.console.link}`,
      `  Inbox app id ${s.applicationIdentifier}`,
      '',
      'In-app Inbox (@novu/react), in your app:',
      `  ${inboxSnippet(s)}`,
      ...(s.subscriberHash !== undefined ? ["  (HMAC is on: compute subscriberHash on your server for each subscriber; see the README's Inbox section)"] : []),
      '',
      'Try:',
      `  ${use} trigger welcome --to ada`,
      `  ${use} events list`,
      '',
      `Ctrl-C stops it.${s.logging ? '' : ' Requests are not logged here (--log shows them).'}`,
    ];
    deps.io.stdout.write(`${lines.join('\n')}\n`);
  }
  if (!['127.0.0.1', 'localhost', '::1'].includes(s.host)) {
    deps.warn(`listening on ${s.host}: anyone who can reach this machine and has the key can use the service`);
  }
}

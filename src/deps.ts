// The one bag of dependencies handed to every command: streams, environment, parsed global flags, and
// lazily built services (profile store, resolved settings, the API client, prompts, output). Commands
// never touch `process.*` directly, so tests can run them with other streams and environments.
// Types only: the bag is built by runtime.ts; api/ and io/ never import it.
import type { ProfileStore, ResolvedSettings } from './config/profiles.js';
import type { InputReader } from './core/input.js';
import type { Api } from './api/session.js';
import type { ClientConfig } from './api/client.js';
import type { InStream, Output, OutputFormat, OutStream, PrintOptions } from './io/types.js';
import type { RecordWriter, WriterOptions } from './io/stream.js';

export type { OutputFormat, OutStream } from './io/types.js';

export interface GlobalOptions {
  output?: OutputFormat;
  json?: boolean;
  fields?: string[];
  query?: string;
  dryRun?: boolean;
  showSecrets?: boolean;
  idempotencyKey?: string;
  /** Per-attempt timeout in milliseconds. */
  timeout: number;
  retries: number;
  debug?: boolean;
  /** false with --no-color or NO_COLOR; true with FORCE_COLOR; else decided by the TTY. */
  color?: boolean;
  /** false with --no-input. */
  input?: boolean;
  quiet?: boolean;
  /** --wide: tables show every column whole. */
  wide?: boolean;
  /** --utc: times in UTC (Z) rather than local with the offset. */
  utc?: boolean;
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

/** What a command may change about the client it asks for; every rule of the CLI still applies. */
export interface ClientOptions {
  /** Another service and key than the resolved settings (svc login checks a key before saving it). */
  baseUrl?: string;
  apiKey?: string;
  retries?: number;
  /** The client is for state changes: refused at once under a read-only profile (before anything is read or sent). */
  writes?: boolean;
  onAttempt?: ClientConfig['onAttempt'];
  onRetry?: ClientConfig['onRetry'];
  maxRetryDelayMs?: number;
  /** Cancels this client's requests (a Tab's completion: its own budget, not Ctrl-C). */
  signal?: AbortSignal;
  /** Timeout per attempt instead of --timeout. */
  timeoutMs?: number;
}

export interface Deps {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  /** The working directory relative paths are resolved against. */
  readonly cwd: string;
  /** e.g. "events list"; used in messages and the read-only check. */
  readonly commandPath: string;
  /** Aborted on SIGINT/SIGTERM: long-running work stops cleanly and reports where it got to. */
  readonly signal: AbortSignal;
  now(): number;
  /** A person is there: stdin and stdout are TTYs, no CI, no --no-input. */
  interactive(): boolean;
  /** The resolved output format: -o, else --json/--query, else table on a TTY and json otherwise. */
  format(): OutputFormat;
  /** Colour on stderr/stdout. */
  color(): boolean;
  profiles(): ProfileStore;
  settings(): ResolvedSettings;
  /** A line on stderr unless --quiet (progress, hints). */
  info(message: string): void;
  /** A warning line on stderr (shown even with --quiet). */
  warn(message: string): void;
  /** Reads JSON flags, files and stdin. */
  readonly input: InputReader;
  /**
   * The only way to an API client: read-only profiles, --dry-run, --idempotency-key, replay notes and
   * answer checks are inside it (loads the HTTP core on first use, its transport with the first request).
   * Without options the same client is returned each time; it is closed when the command ends.
   */
  client(opts?: ClientOptions): Promise<Api>;
  /** The writer the renderers take: stdout, format, --fields, --query, masking, colour. */
  output(overrides?: Partial<Pick<Output, 'format'>>): Output;
  /** Writes a result to stdout in the chosen format (loads the renderers on first use). */
  print(value: unknown, opts?: PrintOptions): Promise<void>;
  /** A writer of records as they arrive (--all, --paginate, watch), through the same preparation as print(). */
  records(opts?: WriterOptions & { format?: OutputFormat }): Promise<RecordWriter>;
}

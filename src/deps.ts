// The one bag of dependencies handed to every command: streams, environment, parsed global flags, and
// lazily built services (profile store, resolved settings, API client, prompter, output). Commands never
// touch `process.*` directly, so tests can run them with other streams and environments.
import type { Readable, Writable } from 'node:stream';
import type { ProfileStore, ResolvedSettings } from './config/profiles.js';
import type { InputReader } from './core/input.js';
import type { ApiClient } from './api/client.js';
import type { PrintOptions } from './io/output.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'yaml';

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
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
}

export interface OutStream extends Writable {
  isTTY?: boolean;
  columns?: number;
}
export interface InStream extends Readable {
  isTTY?: boolean;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
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
  /** The HTTP client for the resolved settings (loads undici on first use). */
  client(): Promise<ApiClient>;
  /** Writes a result to stdout in the chosen format (loads the renderers on first use). */
  print(value: unknown, opts?: PrintOptions): Promise<void>;
}

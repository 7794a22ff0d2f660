// What the renderers need to know, and nothing more: where to write, in which format, with which
// --fields/--query/--show-secrets, and how wide and colourful the terminal is. The dependency bag
// (deps.ts) builds one; the renderers never see the bag itself.
import type { Readable, Writable } from 'node:stream';
import type { JudgeScope } from '../core/status.js';
import type { ViewName } from './views.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'yaml' | 'tsv';

export interface OutStream extends Writable {
  isTTY?: boolean;
  columns?: number;
}
export interface InStream extends Readable {
  isTTY?: boolean;
}

export interface PrintOptions {
  /** Which table layout to use for records of this kind. */
  view?: ViewName;
  /** The value is a paging envelope (`data` plus next/previous or page/hasMore). */
  list?: boolean;
  /** Events: judge their derived status over these channels' steps only (`--channel`). */
  scope?: JudgeScope;
  /** The event timeline: each execution detail's raw answer whole (`events get --raw`), not folded. */
  raw?: boolean;
}

/** The narrow writer every renderer takes. */
export interface Output {
  readonly stdout: OutStream;
  readonly format: OutputFormat;
  readonly fields?: string[];
  readonly query?: string;
  /** --show-secrets: print what the service returned, unmasked. */
  readonly showSecrets?: boolean;
  /** Strings scrubbed wherever they appear (the API key in use). */
  readonly secrets: readonly string[];
  readonly color: boolean;
  /** --wide: every column whole, not fitted to the terminal. */
  readonly wide?: boolean;
  /** --quiet: a TSV has no header line. */
  readonly quiet?: boolean;
  /** --utc: times in UTC (Z) rather than local with the offset. */
  readonly utc?: boolean;
  /** A line on stderr unless --quiet ("(no results)"). */
  note(message: string): void;
}

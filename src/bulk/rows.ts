// Reading a recipients file one row at a time (constant memory): CSV with a header (csv-parse) or
// NDJSON. Each row becomes a recipient and, optionally, a payload of its own; a row that cannot be read
// becomes a bad row with its line number and the reason, never a silent drop.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { isPlainObject } from '../core/input.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../core/json-depth.js';

/** Subscriber fields a row may carry besides subscriberId (trigger's subscriber object form). */
const SUBSCRIBER_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;
const NDJSON_KEYS = new Set<string>(['subscriberId', ...SUBSCRIBER_FIELDS, 'data', 'channels', 'payload']);
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

type Recipient = string | ({ subscriberId: string } & Record<string, unknown>);

export interface GoodRow {
  kind: 'row';
  /** Line number in the file where the row starts (the CSV header is line 1). */
  row: number;
  subscriberId: string;
  recipient: Recipient;
  /** The row's own payload, when it has one. */
  payload?: Record<string, unknown>;
}
export interface BadRow {
  kind: 'bad';
  row: number;
  subscriberId?: string;
  error: string;
}
export type Row = GoodRow | BadRow;

type FileFormat = 'csv' | 'ndjson';

function formatOf(path: string, firstChar: string | undefined): FileFormat {
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.csv$/i.test(path)) return 'csv';
  return firstChar === '{' ? 'ndjson' : 'csv';
}

function setDotted(target: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = target;
  for (const seg of path.slice(0, -1)) {
    if (!isPlainObject(cur[seg])) cur[seg] = {};
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = value;
}

function checkSubscriberId(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.trim() === '') return 'missing subscriberId';
  if (CONTROL_RE.test(v)) return 'subscriberId contains control characters';
  if (v.length > 512) return 'subscriberId is longer than 512 characters';
  return undefined;
}

/** Builds the recipient: a bare id when the row has nothing else, else the subscriber object. */
function recipientOf(subscriberId: string, fields: Record<string, unknown>): Recipient {
  return Object.keys(fields).length === 0 ? subscriberId : { subscriberId, ...fields };
}

// --- CSV -------------------------------------------------------------------------------------------------

const CSV_COLUMN_RE = /^(subscriberId|firstName|lastName|email|phone|avatar|locale|timezone|(data|payload)\.[^.\s]+(\.[^.\s]+)*)$/;

/** Checks a CSV header: every column must be known, subscriberId must be there. */
function checkCsvHeader(columns: string[]): void {
  const unknown = columns.filter((c) => !CSV_COLUMN_RE.test(c));
  if (unknown.length) {
    throw new UsageError(
      `--recipients-file: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => JSON.stringify(c)).join(', ')}; ` +
        'expected subscriberId, subscriber fields (firstName, lastName, email, phone, avatar, locale, timezone), data.* or payload.*',
    );
  }
  if (!columns.includes('subscriberId')) throw new UsageError('--recipients-file: the CSV header has no subscriberId column');
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup) throw new UsageError(`--recipients-file: column ${JSON.stringify(dup)} appears twice`);
}

export function csvRecordToRow(record: Record<string, string>, row: number): Row {
  const idError = checkSubscriberId(record.subscriberId);
  if (idError) return { kind: 'bad', row, error: idError };
  const subscriberId = record.subscriberId!;
  const fields: Record<string, unknown> = {};
  let payload: Record<string, unknown> | undefined;
  for (const [col, value] of Object.entries(record)) {
    if (col === 'subscriberId' || value === '' || value === undefined) continue;
    const path = col.split('.');
    if (path[0] === 'payload') setDotted((payload ??= {}), path.slice(1), value);
    else if (path[0] === 'data') setDotted(((fields.data as Record<string, unknown>) ??= {}), path.slice(1), value);
    else fields[col] = value;
  }
  return { kind: 'row', row, subscriberId, recipient: recipientOf(subscriberId, fields), ...(payload ? { payload } : {}) };
}

async function* csvRows(input: Readable): AsyncGenerator<Row> {
  const { parse } = await import('csv-parse');
  const skipped: Row[] = [];
  // The line the last record ended on (the parser's own count, in step with its errors): a quote that
  // is never closed swallows every line after it, and the row to name is where it opened.
  let lastEnd = 1;
  const parser = parse({
    bom: true,
    columns: (header: string[]) => {
      const cols = header.map((h) => h.trim());
      checkCsvHeader(cols);
      return cols;
    },
    info: true,
    skip_empty_lines: true,
    // Any line ending, mixed in one file too (an LF header above CRLF rows): the parser's own guess
    // takes the first it sees, and a \r left at the end of each row made every subscriberId invalid.
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_records_with_error: true,
    on_record: (record: Record<string, string>, context: { lines: number }) => {
      lastEnd = context.lines;
      return record;
    },
    on_skip: (err: (Error & { lines?: number; code?: string }) | undefined) => {
      if (!err) return;
      const end = err.lines ?? 0;
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
        // Where it opened is known only as "after the last record read" (blank lines may come first).
        const row = Math.min(lastEnd + 1, end);
        skipped.push({
          kind: 'bad',
          row,
          error: `malformed CSV: a quote opened after line ${lastEnd} is never closed: the rest of the file was read as one row`,
        });
      } else {
        skipped.push({ kind: 'bad', row: end, error: `malformed CSV: ${err.message.replace(/^Invalid Record Length: /, '')}` });
      }
      lastEnd = end;
    },
  });
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      // In file order: the parser may have run ahead of this loop and already skipped later records.
      while (skipped.length && skipped[0]!.row < item.info.lines) yield skipped.shift()!;
      yield csvRecordToRow(item.record, item.info.lines);
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--recipients-file: ${(e as Error).message}`);
  }
  while (skipped.length) yield skipped.shift()!;
}

// --- NDJSON -----------------------------------------------------------------------------------------------

export function ndjsonLineToRow(line: string, row: number): Row {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return { kind: 'bad', row, error: 'invalid JSON' };
  }
  if (!isPlainObject(v)) return { kind: 'bad', row, error: 'expected a JSON object' };
  if (nestedDeeperThan(v)) return { kind: 'bad', row, error: `nests more than ${MAX_JSON_DEPTH} levels deep` };
  const idError = checkSubscriberId(v.subscriberId);
  if (idError) return { kind: 'bad', row, error: idError };
  const subscriberId = v.subscriberId as string;
  const unknown = Object.keys(v).filter((k) => !NDJSON_KEYS.has(k));
  if (unknown.length) return { kind: 'bad', row, subscriberId, error: `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}` };
  if (v.payload !== undefined && !isPlainObject(v.payload)) return { kind: 'bad', row, subscriberId, error: 'payload must be an object' };
  if (v.data !== undefined && v.data !== null && !isPlainObject(v.data)) return { kind: 'bad', row, subscriberId, error: 'data must be an object' };
  for (const f of SUBSCRIBER_FIELDS) {
    if (v[f] !== undefined && v[f] !== null && typeof v[f] !== 'string') return { kind: 'bad', row, subscriberId, error: `${f} must be a string` };
  }
  const { subscriberId: _id, payload, ...fields } = v;
  return { kind: 'row', row, subscriberId, recipient: recipientOf(subscriberId, fields), ...(payload ? { payload: payload as Record<string, unknown> } : {}) };
}

async function* ndjsonRows(input: Readable): AsyncGenerator<Row> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === '') continue;
    yield ndjsonLineToRow(line, n);
  }
}

// --- opening ------------------------------------------------------------------------------------------------

interface OpenedFile {
  format: FileFormat;
  rows: AsyncGenerator<Row>;
  /** Bytes read so far, and the total when known (a file): for the progress bar. */
  progress(): { read: number; total?: number };
}

/**
 * Checks that `path` is a readable file (a regular file, or a pipe such as <(...)) and returns its
 * size: before a run writes anything beside it (its journal), a directory or a missing file is
 * refused.
 */
export async function checkRecipientsFile(path: string): Promise<number | undefined> {
  const fail = (why: string): never => {
    throw new UsageError(`--recipients-file: cannot read ${path}: ${why}`);
  };
  try {
    const s = await stat(path);
    if (s.isDirectory()) fail('it is a directory');
    if (!s.isFile()) return undefined; // a pipe: opening it here could take data from the run
    await (await open(path, 'r')).close();
    return s.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    return fail(
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'ELOOP' ? 'a symbolic link loop' : (e as Error).message,
    );
  }
}

export async function openRecipients(path: string, stdin: Readable, sizeOf: (p: string) => Promise<number>): Promise<OpenedFile> {
  let input: Readable;
  let total: number | undefined;
  if (path === '-') input = stdin;
  else {
    try {
      total = await sizeOf(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        `--recipients-file: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`,
      );
    }
    input = createReadStream(path);
  }
  // Peek at the first chunk to tell NDJSON from CSV when the name does not say. It goes back at once,
  // in the same tick: a stream that has all its data and its end (a short pipe, a buffer) would
  // otherwise emit 'end' before the chunk is back, and the rows would be lost.
  const first: Buffer | string | undefined = await new Promise((resolve, reject) => {
    const onReadable = () => {
      cleanup();
      const chunk = (input.read() as Buffer | null) ?? undefined;
      if (chunk !== undefined) input.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (e: Error) => {
      cleanup();
      const code = (e as NodeJS.ErrnoException).code;
      reject(
        new UsageError(
          `--recipients-file: cannot read ${path}: ${code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : e.message}`,
        ),
      );
    };
    const cleanup = () => {
      input.off('readable', onReadable);
      input.off('end', onEnd);
      input.off('error', onError);
    };
    input.once('readable', onReadable);
    input.once('end', onEnd);
    input.once('error', onError);
  });
  const firstChar =
    first === undefined
      ? undefined
      : String(first)
          .replace(/^\uFEFF/, '')
          .trimStart()[0];
  const format = formatOf(path, firstChar);
  return {
    format,
    rows: format === 'csv' ? csvRows(input) : ndjsonRows(input),
    progress: () => ({ read: (input as Readable & { bytesRead?: number }).bytesRead ?? 0, ...(total !== undefined ? { total } : {}) }),
  };
}

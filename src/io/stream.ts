// Writes records one at a time as they arrive (--all, --paginate, events watch): ndjson lines, a JSON
// array that is valid even when the stream stops early, YAML sequence items, TSV rows under one header,
// or a table per page. Every
// record goes through the same preparation as a whole result (output.ts): masked, --fields, --query.
// Memory stays constant whatever the number of records. --query is the exception: it applies to the
// whole result (cli.md), so with it the records are held and the query runs once at the end; an endless
// stream (events watch) applies it to each record instead.
// An export to ndjson or json with neither --fields nor --query can take a page as the bytes the
// service sent (rawPage): each record that the usual preparation would print unchanged is copied as it
// came (re-indented for json), the others are parsed and printed as page() would, and the page goes
// out as one buffer, so that a long export allocates per page rather than per record.
import { InterruptedError } from '../core/errors.js';
import { loadYaml } from '../core/lazy.js';
import { parseElement, type RawList, scanList } from './raw-json.js';
import type { JudgeScope } from '../core/status.js';
import { DERIVED_FIELD, derivedOf, EVENT_VIEWS, withDerived } from './derived.js';
import { checkFields } from './fields.js';
import { applyQuery, mask, print, yamlText } from './output.js';
import { safeDeep, safeJson } from './safe-text.js';
import { pickFields } from './paths.js';
import type { Output } from './types.js';
import type { ViewName } from './views.js';

export interface RecordWriter {
  /** Writes one page of records. */
  page(records: unknown[]): Promise<void>;
  /** Whether rawPage() writes this output from bytes: ndjson or json, no --fields, no --query. */
  readonly raw: boolean;
  /** The byte reader that makes a page's RawList from an answer (the API session's rawPages() takes it). */
  readonly scan: (bytes: Buffer) => RawList | undefined;
  /**
   * Writes one page from the bytes of its records (raw-json.ts), exactly as page() would print
   * them parsed. `signal`: Ctrl-C ends the wait for a reader that has stopped reading (InterruptedError).
   */
  rawPage(list: RawList, signal?: AbortSignal): Promise<void>;
  /** Closes the output (the JSON array's bracket), or prints the held result of --query; safe to call more than once. */
  end(): Promise<void>;
  readonly count: number;
}

export interface WriterOptions {
  view?: ViewName;
  /** Apply --query to each record as it arrives (a stream without end) rather than to the whole result. */
  queryEach?: boolean;
  /** Events: judge their derived status over these channels' steps only (`--channel`). */
  scope?: JudgeScope;
}

/** The buffer a raw page is written into, grown as needed and reused from page to page. */
class Scratch {
  buf = Buffer.allocUnsafe(0);
  used = 0;
  room(bytes: number): void {
    if (this.used + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.used + bytes, 64 * 1024));
    this.buf.copy(grown, 0, 0, this.used);
    this.buf = grown;
  }
  put(text: string): void {
    this.room(Buffer.byteLength(text));
    this.used += this.buf.write(text, this.used);
  }
  copy(bytes: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.used += bytes.copy(this.buf, this.used, start, end);
  }
  byte(b: number): void {
    this.room(1);
    this.buf[this.used++] = b;
  }
}

/** JSON.stringify(value, null, 2) indented by two more spaces, from the value's JSON.stringify text. */
function pretty(out: Scratch, bytes: Buffer, start: number, end: number): void {
  let indent = 2;
  const newline = () => {
    out.room(indent + 1);
    out.buf[out.used++] = 0x0a;
    out.buf.fill(0x20, out.used, out.used + indent);
    out.used += indent;
  };
  let i = start;
  while (i < end) {
    const c = bytes[i]!;
    if (c === 0x22) {
      let j = i + 1;
      while (bytes[j] !== 0x22) j += bytes[j] === 0x5c ? 2 : 1;
      out.copy(bytes, i, j + 1);
      i = j + 1;
      continue;
    }
    if ((c === 0x7b && bytes[i + 1] === 0x7d) || (c === 0x5b && bytes[i + 1] === 0x5d)) {
      out.byte(c);
      out.byte(bytes[i + 1]!);
      i += 2;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      out.byte(c);
      indent += 2;
      newline();
    } else if (c === 0x7d || c === 0x5d) {
      indent -= 2;
      newline();
      out.byte(c);
    } else if (c === 0x2c) {
      out.byte(c);
      newline();
    } else if (c === 0x3a) {
      out.byte(c);
      out.byte(0x20);
    } else out.byte(c);
    i++;
  }
}

// The record texts of json and ndjson: page() and rawPage() print a parsed record through these.
const ndjsonText = (r: unknown) => `${safeJson(JSON.stringify(r))}\n`;
const jsonText = (r: unknown, first: boolean) => `${first ? '[\n' : ',\n'}  ${safeJson(JSON.stringify(r, null, 2)).replace(/\n/g, '\n  ')}`;

/** What the writing of a stream shares: the output, the view, and how many records are out. */
interface Stream {
  out: Output;
  view: ViewName | undefined;
  /** Events carry svc's derived status (io/derived.ts), added before anything else is done to them. */
  events: boolean;
  scope: JudgeScope;
  count: number;
}

export async function createRecordWriter(out: Output, opts: WriterOptions = {}): Promise<RecordWriter> {
  const { view } = opts;
  const held: unknown[] | undefined = out.query && !opts.queryEach ? [] : undefined;
  const stream: Stream = { out, view, events: view !== undefined && EVENT_VIEWS.has(view), scope: opts.scope ?? {}, count: 0 };
  let ended = false;
  // --fields is checked against the first records that come (or the schema alone, if none do).
  let fieldsChecked = !out.fields?.length;
  const checkOnce = (records: readonly unknown[]) => {
    if (fieldsChecked || (records.length === 0 && !ended)) return;
    fieldsChecked = true;
    checkFields(out.fields, records, view);
  };
  const formats: Formats = {
    yaml: out.format === 'yaml' ? await loadYaml() : undefined,
    table: out.format === 'table' ? await import('./table.js') : undefined,
    tableStream: {},
    tsv: out.format === 'tsv' ? await import('./tsv.js') : undefined,
    // One TSV for the whole stream: the header once, the first page's columns for every page.
    tsvState: { rows: 0 },
  };
  const raw = (out.format === 'ndjson' || out.format === 'json') && !out.fields?.length && !out.query && !out.secrets.some((x) => /[\ud800-\udfff]/.test(x));
  const rawWriter = new RawPageWriter(stream);

  const writer: RecordWriter = {
    get count() {
      return stream.count;
    },
    async page(given) {
      const records = stream.events ? given.map((r) => withDerived(r, stream.scope)) : given;
      checkOnce(records);
      if (held) {
        for (const r of records) held.push(r);
        stream.count += records.length;
        return;
      }
      await writePage(stream, formats, records);
    },
    raw,
    scan: scanList,
    async rawPage(list, signal) {
      if (!raw) {
        const records: unknown[] = [];
        for (let i = 0; i < list.count; i++) records.push(parseElement(list, i));
        return writer.page(records);
      }
      await rawWriter.write(list, signal);
    },
    async end() {
      if (ended) return;
      ended = true;
      if (held) {
        await print(out, { data: held }, { list: true, ...(view ? { view } : {}) });
        return;
      }
      if (out.format === 'json') out.stdout.write(stream.count === 0 ? '[]\n' : '\n]\n');
      else if (formats.yaml && stream.count === 0) out.stdout.write('[]\n');
    },
  };
  return writer;
}

/** The renderers a stream's format needs, loaded once for the stream, and their state across pages. */
interface Formats {
  yaml: typeof import('yaml') | undefined;
  table: typeof import('./table.js') | undefined;
  tableStream: object;
  tsv: typeof import('./tsv.js') | undefined;
  tsvState: { rows: number };
}

/** One page of parsed records, each prepared as a whole result would be (masked, --fields, --query). */
async function writePage(stream: Stream, f: Formats, records: unknown[]): Promise<void> {
  const { out, view } = stream;
  const stdout = out.stdout;
  if (f.table && !out.query) {
    // A table shows --fields as its columns: the records are masked, not reshaped.
    if (records.length)
      stdout.write(f.table.renderTable(out, { data: records.map((r) => safeDeep(mask(out, r))) }, { list: true, ...(view ? { view } : {}) }, f.tableStream));
    stream.count += records.length;
    return;
  }
  if (f.tsv && !out.query) {
    // Like a table, TSV shows --fields as its columns: the records are masked, not reshaped.
    const tsvOpts = { ...(out.fields ? { fields: out.fields } : {}), ...(view ? { view } : {}), quiet: out.quiet === true };
    stdout.write(
      f.tsv.renderTsv(
        records.map((r) => mask(out, r)),
        tsvOpts,
        f.tsvState,
      ),
    );
    stream.count += records.length;
    return;
  }
  for (const rec of records) {
    let r = mask(out, rec);
    if (out.fields?.length) r = pickFields(r, out.fields);
    if (out.query) r = await applyQuery(r, out.query);
    if (out.query && (r === null || r === undefined)) continue;
    // A query's result has no known layout: each is shown as a record (events watch -o table --query).
    if (f.table) stdout.write(f.table.renderTable(out, safeDeep(r), {}));
    else if (f.tsv) stdout.write(f.tsv.renderTsv(r, { quiet: out.quiet === true }, f.tsvState));
    else if (out.format === 'ndjson') stdout.write(ndjsonText(r));
    else if (f.yaml) stdout.write(yamlText(f.yaml, [r]));
    else stdout.write(jsonText(r, stream.count === 0));
    stream.count++;
  }
}

/**
 * Writes a page from the bytes of its records (raw-json.ts), exactly as writePage() would print them
 * parsed: each record the usual preparation would leave unchanged is copied (re-indented for json), the
 * others are parsed and printed the usual way, and the page goes out as one buffer.
 */
class RawPageWriter {
  private readonly scratch = new Scratch();
  /**
   * Secret strings that masking scrubs from any value (the key in use), as JSON writes them: a record
   * holding one is masked the usual way. (One with a surrogate could hide in the bytes: the stream then
   * takes no raw path at all.)
   */
  private readonly needles: Buffer[];

  constructor(private readonly stream: Stream) {
    const { out } = stream;
    this.needles = out.showSecrets ? [] : out.secrets.filter((x) => x.length >= 4).map((x) => Buffer.from(JSON.stringify(x).slice(1, -1)));
  }

  async write(list: RawList, signal: AbortSignal | undefined): Promise<void> {
    if (list.count === 0) return;
    const clean = this.cleanOf(list);
    const { stream, scratch } = this;
    scratch.used = 0;
    for (let i = 0; i < list.count; i++) {
      this.record(list, i, clean[i] === 1);
      stream.count++;
    }
    await this.flush(signal);
  }

  /** The clean marks of a page, less the records that hold a secret. */
  private cleanOf(list: RawList): Uint8Array {
    const { bytes, spans } = list;
    let clean = list.clean;
    const from = spans[0]!;
    const to = spans[2 * list.count - 1]!;
    for (const needle of this.needles) {
      for (let at = bytes.indexOf(needle, from); at !== -1 && at < to; at = bytes.indexOf(needle, at + 1)) {
        if (clean === list.clean) clean = Uint8Array.from(list.clean);
        for (let i = 0; i < list.count; i++) if (spans[2 * i]! <= at && at < spans[2 * i + 1]!) clean[i] = 0;
      }
    }
    return clean;
  }

  /** Record i of the page, into the scratch buffer. */
  private record(list: RawList, i: number, clean: boolean): void {
    const { stream, scratch } = this;
    const { out, events, scope } = stream;
    const ndjson = out.format === 'ndjson';
    const { bytes, spans } = list;
    const start = spans[2 * i]!;
    const end = spans[2 * i + 1]!;
    const parsed = events || !clean ? parseElement(list, i) : undefined;
    const derived = events ? derivedOf(parsed, scope) : undefined;
    // A record that already has a field of svc's name is left to the usual path, which replaces it.
    if (!clean || (derived && Object.hasOwn(parsed as object, DERIVED_FIELD))) {
      const r = mask(out, events ? withDerived(parsed, scope) : parsed);
      scratch.put(ndjson ? ndjsonText(r) : jsonText(r, stream.count === 0));
    } else if (derived) {
      // The record's bytes, its closing brace replaced by svc's field (masked as the whole record would be).
      const tail = Buffer.from(`${end - start > 2 ? ',' : ''}"${DERIVED_FIELD}":${safeJson(JSON.stringify(mask(out, derived)))}}`);
      if (ndjson) {
        scratch.copy(bytes, start, end - 1);
        scratch.copy(tail, 0, tail.length);
        scratch.byte(0x0a);
      } else {
        scratch.put(stream.count === 0 ? '[\n  ' : ',\n  ');
        const whole = Buffer.concat([bytes.subarray(start, end - 1), tail]);
        pretty(scratch, whole, 0, whole.length);
      }
    } else if (ndjson) {
      scratch.copy(bytes, start, end);
      scratch.byte(0x0a);
    } else {
      scratch.put(stream.count === 0 ? '[\n  ' : ',\n  ');
      pretty(scratch, bytes, start, end);
    }
  }

  /**
   * The same buffer serves every page, so the next page waits until the stream has taken this one: a
   * new buffer per page would be memory outside the heap, freed only when a collection runs. Ctrl-C
   * ends the wait (a reader that stopped reading would hold it forever): the buffer the pending write
   * holds is left to it, and the next page takes a new one.
   */
  private async flush(signal: AbortSignal | undefined): Promise<void> {
    const { scratch } = this;
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        scratch.buf = Buffer.allocUnsafe(0);
        scratch.used = 0;
        resolve();
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.stream.out.stdout.write(scratch.buf.subarray(0, scratch.used), () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
    if (signal?.aborted) throw new InterruptedError();
  }
}

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

export async function createRecordWriter(out: Output, opts: WriterOptions = {}): Promise<RecordWriter> {
  const { view } = opts;
  const held: unknown[] | undefined = out.query && !opts.queryEach ? [] : undefined;
  const stdout = out.stdout;
  let count = 0;
  let ended = false;
  // Events carry svc's derived status (io/derived.ts), added before anything else is done to them.
  const events = view !== undefined && EVENT_VIEWS.has(view);
  const scope = opts.scope ?? {};
  // --fields is checked against the first records that come (or the schema alone, if none do).
  let fieldsChecked = !out.fields?.length;
  const checkOnce = (records: readonly unknown[]) => {
    if (fieldsChecked || (records.length === 0 && !ended)) return;
    fieldsChecked = true;
    checkFields(out.fields, records, view);
  };
  const yaml = out.format === 'yaml' ? await loadYaml() : undefined;
  const table = out.format === 'table' ? await import('./table.js') : undefined;
  const tableStream = {};
  const tsv = out.format === 'tsv' ? await import('./tsv.js') : undefined;
  // One TSV for the whole stream: the header once, the first page's columns for every page.
  const tsvState = { rows: 0 };
  const tsvOpts = { ...(out.fields ? { fields: out.fields } : {}), ...(view ? { view } : {}), quiet: out.quiet === true };

  // The record texts of json and ndjson: page() and rawPage() print a parsed record through these.
  const ndjsonText = (r: unknown) => `${safeJson(JSON.stringify(r))}\n`;
  const jsonText = (r: unknown, first: boolean) => `${first ? '[\n' : ',\n'}  ${safeJson(JSON.stringify(r, null, 2)).replace(/\n/g, '\n  ')}`;
  // Secret strings that masking scrubs from any value (the key in use), as JSON writes them: a record
  // holding one is masked the usual way. One with a surrogate could hide in the bytes: no raw path then.
  const needles = out.showSecrets ? [] : out.secrets.filter((x) => x.length >= 4).map((x) => Buffer.from(JSON.stringify(x).slice(1, -1)));
  const raw = (out.format === 'ndjson' || out.format === 'json') && !out.fields?.length && !out.query && !out.secrets.some((x) => /[\ud800-\udfff]/.test(x));
  let scratch = Buffer.allocUnsafe(0);
  let used = 0;
  const room = (bytes: number) => {
    if (used + bytes <= scratch.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, used + bytes, 64 * 1024));
    scratch.copy(grown, 0, 0, used);
    scratch = grown;
  };
  const put = (text: string) => {
    room(Buffer.byteLength(text));
    used += scratch.write(text, used);
  };

  const prepare = async (record: unknown): Promise<unknown> => {
    let r = mask(out, record);
    if (out.fields?.length) r = pickFields(r, out.fields);
    if (out.query) r = await applyQuery(r, out.query);
    return r;
  };

  /** JSON.stringify(value, null, 2) indented by two more spaces, from the value's JSON.stringify text. */
  const pretty = (bytes: Buffer, start: number, end: number) => {
    let indent = 2;
    const newline = () => {
      room(indent + 1);
      scratch[used++] = 0x0a;
      scratch.fill(0x20, used, used + indent);
      used += indent;
    };
    let i = start;
    while (i < end) {
      const c = bytes[i]!;
      if (c === 0x22) {
        let j = i + 1;
        while (bytes[j] !== 0x22) j += bytes[j] === 0x5c ? 2 : 1;
        room(j + 1 - i);
        used += bytes.copy(scratch, used, i, j + 1);
        i = j + 1;
        continue;
      }
      if ((c === 0x7b && bytes[i + 1] === 0x7d) || (c === 0x5b && bytes[i + 1] === 0x5d)) {
        room(2);
        scratch[used++] = c;
        scratch[used++] = bytes[i + 1]!;
        i += 2;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        room(1);
        scratch[used++] = c;
        indent += 2;
        newline();
      } else if (c === 0x7d || c === 0x5d) {
        indent -= 2;
        newline();
        room(1);
        scratch[used++] = c;
      } else if (c === 0x2c) {
        room(1);
        scratch[used++] = c;
        newline();
      } else if (c === 0x3a) {
        room(2);
        scratch[used++] = c;
        scratch[used++] = 0x20;
      } else {
        room(1);
        scratch[used++] = c;
      }
      i++;
    }
  };

  const writer: RecordWriter = {
    get count() {
      return count;
    },
    async page(given) {
      const records = events ? given.map((r) => withDerived(r, scope)) : given;
      checkOnce(records);
      if (held) {
        for (const r of records) held.push(r);
        count += records.length;
        return;
      }
      if (table && !out.query) {
        // A table shows --fields as its columns: the records are masked, not reshaped.
        if (records.length)
          stdout.write(table.renderTable(out, { data: records.map((r) => safeDeep(mask(out, r))) }, { list: true, ...(view ? { view } : {}) }, tableStream));
        count += records.length;
        return;
      }
      if (tsv && !out.query) {
        // Like a table, TSV shows --fields as its columns: the records are masked, not reshaped.
        stdout.write(
          tsv.renderTsv(
            records.map((r) => mask(out, r)),
            tsvOpts,
            tsvState,
          ),
        );
        count += records.length;
        return;
      }
      for (const rec of records) {
        const r = await prepare(rec);
        if (out.query && (r === null || r === undefined)) continue;
        // A query's result has no known layout: each is shown as a record (events watch -o table --query).
        if (table) stdout.write(table.renderTable(out, safeDeep(r), {}));
        else if (tsv) stdout.write(tsv.renderTsv(r, { quiet: out.quiet === true }, tsvState));
        else if (out.format === 'ndjson') stdout.write(ndjsonText(r));
        else if (yaml) stdout.write(yamlText(yaml, [r]));
        else stdout.write(jsonText(r, count === 0));
        count++;
      }
    },
    raw,
    scan: scanList,
    async rawPage(list, signal) {
      if (!raw) {
        const records: unknown[] = [];
        for (let i = 0; i < list.count; i++) records.push(parseElement(list, i));
        return writer.page(records);
      }
      if (list.count === 0) return;
      const { bytes, spans } = list;
      let clean = list.clean;
      const from = spans[0]!;
      const to = spans[2 * list.count - 1]!;
      for (const needle of needles) {
        for (let at = bytes.indexOf(needle, from); at !== -1 && at < to; at = bytes.indexOf(needle, at + 1)) {
          if (clean === list.clean) clean = Uint8Array.from(list.clean);
          for (let i = 0; i < list.count; i++) if (spans[2 * i]! <= at && at < spans[2 * i + 1]!) clean[i] = 0;
        }
      }
      used = 0;
      const ndjson = out.format === 'ndjson';
      for (let i = 0; i < list.count; i++) {
        const start = spans[2 * i]!;
        const end = spans[2 * i + 1]!;
        const parsed = events || !clean[i] ? parseElement(list, i) : undefined;
        const derived = events ? derivedOf(parsed, scope) : undefined;
        // A record that already has a field of svc's name is left to the usual path, which replaces it.
        if (!clean[i] || (derived && Object.hasOwn(parsed as object, DERIVED_FIELD))) {
          const r = mask(out, events ? withDerived(parsed, scope) : parsed);
          put(ndjson ? ndjsonText(r) : jsonText(r, count === 0));
        } else if (derived) {
          // The record's bytes, its closing brace replaced by svc's field (masked as the whole record would be).
          const tail = Buffer.from(`${end - start > 2 ? ',' : ''}"${DERIVED_FIELD}":${safeJson(JSON.stringify(mask(out, derived)))}}`);
          if (ndjson) {
            room(end - start + tail.length);
            used += bytes.copy(scratch, used, start, end - 1);
            used += tail.copy(scratch, used);
            scratch[used++] = 0x0a;
          } else {
            put(count === 0 ? '[\n  ' : ',\n  ');
            const whole = Buffer.concat([bytes.subarray(start, end - 1), tail]);
            pretty(whole, 0, whole.length);
          }
        } else if (ndjson) {
          room(end - start + 1);
          used += bytes.copy(scratch, used, start, end);
          scratch[used++] = 0x0a;
        } else {
          put(count === 0 ? '[\n  ' : ',\n  ');
          pretty(bytes, start, end);
        }
        count++;
      }
      // The same buffer serves every page, so the next page waits until the stream has taken this one:
      // a new buffer per page would be memory outside the heap, freed only when a collection runs.
      // Ctrl-C ends the wait (a reader that stopped reading would hold it forever): the buffer the
      // pending write holds is left to it, and the next page would take a new one.
      await new Promise<void>((resolve) => {
        const onAbort = () => {
          scratch = Buffer.allocUnsafe(0);
          resolve();
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        stdout.write(scratch.subarray(0, used), () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
      if (signal?.aborted) throw new InterruptedError();
    },
    async end() {
      if (ended) return;
      ended = true;
      if (held) {
        await print(out, { data: held }, { list: true, ...(view ? { view } : {}) });
        return;
      }
      if (out.format === 'json') stdout.write(count === 0 ? '[]\n' : '\n]\n');
      else if (yaml && count === 0) stdout.write('[]\n');
    },
  };
  return writer;
}

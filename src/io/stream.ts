// Writes records one at a time as they arrive (--all, --paginate, events watch): ndjson lines, a JSON
// array that is valid even when the stream stops early, YAML sequence items, TSV rows under one header,
// or a table per page. Every
// record goes through the same preparation as a whole result (output.ts): masked, --fields, --query.
// Memory stays constant whatever the number of records. --query is the exception: it applies to the
// whole result (cli.md), so with it the records are held and the query runs once at the end; an endless
// stream (events watch) applies it to each record instead.
import { loadYaml } from '../core/lazy.js';
import { applyQuery, mask, print, yamlText } from './output.js';
import { safeDeep, safeJson } from './safe-text.js';
import { pickFields } from './paths.js';
import type { Output } from './types.js';
import type { ViewName } from './views.js';

export interface RecordWriter {
  /** Writes one page of records. */
  page(records: unknown[]): Promise<void>;
  /** Closes the output (the JSON array's bracket), or prints the held result of --query; safe to call more than once. */
  end(): Promise<void>;
  readonly count: number;
}

export interface WriterOptions {
  view?: ViewName;
  /** Apply --query to each record as it arrives (a stream without end) rather than to the whole result. */
  queryEach?: boolean;
}

export async function createRecordWriter(out: Output, opts: WriterOptions = {}): Promise<RecordWriter> {
  const { view } = opts;
  const held: unknown[] | undefined = out.query && !opts.queryEach ? [] : undefined;
  const stdout = out.stdout;
  let count = 0;
  let ended = false;
  const yaml = out.format === 'yaml' ? await loadYaml() : undefined;
  const table = out.format === 'table' ? await import('./table.js') : undefined;
  const tableStream = {};
  const tsv = out.format === 'tsv' ? await import('./tsv.js') : undefined;
  // One TSV for the whole stream: the header once, the first page's columns for every page.
  const tsvState = { rows: 0 };
  const tsvOpts = { ...(out.fields ? { fields: out.fields } : {}), ...(view ? { view } : {}), quiet: out.quiet === true };

  const prepare = async (record: unknown): Promise<unknown> => {
    let r = mask(out, record);
    if (out.fields?.length) r = pickFields(r, out.fields);
    if (out.query) r = await applyQuery(r, out.query);
    return r;
  };

  return {
    get count() {
      return count;
    },
    async page(records) {
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
        else if (out.format === 'ndjson') stdout.write(`${safeJson(JSON.stringify(r))}\n`);
        else if (yaml) stdout.write(yamlText(yaml, [r]));
        else stdout.write(`${count === 0 ? '[\n' : ',\n'}  ${safeJson(JSON.stringify(r, null, 2)).replace(/\n/g, '\n  ')}`);
        count++;
      }
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
}

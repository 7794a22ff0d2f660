// Writes records one at a time as they arrive (--all, --paginate): ndjson lines, a JSON array that is
// valid even when the stream stops early, YAML sequence items, or a table per page. Memory stays
// constant whatever the number of records. --query is the exception: it applies to the whole result
// (cli.md), so with it the records are held and the query runs once at the end; an endless stream
// (events watch) applies it to each record instead.
import type { Deps } from '../deps.js';
import { maskData } from '../core/mask.js';
import { applyQuery, keyInUse, pickFields, print } from './output.js';
import type { ViewName } from './views.js';
import { loadYaml } from '../core/lazy.js';

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

export async function createRecordWriter(deps: Deps, opts: WriterOptions = {}): Promise<RecordWriter> {
  const { view } = opts;
  const g = deps.globals;
  const held: unknown[] | undefined = g.query && !opts.queryEach ? [] : undefined;
  const format = g.query && !g.output ? 'json' : deps.format();
  const out = deps.io.stdout;
  let count = 0;
  let ended = false;
  const yaml = format === 'yaml' ? await loadYaml() : undefined;
  const table = format === 'table' ? await import('./table.js') : undefined;

  const tableStream = {};
  const secrets = keyInUse(deps);
  const prepare = async (record: unknown): Promise<unknown> => {
    let r = g.showSecrets ? record : maskData(record, { knownSecrets: secrets });
    if (g.fields?.length) r = pickFields(r, g.fields);
    if (g.query) r = await applyQuery(r, g.query);
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
      if (table) {
        if (records.length) out.write(table.renderTable(deps, { data: records }, { list: true, ...(view ? { view } : {}) }, tableStream));
        count += records.length;
        return;
      }
      for (const rec of records) {
        const r = await prepare(rec);
        if (g.query && (r === null || r === undefined)) continue;
        if (format === 'ndjson') out.write(`${JSON.stringify(r)}\n`);
        else if (yaml) out.write(yaml.stringify([r]));
        else out.write(`${count === 0 ? '[\n' : ',\n'}  ${JSON.stringify(r, null, 2).replace(/\n/g, '\n  ')}`);
        count++;
      }
    },
    async end() {
      if (ended) return;
      ended = true;
      if (held) {
        await print(deps, { data: held }, { list: true, ...(view ? { view } : {}) });
        return;
      }
      if (format === 'json') out.write(count === 0 ? '[]\n' : '\n]\n');
      else if (yaml && count === 0) out.write('[]\n');
    },
  };
}

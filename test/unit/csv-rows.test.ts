// Rows of a CSV recipients file as the bulk run reads them: a quote that is never closed swallows the
// rest of the file into one record; the message says after which line it opened and that the rest was taken.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openRecipients, type Row } from '../../src/bulk/rows.js';

async function rowsOf(text: string): Promise<Row[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-csv-')), 'recipients.csv');
  writeFileSync(file, text);
  const opened = await openRecipients(file, process.stdin, async (p) => (await stat(p)).size);
  const out: Row[] = [];
  for await (const r of opened.rows) out.push(r);
  return out;
}

it('an unclosed quote on line 4: the row is 4, and it says the rest of the file was read as one row', async () => {
  const rows = await rowsOf('subscriberId,email\nbulk1,a@x.io\n,b@x.io\n"bulk-broken,c@x.io\nbulk2,d@x.io\nbulk3,e@x.io\n');
  expect(rows.map((r) => (r.kind === 'row' ? `${r.row} ${r.subscriberId}` : `${r.row} bad: ${r.error}`))).toEqual([
    '2 bulk1',
    '3 bad: missing subscriberId',
    '4 bad: malformed CSV: a quote opened after line 3 is never closed: the rest of the file was read as one row',
  ]);
});

it('an unclosed quote on the last line', async () => {
  const rows = await rowsOf('subscriberId,email\nbulk1,a@x.io\n"bulk-broken,c@x.io\n');
  expect(rows.at(-1)).toEqual({
    kind: 'bad',
    row: 3,
    error: 'malformed CSV: a quote opened after line 2 is never closed: the rest of the file was read as one row',
  });
});

it("other malformed records keep the parser's words and their line", async () => {
  const rows = await rowsOf('subscriberId,email\nbulk1,a@x.io,extra\nbulk2,b@x.io\n');
  expect(rows[0]).toMatchObject({ kind: 'bad', row: 2 });
  expect((rows[0] as { error: string }).error).toMatch(/^malformed CSV: /);
  expect(rows[1]).toMatchObject({ kind: 'row', row: 3, subscriberId: 'bulk2' });
});

it('a stream that already holds all its data and its end (a short pipe): every row is read, CSV or NDJSON', async () => {
  for (const [text, n] of [
    ['subscriberId,email\nbulk1,a@x.io\nbulk2,b@x.io\n', 2],
    ['{"subscriberId":"a"}\n{"subscriberId":"b"}\n{"subscriberId":"c"}\n', 3],
  ] as const) {
    const stream = new PassThrough();
    stream.end(text);
    const opened = await openRecipients('-', stream, async () => 0);
    const rows: Row[] = [];
    for await (const r of opened.rows) rows.push(r);
    expect(rows.filter((r) => r.kind === 'row')).toHaveLength(n);
  }
});

it('line endings mixed in one file (an LF header, CRLF rows): every row read, no \\r left in a value', async () => {
  const rows = await rowsOf('subscriberId,email\nbulk1,a@x.io\r\nbulk2,b@x.io\r\nbulk3,c@x.io\n');
  expect(rows.map((r) => (r.kind === 'row' ? `${r.row} ${r.subscriberId} ${JSON.stringify(r.recipient)}` : `${r.row} bad`))).toEqual([
    '2 bulk1 {"subscriberId":"bulk1","email":"a@x.io"}',
    '3 bulk2 {"subscriberId":"bulk2","email":"b@x.io"}',
    '4 bulk3 {"subscriberId":"bulk3","email":"c@x.io"}',
  ]);
});

// The same recipients file and workflow again at a terminal, after a finished run: svc asks before
// sending everyone a second time; "no" sends nothing and leaves the journal as it was.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from '../helpers/bin.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let term: Terminal | undefined;
beforeEach(async () => {
  stub = await startStub({ allowUnused: true });
  stub.on('POST', '/v1/events/trigger', (req) => ({
    status: 201,
    body: { data: { acknowledged: true, status: 'processed', transactionId: (req.body as { transactionId: string }).transactionId } },
  }));
});
afterEach(async () => {
  term?.close();
  term = undefined;
  await stub.close();
});

tmux.describe('a finished run sent again at a terminal', () => {
  test('asks; answering no sends nothing (exit 2) and keeps the journal', { timeout: 30_000 }, async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'users.csv');
    writeFileSync(file, 'subscriberId\nada\ngrace\n');
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, SVC_CONFIG_DIR: dir };
    expect((await runSvc(['trigger', 'welcome', '--recipients-file', file], { env, cwd: dir })).code).toBe(0);
    const journal = readFileSync(`${file}.svc-journal`, 'utf8');
    const sent = stub.requests.length;
    term = openTerminal([process.execPath, BIN, 'trigger', 'welcome', '--recipients-file', file], { ...env, NO_COLOR: '1' }, { columns: 120, rows: 30 });
    await term.waitFor('Send everyone again as a new run?');
    expect(term.text()).toContain('users.csv was already sent to welcome');
    term.type('n');
    term.keys('Enter');
    await term.waitFor('EXIT=');
    expect(term.text()).toContain('EXIT=2');
    expect(stub.requests.length).toBe(sent);
    expect(readFileSync(`${file}.svc-journal`, 'utf8')).toBe(journal);
  });

  test('--again: the lines on the files kept aside are lines of their own, not drawn into the progress bar', { timeout: 30_000 }, async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'users.csv');
    writeFileSync(file, 'subscriberId\nada\ngrace\n');
    const env = { SVC_API_KEY: KEY, SVC_BASE_URL: stub.url, SVC_CONFIG_DIR: dir };
    expect((await runSvc(['trigger', 'welcome', '--recipients-file', file, '--report', join(dir, 'rep.ndjson')], { env, cwd: dir })).code).toBe(0);
    term = openTerminal(
      [process.execPath, BIN, 'trigger', 'welcome', '--recipients-file', file, '--report', join(dir, 'rep.ndjson'), '--again'],
      {
        ...env,
        NO_COLOR: '1',
      },
      { columns: 120, rows: 30 },
    );
    await term.waitFor('EXIT=');
    expect(term.text()).toContain('EXIT=0');
    const lines = term.text().split('\n');
    expect(
      lines.some((l) => l.startsWith("the earlier run's journal is kept as")),
      term.text(),
    ).toBe(true);
    expect(
      lines.some((l) => l.startsWith("the earlier run's report is kept as")),
      term.text(),
    ).toBe(true);
  });
});

// A person asked to confirm a delete at a terminal: "no" and Ctrl-C both leave everything as it was,
// and neither is reported as an error (no "error:" line). No is exit 0 (the person had their way);
// Ctrl-C is cli.md's interruption, exit 130.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';

const KEY = 'sk_test_0123456789abcdef';
let stub: Stub;
let term: Terminal | undefined;
beforeEach(async () => {
  stub = await startStub();
});
afterEach(async () => {
  term?.close();
  term = undefined;
  await stub.close();
});

tmux.describe('declining a confirmation', () => {
  const open = () =>
    openTerminal(
      [process.execPath, BIN, 'subscribers', 'delete', 'ada'],
      {
        SVC_API_KEY: KEY,
        SVC_BASE_URL: stub.url,
        SVC_CONFIG_DIR: tempConfigDir(),
        NO_COLOR: '1',
      },
      { columns: 120, rows: 30 },
    );

  test('n: "nothing deleted", exit 0, no error line', { timeout: 30_000 }, async () => {
    term = open();
    await term.waitFor('Delete subscriber ada?');
    term.type('n');
    term.keys('Enter');
    await term.waitFor('EXIT=');
    const screen = term.text();
    expect(screen).toContain('nothing deleted');
    expect(screen).toContain('EXIT=0');
    expect(screen).not.toContain('error:');
    expect(stub.requests).toHaveLength(0);
  });

  test('Ctrl-C: "cancelled: nothing deleted", exit 130, no error line', { timeout: 30_000 }, async () => {
    term = open();
    await term.waitFor('Delete subscriber ada?');
    term.keys('C-c');
    await term.waitFor('EXIT=');
    const screen = term.text();
    expect(screen).toContain('cancelled: nothing deleted');
    expect(screen).toContain('EXIT=130');
    expect(screen).not.toContain('error:');
    expect(stub.requests).toHaveLength(0);
  });
});

// Tab in a real interactive bash (tmux): the generated completions/svc.bash, bash's default
// COMP_WORDBREAKS (which holds @) and readline's own handling of the word. A JSON flag's @file keeps its
// @ on the command line; a file name given without it is refused with a hint to write the @.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN } from '../helpers/bin.js';
import { openTerminal, type Terminal, tmux } from '../helpers/tmux.js';
import { runSvc } from '../helpers/run.js';

let work: string;
let term: Terminal | undefined;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-bash-tab-'));
  mkdirSync(join(work, 'bin'));
  symlinkSync(BIN, join(work, 'bin', 'svc'));
  mkdirSync(join(work, 'cwd'));
  writeFileSync(join(work, 'cwd', 'wf.yaml'), 'workflowId: x\n');
  writeFileSync(
    join(work, 'rc'),
    [
      "PS1='$ '",
      `export PATH=${join(work, 'bin')}:${dirname(process.execPath)}:$PATH`,
      `source ${join(process.cwd(), 'completions/svc.bash')}`,
      `cd ${join(work, 'cwd')}`,
      '',
    ].join('\n'),
  );
});
afterAll(() => term?.close());

tmux.describe('bash completion at a terminal', () => {
  test('--data @wf<Tab> completes to --data @wf.yaml (the @ stays)', async () => {
    term = openTerminal(['bash', '--noprofile', '--rcfile', join(work, 'rc'), '-i'], { SVC_CONFIG_DIR: join(work, 'config') }, { columns: 120, rows: 30 });
    // The prompt of the rc file ("$", its space trimmed by tmux) once the script is sourced.
    for (let i = 0; i < 150 && !/^\$\s*$/m.test(term.text()); i++) await new Promise((r) => setTimeout(r, 100));
    term.type('svc workflow create --data @wf');
    term.keys('Tab');
    await term.waitFor('--data @wf.yaml');
    expect(term.text()).not.toMatch(/--data wf\.yaml/);
    // The --flag=@file form keeps its @ too.
    term.keys('C-u');
    term.type('clear');
    term.keys('Enter');
    term.type('svc trigger welcome --payload=@wf');
    term.keys('Tab');
    await term.waitFor('--payload=@wf.yaml');
    expect(term.text()).not.toMatch(/--payload=wf\.yaml/);
  });
});

test('a JSON flag given a file name without the @: the error says to write the @', async () => {
  // (workflow create/update read a plain --data FILE, as cli.md writes it; other JSON flags want the @.)
  const r = await runSvc(['contexts', 'create', 'tenant', 'acme', '--data', 'wf.yaml'], {
    cwd: join(work, 'cwd'),
    env: { SVC_API_KEY: 'sk_test_x', SVC_BASE_URL: 'http://127.0.0.1:9' },
  });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('--data: invalid JSON');
  expect(r.stderr).toContain('to read the file wf.yaml, write --data @wf.yaml');
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
});

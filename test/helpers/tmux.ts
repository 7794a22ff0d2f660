// The one driver of a real terminal (tmux) for the tests: prompts, the TUI, what a person sees at
// 80×24 by default. Without tmux the tests that use it skip locally and fail in CI: declare them with
// `tmux.describe` / `tmux.test` (helpers/ci.ts), never with a bare skipIf.
//
// The command runs with exactly the environment given, never the test runner's: CI runners set `CI`,
// which (rightly) turns prompts off, and a person at a terminal does not have it. Each terminal has its
// own tmux server (its own socket, no user config), so a tmux already running on the machine, its
// options or its environment cannot change what the test sees. The terminal stays open after the
// command ends (until `close`), so a failure shows what the command printed; Ctrl-C (SIGINT to the
// terminal's processes) ends the command, not the shell that shows its exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export { tmux } from './ci.js';

export interface Terminal {
  /** The visible screen as one string. */
  text(): string;
  /** The visible screen, one string per line (trailing blanks removed). */
  lines(): string[];
  /** The screen with lines the terminal wrapped joined again: a line wider than the terminal shows as one. */
  joined(): string[];
  /** Every byte the program wrote to the terminal so far (when opened with `raw`), escape sequences and all. */
  raw(): string;
  /** Resolves with the screen once `test` holds of it; fails with the screen after `timeoutMs`. */
  waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Keys as tmux names them ('Enter', 'C-c', 'Down'). */
  keys(...keys: string[]): void;
  /** Literal text, typed. */
  type(text: string): void;
  close(): void;
}

export interface TerminalOptions {
  columns?: number;
  rows?: number;
  /** Record every byte written to the terminal (`raw()`): the program starts once the recording has. */
  raw?: boolean;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `argv` in a terminal (80×24 unless told) with `env` as its whole environment (PATH, HOME and
 * TERM are added when missing). The screen shows `EXIT=<code>` when the command ends.
 */
export function openTerminal(argv: string[], env: Record<string, string>, options: TerminalOptions = {}): Terminal {
  const { columns = 80, rows = 24, raw = false } = options;
  const dir = mkdtempSync(join(tmpdir(), 'svc-tty-'));
  const socket = join(dir, 'tmux.sock');
  const rawFile = join(dir, 'raw.out');
  const go = join(dir, 'go');
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', ...env };
  // With `raw`, the program waits for the file `go`, made once the pane's output is piped to rawFile.
  const waitForGo = raw ? `while [ ! -e ${quote(go)} ]; do sleep 0.02; done; ` : '';
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    `#!/bin/sh\nexec env -i ${Object.entries(fullEnv)
      .map(([k, v]) => quote(`${k}=${v}`))
      .join(' ')} sh -c ${quote(`trap : INT; ${waitForGo}${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 120`)}\n`,
  );
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-x', String(columns), '-y', String(rows), `sh ${quote(script)}`);
  if (started.status !== 0) throw new Error(`tmux could not open a terminal: ${started.stderr.trim() || `exit ${started.status}`}`);
  if (raw) {
    const piped = tmux('pipe-pane', '-o', `cat >> ${quote(rawFile)}`);
    if (piped.status !== 0) throw new Error(`tmux could not record the terminal: ${piped.stderr.trim()}`);
    writeFileSync(go, '');
  }
  const text = () => tmux('capture-pane', '-p').stdout;
  return {
    text,
    lines: () =>
      text()
        .split('\n')
        .slice(0, rows)
        .map((l) => l.trimEnd()),
    joined: () =>
      tmux('capture-pane', '-p', '-J')
        .stdout.split('\n')
        .map((l) => l.trimEnd()),
    raw: () => (existsSync(rawFile) ? readFileSync(rawFile, 'utf8') : ''),
    async waitFor(test, timeoutMs = 15_000) {
      const ok = typeof test === 'string' ? (s: string) => s.includes(test) : test instanceof RegExp ? (s: string) => test.test(s) : test;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const s = text();
        if (ok(s)) return s;
        if (Date.now() > deadline) throw new Error(`${String(test)} never appeared; the terminal shows:\n${s.trimEnd()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    keys: (...keys) => void tmux('send-keys', ...keys),
    type: (t) => void tmux('send-keys', '-l', t),
    close() {
      tmux('kill-server');
      // The terminal's processes end after the server does, and may still write into HOME (Node writes
      // svc's compile cache as it exits): a file made during the removal is removed by the next try.
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
}

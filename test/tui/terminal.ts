// A real terminal of a chosen size (tmux), for looking at what a person sees: 80×24 by default. Same
// rules as test/helpers/tmux.ts (own tmux server, no user config, exactly the given environment), plus
// the size, the visible lines, and keys sent as tmux names them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Screen {
  /** The visible screen, one string per line (trailing blanks removed). */
  lines(): string[];
  /** The screen with lines the terminal wrapped joined again: a line wider than the terminal shows as one. */
  joined(): string[];
  /** Every byte the program wrote to the terminal so far (when opened with `raw`), escape sequences and all. */
  raw(): string;
  text(): string;
  waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  keys(...keys: string[]): void;
  type(text: string): void;
  close(): void;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function openScreen(argv: string[], env: Record<string, string>, size = { columns: 80, rows: 24 }, opts: { raw?: boolean } = {}): Screen {
  const dir = mkdtempSync(join(tmpdir(), 'svc-screen-'));
  const rawFile = join(dir, 'raw.out');
  const socket = join(dir, 'tmux.sock');
  const fullEnv: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TERM: 'xterm-256color', ...env };
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    `#!/bin/sh\nexec env -i ${Object.entries(fullEnv)
      .map(([k, v]) => quote(`${k}=${v}`))
      // With `raw`, a moment for the pane's output to be piped to the file before the program starts.
      .join(' ')} sh -c ${quote(`${opts.raw ? 'sleep 0.3; ' : ''}${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 120`)}\n`,
  );
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-x', String(size.columns), '-y', String(size.rows), `sh ${quote(script)}`);
  if (started.status !== 0) throw new Error(`tmux could not open a terminal: ${started.stderr.trim()}`);
  if (opts.raw) tmux('pipe-pane', '-o', `cat >> ${quote(rawFile)}`);
  const text = () => tmux('capture-pane', '-p').stdout;
  return {
    text,
    lines: () =>
      text()
        .split('\n')
        .slice(0, size.rows)
        .map((l) => l.trimEnd()),
    joined: () =>
      tmux('capture-pane', '-p', '-J')
        .stdout.split('\n')
        .map((l) => l.trimEnd()),
    raw: () => {
      try {
        return readFileSync(rawFile, 'utf8');
      } catch {
        return '';
      }
    },
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

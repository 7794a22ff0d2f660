// Drives a command in a real terminal (tmux), for tests of prompts.
//
// The command runs with exactly the environment given, never the test runner's: CI runners set
// `CI`, which (rightly) turns prompts off, and a person at a terminal does not have it. Each terminal
// has its own tmux server (its own socket, no user config), so a tmux already running on the machine,
// its options or its environment cannot change what the test sees. The terminal stays open after the
// command ends (until `close`), so a failure shows what the command printed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolOrFailInCi } from './ci.js';

/** Without tmux the terminal tests skip, except in CI, where they fail (ci.ts). */
export const hasTmux = toolOrFailInCi('tmux', spawnSync('tmux', ['-V']).status === 0);

export interface Terminal {
  screen(): string;
  waitFor(text: string): Promise<void>;
  /** Keys as tmux names them ('Enter'), or literal text with `literal`. */
  send(keys: string, literal?: boolean): void;
  close(): void;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `argv` in a 120×30 terminal with `env` as its whole environment (PATH and HOME are added
 * when missing). The screen shows `EXIT=<code>` when the command ends.
 */
export function openTerminal(argv: string[], env: Record<string, string>): Terminal {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tty-'));
  const socket = join(dir, 'tmux.sock');
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    TERM: 'xterm-256color',
    ...env,
  };
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `exec env -i ${Object.entries(fullEnv)
        .map(([k, v]) => quote(`${k}=${v}`))
        .join(' ')} sh -c ${quote(`${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 120`)}`,
      '',
    ].join('\n'),
  );
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const started = tmux('new-session', '-d', '-x', '120', '-y', '30', `sh ${quote(script)}`);
  if (started.status !== 0) throw new Error(`tmux could not open a terminal: ${started.stderr.trim() || `exit ${started.status}`}`);
  const screen = () => tmux('capture-pane', '-p').stdout;
  return {
    screen,
    async waitFor(text) {
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        if (screen().includes(text)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`"${text}" never appeared; the terminal shows:\n${screen().trimEnd()}`);
    },
    send(keys, literal = false) {
      tmux('send-keys', ...(literal ? ['-l'] : []), keys);
    },
    close() {
      tmux('kill-server');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Drives a command in a real terminal (tmux), for tests of prompts.
import { spawnSync } from 'node:child_process';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Terminal {
  screen(): string;
  waitFor(text: string): Promise<void>;
  /** Keys as tmux names them ('Enter'), or literal text with `literal`. */
  send(keys: string, literal?: boolean): void;
  close(): void;
}

export function openTerminal(name: string, command: string): Terminal {
  const session = `${name}-${process.pid}`;
  spawnSync('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '30', command]);
  const screen = () => spawnSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' }).stdout;
  return {
    screen,
    async waitFor(text) {
      for (let i = 0; i < 100; i++) {
        if (screen().includes(text)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`"${text}" never appeared:\n${screen()}`);
    },
    send(keys, literal = false) {
      spawnSync('tmux', ['send-keys', '-t', session, ...(literal ? ['-l'] : []), keys]);
    },
    close() {
      spawnSync('tmux', ['kill-session', '-t', session]);
    },
  };
}

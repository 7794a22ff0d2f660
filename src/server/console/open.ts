// `svc dev --open`: hands the console's one-time link to the desktop's browser. `$BROWSER` wins when set
// (the convention xdg-open and Python's webbrowser follow; tests point it at a recorder), then the
// platform's opener. The link carries a code that works once, never the key.
import { spawn } from 'node:child_process';

export function openerFor(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (env.BROWSER) return { command: env.BROWSER, args: [] };
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""'] };
  return { command: 'xdg-open', args: [] };
}

/** Starts the browser and resolves once it has started (or rejects, e.g. no opener installed). */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { command, args } = openerFor(env);
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, url], { stdio: 'ignore', detached: true, env });
    child.once('error', (e) => reject(new Error(`${command}: ${(e as NodeJS.ErrnoException).code ?? e.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

// Runs the CLI in-process through main(), with captured streams and an environment of the test's own:
// the real command tree, HTTP core and renderers, no module mocks.
import { PassThrough, Readable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';
import { auditInvocation, auditOutput } from './audit.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Pretend stdout (and stdin) are terminals. */
  tty?: boolean;
  /** The terminal's width with `tty` (default 120). */
  columns?: number;
  cwd?: string;
  /** Aborting it acts as Ctrl-C. */
  signal?: AbortSignal;
}

export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'svc-test-'));
}

export async function runSvc(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const stdin = Readable.from(opts.stdin !== undefined ? [Buffer.from(opts.stdin)] : []) as Readable & { isTTY?: boolean };
  if (opts.tty) {
    Object.assign(stdout, { isTTY: true, columns: opts.columns ?? 120 });
    stdin.isTTY = true;
  }
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1', ...opts.env };
  if (!env.SVC_CONFIG_DIR) env.SVC_CONFIG_DIR = tempConfigDir();
  const code = await main(argv, {
    io: { stdout, stderr, stdin },
    env,
    cwd: opts.cwd ?? process.cwd(),
    handleSignals: false,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  // For the suite's secrets audit (test/helpers/audit.ts).
  const source = `runSvc ${argv.slice(0, 4).join(' ')}`;
  auditInvocation(source, argv, env, opts.stdin);
  auditOutput(source, out + err, argv.includes('--show-secrets'));
  return { code, stdout: out, stderr: err };
}

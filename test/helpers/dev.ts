// Starts the BUILT `svc dev` (bin/svc.js) on a free loopback port, reads its one JSON line from
// stdout, and hands back its URL and key. Every test stops what it started.
import { execa } from 'execa';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditOutput, auditProfileFile, auditSecret } from './audit.js';

export const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

export interface DevProcess {
  baseUrl: string;
  apiKey: string;
  configDir: string;
  proc: ReturnType<typeof spawn>;
  /** The JSON line `svc dev` printed. */
  started: Record<string, unknown>;
  /** SIGINT, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | undefined>;
  kill9(): Promise<void>;
  stderr(): string;
}

let counter = 0;

const spawn = (args: string[], env: Record<string, string>) => execa(process.execPath, args, { env, reject: false, buffer: true, stdin: 'ignore' });

export async function startDev(opts: { args?: string[]; env?: Record<string, string>; dataFile?: string; apiKey?: string } = {}): Promise<DevProcess> {
  const apiKey = opts.apiKey ?? `sk_e2e_${process.pid}_${++counter}_${Date.now()}`;
  const configDir = opts.env?.SVC_CONFIG_DIR ?? mkdtempSync(join(tmpdir(), 'svc-e2e-config-'));
  const storage = opts.dataFile ? ['--data', opts.dataFile] : ['--in-memory'];
  const proc = spawn([BIN, 'dev', '--port', '0', '--host', '127.0.0.1', ...storage, '--api-key', apiKey, ...(opts.args ?? [])], {
    SVC_CONFIG_DIR: configDir,
    NO_COLOR: '1',
    ...opts.env,
  });
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  // For the suite's secrets audit (test/helpers/audit.ts): the key, and all svc dev printed.
  auditSecret('startDev', apiKey);
  const showsSecrets = (opts.args ?? []).includes('--show-secrets');
  void proc.then(
    (r) => {
      auditOutput('startDev', `${r.stdout ?? ''}${err}`, showsSecrets);
      auditProfileFile('startDev', configDir);
    },
    () => undefined,
  );
  const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = '';
    // Not started in time: the process is killed, so a failed start leaves nothing running.
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`svc dev did not start within 30 s; stderr: ${err}`));
    }, 30_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(out.slice(0, nl)) as Record<string, unknown>);
        } catch (_e) {
          proc.kill('SIGKILL');
          reject(new Error(`svc dev printed something other than one JSON line: ${out}`));
        }
      }
    });
    void proc.then((r) => {
      clearTimeout(timer);
      reject(new Error(`svc dev exited early (${r.exitCode}): ${err}`));
    });
  });
  const stop = async () => {
    if (proc.exitCode !== null) return proc.exitCode ?? undefined;
    proc.kill('SIGINT');
    const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    const r = await proc;
    clearTimeout(t);
    return r.exitCode;
  };
  const kill9 = async () => {
    proc.kill('SIGKILL');
    await proc;
  };
  return { baseUrl: started.baseUrl as string, apiKey, configDir, proc, started, stop, kill9, stderr: () => err };
}

/** fetch against the service with the key, JSON in and out. */
export async function api(dev: Pick<DevProcess, 'baseUrl' | 'apiKey'>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${dev.baseUrl}${path}`, {
    method,
    headers: { authorization: `ApiKey ${dev.apiKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as any) : undefined };
}

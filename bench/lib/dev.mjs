// Starts the built `svc dev` on a free port with a fresh store, for benchmarks. Resolves to
// {baseUrl, apiKey, stop()}.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

export async function startDev({ inMemory = false, extraArgs = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  // The folder (store, profile, recipients files) outlives stop(), which a bench may read after; it goes with the bench.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const apiKey = `sk_bench_${randomBytes(12).toString('hex')}`;
  const store = inMemory ? ['--in-memory'] : ['--data', join(dir, 'bench.sqlite')];
  const proc = spawn(process.execPath, [BIN, 'dev', '--port', '0', ...store, '--api-key', apiKey, '--no-save-profile', '--quiet', '-o', 'json', ...extraArgs], {
    env: { ...process.env, SVC_CONFIG_DIR: dir, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    proc.once('exit', (code) => reject(new Error(`svc dev exited ${code}`)));
  });
  return {
    baseUrl: ready.baseUrl,
    apiKey,
    dir,
    env: { ...process.env, SVC_BASE_URL: ready.baseUrl, SVC_API_KEY: apiKey, SVC_CONFIG_DIR: dir, NO_COLOR: '1' },
    stop: () =>
      new Promise((r) => {
        proc.once('exit', r);
        proc.kill('SIGINT');
      }),
  };
}

export async function api(dev, method, path, body) {
  const res = await fetch(`${dev.baseUrl}${path}`, {
    method,
    headers: { authorization: `ApiKey ${dev.apiKey}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** A one-step in-app workflow: the cheapest work per recipient the service can do. */
export async function createBenchWorkflow(dev, workflowId = 'bench-note') {
  await api(dev, 'POST', '/v2/workflows', {
    name: 'Bench note',
    workflowId,
    active: true,
    steps: [{ name: 'Note', type: 'in_app', controlValues: { body: 'Hello {{ subscriber.firstName }}' } }],
  });
  return workflowId;
}

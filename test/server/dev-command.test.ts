// `svc dev`'s command function with a fake Deps: what it prints in each format, the profile it saves,
// and its refusals of bad options. The built binary is covered by test/e2e/dev*.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime.js';
import { UsageError } from '../../src/core/errors.js';
import { run, type DevOptions } from '../../src/commands/dev.js';
import type { Deps, GlobalOptions, OutputFormat } from '../../src/deps.js';

const KEY = 'sk_unit_0123456789abcdef';

function fakeDeps(format: OutputFormat, globals: Partial<GlobalOptions> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (d) => out.push(String(d)));
  stderr.on('data', (d) => err.push(String(d)));
  const controller = new AbortController();
  const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-devcmd-')) };
  const runtime = createRuntime({
    io: { stdout, stderr, stdin: new PassThrough() },
    env,
    globals: { timeout: 30_000, retries: 0, apiKey: KEY, output: format, ...globals },
    commandPath: 'dev',
    signal: controller.signal,
    cwd: process.cwd(),
  });
  const profiles = runtime.profiles();
  const deps: Deps = { ...runtime, info: (m) => err.push(`${m}\n`), warn: (m) => err.push(`warning: ${m}\n`) };
  return { deps, out, err, profiles, stop: () => controller.abort() };
}

/** Runs the command until it has printed, then stops it. */
async function startAndStop(f: ReturnType<typeof fakeDeps>, opts: DevOptions) {
  const done = run(f.deps, { port: 0, inMemory: true, ...opts });
  let ended = false;
  done.then(
    () => (ended = true),
    () => (ended = true),
  );
  // A deadline, not a count of turns: the first run loads the whole service, which on a loaded machine
  // takes seconds.
  const deadline = Date.now() + 20_000;
  while (f.out.length === 0 && !ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  f.stop();
  await done;
  return f.out.join('');
}

describe('svc dev command', () => {
  it('json: one line with the masked key; the local profile becomes current', async () => {
    const f = fakeDeps('json');
    const text = await startAndStop(f, {});
    const line = JSON.parse(text.trim());
    expect(line).toMatchObject({ apiKey: 'sk_…cdef', profile: 'local', data: ':memory:' });
    expect(text).not.toContain(KEY);
    expect(f.profiles.read()).toEqual({ current: 'local', profiles: { local: { baseUrl: line.baseUrl, apiKey: KEY } } });
  });

  it('table: a human block with the URL, the masked key and how to use it; --show-secrets shows the key', async () => {
    const masked = await startAndStop(fakeDeps('table'), { saveProfile: false });
    expect(masked).toMatch(/Base URL {5}http:\/\/127\.0\.0\.1:\d+/);
    expect(masked).toContain('sk_…cdef');
    expect(masked).not.toContain(KEY);
    expect(masked).toContain('svc --base-url');
    const shown = await startAndStop(fakeDeps('table', { showSecrets: true }), {});
    expect(shown).toContain(KEY);
    expect(shown).toContain('svc --profile local trigger welcome --to ada');
  });

  it('does not replace another current profile', async () => {
    const f = fakeDeps('json');
    await f.profiles.update((p) => {
      p.profiles.prod = { baseUrl: 'https://api.example.com' };
      p.current = 'prod';
    });
    await startAndStop(f, {});
    expect(f.profiles.read().current).toBe('prod');
    expect(f.profiles.read().profiles.local?.apiKey).toBe(KEY);
  });

  it('refuses bad options with usage errors', async () => {
    await expect(run(fakeDeps('json').deps, { port: 70000 })).rejects.toBeInstanceOf(UsageError);
    await expect(run(fakeDeps('json').deps, { inMemory: true, data: 'x.sqlite' })).rejects.toThrow(/cannot be used together/);
    await expect(run(fakeDeps('json').deps, { inMemory: true, port: 0, timeScale: -1 })).rejects.toThrow(/--time-scale/);
    await expect(run(fakeDeps('json').deps, { inMemory: true, port: 0, rateLimit: 'x=1' })).rejects.toThrow(/--rate-limit/);
    // The service's own input errors (rate-limit spec, seed file) become usage errors here, not in the service.
    await expect(run(fakeDeps('json').deps, { inMemory: true, port: 0, rateLimit: 'x=1' })).rejects.toBeInstanceOf(UsageError);
    await expect(run(fakeDeps('json').deps, { inMemory: true, port: 0, seed: '/no/such/seed.yaml' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^--seed: cannot read/),
    });
  });
});

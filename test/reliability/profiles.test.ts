// The profile store holds API keys: 0600 in a 0700 directory whatever wrote it, written atomically (a
// writer killed mid-write leaves the previous file), and shared safely by processes writing at once.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { startDev } from '../helpers/dev.js';
import { runSvc, tempConfigDir } from '../helpers/run.js';
import { startStub, type Stub } from '../helpers/stub.js';
import { figures } from './util.js';

const KEY = 'sk_test_profiles_3e8d1a7c5b';
const CRASH = fileURLToPath(new URL('./fixtures/crash-writer.mjs', import.meta.url));
const modes = (dir: string) => ({ dir: statSync(dir).mode & 0o777, file: statSync(join(dir, 'config.json')).mode & 0o777 });
const store = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { current?: string; profiles: Record<string, unknown> };

let stub: Stub;
beforeAll(async () => {
  stub = await startStub();
  stub.on('GET', '/v1/integrations/active', { body: { data: [] } });
});
afterAll(() => stub.close());

describe('file modes', () => {
  it('0600 in 0700 after every kind of write, even where the directory and file were made looser', async () => {
    const dir = join(tempConfigDir(), 'svc');
    const env = { SVC_CONFIG_DIR: dir };
    // Made by hand or another tool with the usual umask.
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { old: { baseUrl: stub.url, apiKey: KEY } } }), { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    const writes: [string, () => Promise<{ code: number }>][] = [
      ['profile add', () => runSvc(['profile', 'add', 'a', '--base-url', stub.url, '--api-key', KEY], { env })],
      ['profile add --with-key', () => runSvc(['profile', 'add', 'b', '--base-url', stub.url, '--with-key', '--read-only'], { env, stdin: KEY })],
      ['profile use', () => runSvc(['profile', 'use', 'b'], { env })],
      ['login', () => runSvc(['login', '--with-key', '--profile', 'c', '--base-url', stub.url], { env, stdin: KEY })],
      ['profile remove', () => runSvc(['profile', 'remove', 'old', '--yes'], { env })],
    ];
    for (const [what, write] of writes) {
      expect((await write()).code, what).toBe(0);
      expect(modes(dir), what).toEqual({ dir: 0o700, file: 0o600 });
    }
    // svc dev saves the `local` profile into the same store.
    const dev = await startDev({ env });
    await dev.stop();
    expect(modes(dir)).toEqual({ dir: 0o700, file: 0o600 });
    expect(Object.keys(store(dir).profiles).sort()).toEqual(['a', 'b', 'c', 'local']);
  });
});

describe('a writer killed in the middle of a write', () => {
  it.each([
    ['with half of the new file written', 'write'],
    ['with the new file complete but not yet renamed over the old one', 'rename'],
  ])('%s leaves the old store whole; the next write does not wait for its lock and clears its leftovers', { timeout: 30_000 }, async (_what, at) => {
    const dir = tempConfigDir();
    expect((await svcBin(['profile', 'add', 'first', '--base-url', stub.url, '--api-key', KEY], { env: { SVC_CONFIG_DIR: dir } })).exitCode).toBe(0);
    const before = readFileSync(join(dir, 'config.json'));

    const killed = await svcBin(['profile', 'add', 'doomed', '--base-url', stub.url, '--api-key', KEY], {
      env: { SVC_CONFIG_DIR: dir, SVC_TEST_CRASH: at, NODE_OPTIONS: `--import=${CRASH}` },
    });
    expect(killed.signal, String(killed.stderr)).toBe('SIGKILL');
    // The store is the old one, byte for byte, and it still reads.
    expect(readFileSync(join(dir, 'config.json'))).toEqual(before);
    expect((await svcBin(['profile', 'list'], { env: { SVC_CONFIG_DIR: dir } })).exitCode).toBe(0);
    // What the dead writer left: its lock, its temporary file (which holds the key) and the note of its name.
    const left = readdirSync(dir).sort();
    expect(left).toEqual(['config.json', expect.stringMatching(/^config\.json\./), 'config.json.lock', 'config.json.pending']);
    expect(readFileSync(join(dir, 'config.json.pending'), 'utf8')).toBe(join(dir, left[1]!));

    const started = Date.now();
    const next = await svcBin(['profile', 'add', 'second', '--base-url', stub.url, '--api-key', KEY], { env: { SVC_CONFIG_DIR: dir } });
    const waited = Date.now() - started;
    expect(next.exitCode, String(next.stderr)).toBe(0);
    expect(waited).toBeLessThan(5_000);
    expect(Object.keys(store(dir).profiles).sort()).toEqual(['first', 'second']);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(modes(dir)).toEqual({ dir: 0o700, file: 0o600 });
    figures(`profile writer killed (${at})`, { faultsInjected: 1, oldFileIntact: true, nextWriteWaitedMs: waited, leftovers: 0 });
  });
});

describe('processes writing the store at once', () => {
  it('ten processes adding profiles while others switch the current one: no profile is lost', { timeout: 60_000 }, async () => {
    const dir = tempConfigDir();
    const env = { SVC_CONFIG_DIR: dir };
    expect((await svcBin(['profile', 'add', 'base', '--base-url', stub.url, '--api-key', KEY], { env })).exitCode).toBe(0);
    const N = 10;
    const runs = await Promise.all([
      ...Array.from({ length: N }, (_, i) =>
        svcBin(['profile', 'add', `p${i}`, '--base-url', `http://127.0.0.1:${10000 + i}`, '--api-key', `${KEY}_${i}`], { env }),
      ),
      ...Array.from({ length: 4 }, () => svcBin(['profile', 'use', 'base'], { env })),
    ]);
    expect(runs.map((r) => r.exitCode)).toEqual(Array(N + 4).fill(0));
    const file = store(dir);
    expect(Object.keys(file.profiles).sort()).toEqual(['base', ...Array.from({ length: N }, (_, i) => `p${i}`)].sort());
    for (let i = 0; i < N; i++) expect(file.profiles[`p${i}`]).toEqual({ baseUrl: `http://127.0.0.1:${10000 + i}`, apiKey: `${KEY}_${i}` });
    expect(file.current).toBe('base');
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(modes(dir)).toEqual({ dir: 0o700, file: 0o600 });
    figures('concurrent profile writers', { processes: N + 4, profilesLost: 0 });
  });
});

// The built svc turns on the runtime's compile cache (bin/svc.js) in the user's cache folder: the first
// run writes it, the next reads it (and writes nothing); a damaged cache, a cache folder that cannot be
// made, or the cache turned off changes nothing the user sees. The hot path's own code cache
// (src/script-cache.ts) lives in the same folder: made after a command ran, kept in two copies, grown by
// later commands, and old builds' files removed. `svc --version --verbose` says which Node, store driver
// and cache are in use.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { startDev } from '../helpers/dev.js';

const KEY = 'sk_test_cache_0123456789';
// A command that validates its input with zod and sends nothing: most of the bundle's code runs.
const WORKFLOW = { name: 'Welcome', workflowId: 'welcome', steps: [] };
const ARGS = ['workflow', 'create', '--data', JSON.stringify(WORKFLOW), '--dry-run', '-o', 'json'];

function run(env: Record<string, string>, args = ARGS) {
  return svcBin(args, { env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9', ...env } });
}

/** The dry-run output without its idempotency key (a fresh one each run). */
const stable = (stdout: unknown) => String(stdout).replace(/"idempotency-key": "[^"]+"/, '');

/** Every file of the cache folder, with its modification time. */
function cacheFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, statSync(p).mtimeMs);
    }
  };
  walk(dir);
  return out;
}

/** The hot path's cache file in the cache folder `dir` (undefined when there is none). */
const hotPathCache = (dir: string) => [...cacheFiles(dir).keys()].find((f) => /[\\/]svc-hot-path-[0-9a-f]{16}\.bin$/.test(f));

describe("the runtime's compile cache", () => {
  test('is written by the first run in the cache folder and read by the next, which writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const first = await run({ SVC_CACHE_DIR: dir });
    expect(first.exitCode, String(first.stderr)).toBe(0);
    expect(first.stderr).toBe('');
    const written = cacheFiles(dir);
    // dist/main.cjs and the ES modules the command loaded (zod's chunk among them) in the runtime's cache,
    // the hot path and the chunks that are scripts (the command's file) in caches of their own: one file
    // each, in a folder of this Node's own.
    expect(written.size).toBeGreaterThanOrEqual(4);
    for (const f of written.keys()) expect(f).toContain(join(dir, 'compile', `${process.version}-${process.arch}-`));
    const second = await run({ SVC_CACHE_DIR: dir });
    expect(second.exitCode).toBe(0);
    expect(stable(second.stdout)).toBe(stable(first.stdout));
    // Every entry matched the file it was made from: none was written again.
    expect(cacheFiles(dir)).toEqual(written);
  });

  test("holds the hot path's code as it was once the command ran: more than compiling it makes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    const hot = [...cacheFiles(dir).keys()].filter((f) => f.includes('svc-hot-path-'));
    expect(hot).toHaveLength(1);
    expect(hot[0]).toBe(hotPathCache(dir));
    expect(hot[0]).toContain(join(dir, 'compile', `${process.version}-${process.arch}-`));
    if (process.platform !== 'win32') expect(statSync(hot[0]!).mode & 0o777).toBe(0o600);
    // What V8 would cache right after compiling dist/hot-path.js (its top level only), in this process.
    const script = fileURLToPath(new URL('../../dist/hot-path.js', import.meta.url));
    const compiled = new Script(readFileSync(script, 'utf8'), { filename: script }).createCachedData();
    // The file holds the cache twice (two copies that match are its check), and the cache holds the
    // functions the command ran too (commander's parsing, the session, the printer).
    const file = readFileSync(hot[0]!);
    const copy = file.subarray(0, file.length / 2);
    expect(copy.equals(file.subarray(file.length / 2))).toBe(true);
    expect(copy.length).toBeGreaterThan(compiled.length * 1.2);
    // A new build of the hot path (other contents) has a cache of its own: its name is the contents' digest.
    expect(hot[0]).toContain(
      createHash('sha256')
        .update(readFileSync(script, 'utf8').replace(/\/\/# sourceMappingURL=.*\n$/, ''))
        .digest('hex')
        .slice(0, 16),
    );
  });

  test("a hot path's cache damaged past its header (same length, bytes changed in either copy) is not used: the same output, written again", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const clean = await run({ SVC_CACHE_DIR: dir });
    const hot = hotPathCache(dir)!;
    const good = readFileSync(hot);
    // V8 does not checksum a code cache: these bytes, changed in the one copy it reads, stop the process
    // in its deserializer (a fatal error, exit 133) when svc hands them over.
    for (const at of [0.2, 0.4, 0.7, 0.9]) {
      const damaged = Buffer.from(good);
      const from = Math.floor(damaged.length * at);
      for (let i = from; i < from + 64; i++) damaged[i]! ^= 0xa5;
      writeFileSync(hot, damaged);
      const r = await run({ SVC_CACHE_DIR: dir });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(r.stderr).toBe('');
      expect(stable(r.stdout)).toBe(stable(clean.stdout));
      expect(readFileSync(hot).equals(damaged)).toBe(false);
    }
  });

  test("the hot path's cache grows to hold a later command's code, checked at most once an hour", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const anHourAgo = () => new Date(Date.now() - 61 * 60 * 1000);
    // The first command to run is help: its cache holds commander's help, not the commands' work.
    expect((await run({ SVC_CACHE_DIR: dir }, ['--help'])).exitCode).toBe(0);
    const file = hotPathCache(dir)!;
    const helpOnly = readFileSync(file);
    // Less than an hour old: another command reads it and leaves it as it is.
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    expect(readFileSync(file).equals(helpOnly)).toBe(true);
    // An hour old: the next command's cache holds help and its own work, and replaces it.
    utimesSync(file, anHourAgo(), anHourAgo());
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    const grown = readFileSync(file);
    expect(grown.length).toBeGreaterThan(helpOnly.length);
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(60_000);
    // The same command an hour later compiles nothing new: the file is only touched (the next check is
    // an hour away), or rewritten no smaller.
    utimesSync(file, anHourAgo(), anHourAgo());
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    expect(readFileSync(file).length).toBeGreaterThanOrEqual(grown.length);
    expect(Date.now() - statSync(file).mtimeMs).toBeLessThan(60_000);
  });

  test('a cache another process wrote while a long run went on stays: svc dev leaves the one the commands beside it wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const dev = await startDev({ env: { SVC_CACHE_DIR: dir } });
    try {
      const r = await run({ SVC_CACHE_DIR: dir, SVC_BASE_URL: dev.baseUrl, SVC_API_KEY: dev.apiKey }, ['integrations', 'active', '-o', 'json']);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      const file = hotPathCache(dir)!;
      const written = readFileSync(file);
      expect(await dev.stop()).toBe(0);
      expect(readFileSync(file).equals(written)).toBe(true);
    } finally {
      await dev.stop();
    }
  });

  test("the chunks a command ran that are scripts have caches of their own, named after their contents' digest", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    const chunks = [...cacheFiles(dir).keys()].filter((f) => /[\\/]svc-chunk-[0-9a-f]{16}\.bin$/.test(f));
    // The command's own file, at least.
    expect(chunks.length).toBeGreaterThan(0);
    const dist = fileURLToPath(new URL('../../dist/chunks/', import.meta.url));
    const digests = new Set(
      readdirSync(dist).map((f) =>
        createHash('sha256')
          .update(readFileSync(join(dist, f)))
          .digest('hex')
          .slice(0, 16),
      ),
    );
    for (const f of chunks) {
      expect(digests.has(/svc-chunk-([0-9a-f]{16})\.bin$/.exec(f)![1]!)).toBe(true);
      if (process.platform !== 'win32') expect(statSync(f).mode & 0o777).toBe(0o600);
      const file = readFileSync(f);
      expect(file.subarray(0, file.length / 2).equals(file.subarray(file.length / 2))).toBe(true);
    }
  });

  test("other builds' hot path and chunk caches go when a month old, once this build writes its own", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    const mine = hotPathCache(dir)!;
    const folder = dirname(mine);
    const old = join(folder, 'svc-hot-path-0123456789abcdef.bin');
    const oldChunk = join(folder, 'svc-chunk-0123456789abcdef.bin');
    const recent = join(folder, 'svc-hot-path-fedcba9876543210.bin');
    const leftAside = join(folder, 'svc-hot-path-0123456789abcdef.bin.4242.tmp');
    const unrelated = join(folder, 'not-svc.bin');
    for (const f of [old, oldChunk, recent, leftAside, unrelated]) writeFileSync(f, 'x');
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    for (const f of [old, oldChunk, leftAside, unrelated]) utimesSync(f, longAgo, longAgo);
    // A run that reads its cache writes nothing and removes nothing.
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    expect(existsSync(old)).toBe(true);
    // A run that writes its cache (here: none to read) removes the month-old caches of other builds.
    rmSync(mine);
    expect((await run({ SVC_CACHE_DIR: dir })).exitCode).toBe(0);
    expect(existsSync(mine)).toBe(true);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(oldChunk)).toBe(false);
    expect(existsSync(leftAside)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });

  test('a damaged cache changes nothing the user sees, and is written again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const clean = await run({ SVC_CACHE_DIR: dir });
    const files = [...cacheFiles(dir).keys()];
    for (const [i, f] of files.entries()) {
      // Garbage, a cut-short entry, an empty one.
      const data = readFileSync(f);
      writeFileSync(f, i % 3 === 0 ? Buffer.alloc(data.length, 0x5a) : i % 3 === 1 ? data.subarray(0, data.length >> 1) : Buffer.alloc(0));
    }
    const damaged = cacheFiles(dir);
    const after = await run({ SVC_CACHE_DIR: dir });
    expect(after.exitCode).toBe(0);
    expect(after.stderr).toBe('');
    expect(stable(after.stdout)).toBe(stable(clean.stdout));
    const rewritten = cacheFiles(dir);
    expect([...rewritten.keys()].filter((f) => rewritten.get(f) !== damaged.get(f)).length).toBeGreaterThan(0);
    expect(stable((await run({ SVC_CACHE_DIR: dir })).stdout)).toBe(stable(clean.stdout));
  });

  test('a cache folder that cannot be made, or the cache turned off: the same output, and --version --verbose says it is off', async () => {
    const base = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const notAFolder = join(base, 'file');
    writeFileSync(notAFolder, 'not a folder');
    const reference = await run({ SVC_CACHE_DIR: join(base, 'ok') });
    const envs: Record<string, string>[] = [{ SVC_CACHE_DIR: notAFolder }, { SVC_CACHE_DIR: join(base, 'ok'), NODE_DISABLE_COMPILE_CACHE: '1' }];
    for (const env of envs) {
      const r = await run(env);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      expect(stable(r.stdout)).toBe(stable(reference.stdout));
      const v = await run(env, ['--version', '--verbose']);
      expect(v.exitCode).toBe(0);
      expect(String(v.stdout)).toMatch(/^compile cache: off \(.+\)$/m);
    }
    expect(readFileSync(notAFolder, 'utf8')).toBe('not a folder');
    // Turned off, nothing is written at all: neither the runtime's cache nor the hot path's.
    const off = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    expect((await run({ SVC_CACHE_DIR: off, NODE_DISABLE_COMPILE_CACHE: '1' })).exitCode).toBe(0);
    expect(cacheFiles(off).size).toBe(0);
  });
});

describe('svc --version --verbose', () => {
  test('names the Node (version and path) beside the supported lines, the store driver and the compile cache folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const r = await run({ SVC_CACHE_DIR: dir }, ['--version', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const pkg = (p: string) => JSON.parse(readFileSync(new URL(p, import.meta.url), 'utf8')) as { version: string };
    const lines = String(r.stdout).trimEnd().split('\n');
    expect(lines).toEqual([
      pkg('../../package.json').version,
      `node: ${process.versions.node} (${process.execPath}); supported: 22 (from 22.19), 24 and 26`,
      `store driver: better-sqlite3 ${pkg('../../node_modules/better-sqlite3/package.json').version} (N-API binding, loads)`,
      expect.stringMatching(new RegExp(`^compile cache: on, ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/compile/v`)),
    ]);
    // The order of the two flags does not matter; plain --version stays one line.
    expect(String((await run({ SVC_CACHE_DIR: dir }, ['--verbose', '-V'])).stdout)).toBe(String(r.stdout));
    expect(String((await run({ SVC_CACHE_DIR: dir }, ['--version'])).stdout)).toBe(lines[0]);
  });
});

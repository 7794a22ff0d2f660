// The built svc loads zod, commander and its own hot path (dist/zod-<hash>.cjs, dist/commander-<hash>.cjs, dist/hot-<hash>.cjs) through V8's code cache (src/core/code-cache.ts): the
// first run writes the cache, later runs read it, and a cache that is damaged, or a cache directory that
// cannot be written, changes nothing the user sees.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcBin } from '../helpers/bin.js';
import { requireCached } from '../../src/core/code-cache.js';

const KEY = 'sk_test_cache_0123456789';
// A command that validates its input with zod (a workflow body has defaults, so no compiled validator
// stands in for zod: src/api/shape-compile.ts) and sends nothing.
const WORKFLOW = { name: 'Welcome', workflowId: 'welcome', steps: [] };
const ARGS = ['workflow', 'create', '--data', JSON.stringify(WORKFLOW), '--dry-run', '-o', 'json'];

function run(cacheDir: string) {
  return svcBin(ARGS, { env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CACHE_DIR: cacheDir } });
}

/** The dry-run output without its idempotency key (a fresh one each run). */
const stable = (stdout: unknown) => String(stdout).replace(/"idempotency-key": "[^"]+"/, '');

describe('the code cache of the built svc', () => {
  test('is written by the first run and read by the next; a damaged cache is replaced; output never changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const first = await run(dir);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    expect(first.stderr).toBe('');
    const files = readdirSync(dir).sort();
    const suffix = `-[0-9a-f]{12}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8$`;
    expect(files).toHaveLength(3);
    expect(files[0]).toMatch(new RegExp(`^commander${suffix}`));
    expect(files[1]).toMatch(new RegExp(`^hot${suffix}`));
    expect(files[2]).toMatch(new RegExp(`^zod${suffix}`));
    const cache = join(dir, files[2]!);
    const written = statSync(cache);
    expect(written.size).toBeGreaterThan(100_000);

    // An older build's cache of the same file is removed when the new one is written.
    const stale = join(dir, files[2]!.replace(/^zod-[0-9a-f]{12}/, 'zod-0123456789ab'));
    writeFileSync(stale, 'old');
    rmSync(cache);
    await run(dir);
    expect(readdirSync(dir).sort()).toEqual(files);
    const rewritten = statSync(cache);

    // Accepted: not written again.
    const second = await run(dir);
    expect(second.exitCode).toBe(0);
    expect(stable(second.stdout)).toBe(stable(first.stdout));
    expect(statSync(cache).mtimeMs).toBe(rewritten.mtimeMs);

    // Writable by others: not read (bytecode is code), replaced by one of the user's own.
    if (process.platform !== 'win32') {
      chmodSync(cache, 0o666);
      const shared = await run(dir);
      expect(shared.exitCode).toBe(0);
      expect(statSync(cache).mode & 0o777).toBe(0o600);
    }

    // Damaged: V8 rejects it, the run compiles as usual and writes a good one.
    writeFileSync(cache, Buffer.alloc(4096, 7));
    const third = await run(dir);
    expect(third.exitCode).toBe(0);
    expect(third.stderr).toBe('');
    expect(stable(third.stdout)).toBe(stable(first.stdout));
    expect(readFileSync(cache).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(statSync(cache).size).toBeGreaterThan(100_000);
  });

  test('a cache directory that cannot be made costs nothing but time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    const notADir = join(dir, 'file');
    writeFileSync(notADir, 'x');
    const r = await run(join(notADir, 'svc'));
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(String(r.stdout))).toMatchObject({ method: 'POST', body: WORKFLOW });
  });
});

describe('a command that loads undici', () => {
  test('turns off the optimised recompile of its WebAssembly parser, and so writes no cache (its V8 flags changed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cache-'));
    // Two attempts (the second goes through undici), both refused.
    const r = await svcBin(['integrations', 'active', '--retries', '1', '-o', 'json'], {
      env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CACHE_DIR: dir },
    });
    expect(r.exitCode).toBe(4);
    expect(String(r.stderr)).toMatch(/could not reach 127\.0\.0\.1:9: connection refused \(2 attempts\)/);
    expect(readdirSync(dir)).toEqual([]);
    // One attempt (node:http only): the cache is written (commander's and the hot path's: with no answer to check, no zod).
    await svcBin(['integrations', 'active', '--retries', '0', '-o', 'json'], {
      env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CACHE_DIR: dir },
    });
    expect(
      readdirSync(dir)
        .map((f) => f.replace(/-.*/, ''))
        .sort(),
    ).toEqual(['commander', 'hot']);
  });
});

describe('requireCached', () => {
  test('returns the exports of a CommonJS file, with require and __dirname of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cjs-'));
    const file = join(dir, 'mod-0123456789ab.cjs');
    writeFileSync(file, "exports.answer = 42; exports.dir = __dirname; exports.join = require('node:path').join('a', 'b');");
    expect(requireCached(file, { SVC_CACHE_DIR: join(dir, 'cache') })).toEqual({ answer: 42, dir, join: join('a', 'b') });
  });
});

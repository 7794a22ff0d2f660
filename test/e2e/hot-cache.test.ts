// The hot path's file (dist/hot-<hash>.cjs, scripts/build.mjs) through the code cache: V8 caches the
// functions of the run that wrote the cache, so a cache written by `svc --help` lacks the request path.
// A run that used more of the file writes it again, once; the same use again leaves it alone.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { svcBin } from '../helpers/bin.js';

const KEY = 'sk_test_hot_0123456789';

function run(args: string[], cacheDir: string) {
  // One attempt to a closed port: the request path through node:http, and no undici (which would change
  // V8's flags, and then no cache is written at all).
  return svcBin(args, { env: { SVC_API_KEY: KEY, SVC_BASE_URL: 'http://127.0.0.1:9', SVC_CACHE_DIR: cacheDir } });
}

const hotCache = (dir: string) => {
  const f = readdirSync(dir).find((n) => n.startsWith('hot-'));
  if (!f) throw new Error(`no hot-path cache in ${readdirSync(dir).join(', ')}`);
  const path = join(dir, f);
  return { path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs, level: readFileSync(path)[7]! };
};

describe('the code cache of the hot path', () => {
  test('grows when a run used more of the file than the run that wrote it, and only then', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-hot-cache-'));
    const help = await run(['events', 'list', '--help'], dir);
    expect(help.exitCode).toBe(0);
    const afterHelp = hotCache(dir);
    expect(afterHelp.level).toBe(0);

    const request = ['integrations', 'active', '--retries', '0', '-o', 'json'];
    const first = await run(request, dir);
    expect(first.exitCode).toBe(4);
    expect(String(first.stderr)).toMatch(/could not reach 127\.0\.0\.1:9/);
    const afterRequest = hotCache(dir);
    expect(afterRequest.level).toBeGreaterThan(0);
    expect(afterRequest.size).toBeGreaterThan(afterHelp.size);

    // The same command, and help again: the cache already holds what they use.
    await run(request, dir);
    await run(['events', 'list', '--help'], dir);
    const later = hotCache(dir);
    expect(later.mtimeMs).toBe(afterRequest.mtimeMs);
    expect(later.size).toBe(afterRequest.size);
  });
});

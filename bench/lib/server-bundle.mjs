// Bundles the local service from a source tree (this checkout's src/, or another one given with
// --baseline-src, e.g. an older commit unpacked with `git archive <ref> src | tar -x -C .tmp-base`)
// and imports it, so that a benchmark can measure both in the same run. The bundle is written beside
// this file so that its external packages resolve from the project's node_modules.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const made = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/**
 * The store's SQLite driver in a bundle: better-sqlite3 (what svc ships), or `node:sqlite`, Node's
 * built-in one, behind better-sqlite3's API (node-sqlite-driver.mjs), to compare the two.
 */
export function driverOptions(driver = 'better-sqlite3') {
  if (driver === 'better-sqlite3') return { external: ['better-sqlite3', 'fastify'], plugins: [] };
  if (driver !== 'node:sqlite') throw new Error(`--driver: expected better-sqlite3 or node:sqlite, got ${driver}`);
  const adapter = fileURLToPath(new URL('./node-sqlite-driver.mjs', import.meta.url));
  const plugin = { name: 'node-sqlite', setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: adapter })) };
  return { external: ['fastify'], plugins: [plugin] };
}

/**
 * `extra`: more exports, as [name, path under src/] pairs (e.g. ['trigger', 'server/trigger.ts']);
 * `driver`: see driverOptions.
 */
export async function loadServer(srcDir = fileURLToPath(new URL('../../src', import.meta.url)), extra = [], driver = 'better-sqlite3') {
  const src = (p) => resolve(srcDir, 'server', p);
  const dir = mkdtempSync(fileURLToPath(new URL('../.tmp-server-bundle-', import.meta.url)));
  made.push(dir);
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { createLocalService } from ${JSON.stringify(src('index.ts'))};`,
      `export { defaultRegistry } from ${JSON.stringify(src('runner/index.ts'))};`,
      `export { ManualClock } from ${JSON.stringify(src('clock.ts'))};`,
      ...extra.map(([name, path]) => `export { ${name} } from ${JSON.stringify(resolve(srcDir, path))};`),
    ].join('\n'),
  );
  const outfile = join(dir, 'server.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'error',
    ...driverOptions(driver),
    define: { __SVC_VERSION__: '"bench"' },
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  });
  return import(pathToFileURL(outfile).href);
}

export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

/** Calls a route of an in-process service with its API key; the parsed answer, or a throw naming the call. */
export const caller = (svc, key) => async (method, url, body) => {
  const r = await svc.app.inject({
    method,
    url,
    headers: { authorization: `ApiKey ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { payload: JSON.stringify(body) }),
  });
  if (r.statusCode >= 300) throw new Error(`${method} ${url}: ${r.statusCode} ${r.body}`);
  return JSON.parse(r.body);
};

// Loads a CommonJS file of the bundle through V8's code cache: zod and commander (dist/zod-*.cjs,
// dist/commander-*.cjs), svc's own hot path (dist/hot-*.cjs: the command line, runtime, API session and
// output, one file instead of ~25 ES modules) and the compiled validators (dist/shapes/). Node 20 has no
// compile cache for modules (Node 22's module.enableCompileCache()), and compiling zod, 700 KB, is about
// half the cost of loading it: ~20 ms of every command that validates input or checks an answer. The
// cache is V8's own bytecode for the file, made by the first run that loads it and kept in the user's
// cache directory; V8 refuses a cache made by another V8 version or with other flags, and the file name
// carries a hash of the source, so a rebuilt bundle never meets an old cache.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let flagsChanged = false;

/**
 * Changes V8 flags at run time. V8 stamps a code cache with the flags it was made under, so a cache made
 * after a change would not match the next run's flags: no cache is written by a process that changed them.
 */
export function setV8Flags(flags: string): void {
  // node:v8 loaded here, not with this module: it brings ~8 internal modules no command needs otherwise.
  process.getBuiltinModule('node:v8').setFlagsFromString(flags);
  flagsChanged = true;
}

/** Where caches live: SVC_CACHE_DIR, else $XDG_CACHE_HOME/svc, else ~/.cache/svc (LOCALAPPDATA on Windows). */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.SVC_CACHE_DIR) return env.SVC_CACHE_DIR;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'svc', 'Cache');
  if (process.platform === 'darwin') return join(process.getBuiltinModule('node:os').homedir(), 'Library', 'Caches', 'svc');
  return join(env.XDG_CACHE_HOME || join(process.getBuiltinModule('node:os').homedir(), '.cache'), 'svc');
}

/** The bundle's root: this module is bundled into dist/main.js or into a chunk under dist/chunks/. */
function distDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return basename(here) === 'chunks' ? dirname(here) : here;
}

/**
 * What a CommonJS file of the bundle may get from the ES module that loads it (dist/hot-*.cjs,
 * scripts/build.mjs): `import` answers its dynamic imports of modules outside it (import() cannot run in
 * code compiled from a cache), `codeCache` is this module, so that the file shares its state.
 */
export interface CachedHost {
  import?: (key: string) => Promise<unknown>;
  codeCache?: unknown;
  /**
   * How much of the file this run used, as a small number that grows with it (the hot file: how many of
   * its lazily loaded parts). V8 caches the functions the run that wrote the cache compiled; a cache
   * written by `svc --help` lacks the request path. A run that used more than the run that wrote the
   * cache writes it again, so each build's cache is rewritten a few times at most.
   */
  level?: () => number;
}

/** A cache file: this header (the level of the run that wrote it in its last byte), then V8's data. */
const MAGIC = Buffer.from('svc-v8c\0');

/**
 * The require() a file gets: Node's own modules straight from process.getBuiltinModule (all these files
 * require, they are bundles), anything else through node:module's createRequire, loaded only then
 * (node:module brings its source-map support with it).
 */
function requireFor(path: string): NodeJS.Require {
  let real: NodeJS.Require | undefined;
  const outside = () => (real ??= process.getBuiltinModule('node:module').createRequire(path));
  const req = ((id: string) => process.getBuiltinModule(id) ?? outside()(id)) as NodeJS.Require;
  return Object.defineProperties(req, {
    resolve: { get: () => outside().resolve },
    cache: { get: () => outside().cache },
    main: { get: () => outside().main },
    extensions: { get: () => outside().extensions },
  });
}

/** Files loaded by this process: a file is evaluated once, like require(). */
const loaded = new Map<string, unknown>();

/**
 * require() for a CommonJS file of the bundle, compiled from the code cache when there is a good one.
 * Without one, the file is compiled as usual and, when the process exits, the bytecode V8 made for it
 * (every function this run used) is written for the next run. Failing to read or write the cache only
 * costs the time it would have saved.
 */
export function requireCached(file: string, env: NodeJS.ProcessEnv = process.env, host: CachedHost = {}): unknown {
  const path = isAbsolute(file) ? file : join(distDir(), file);
  if (loaded.has(path)) return loaded.get(path);
  const source = readFileSync(path, 'utf8');
  const name = basename(file, '.cjs');
  let dir: string;
  try {
    dir = cacheDir(env);
  } catch {
    dir = '';
  }
  const cacheFile = join(dir, `${name}-${process.version}-${process.arch}.v8`);
  let cachedData: Buffer | undefined;
  let cachedLevel = 0;
  try {
    // Bytecode is code: only a file of this user's, writable by no one else, is used.
    const st = dir ? statSync(cacheFile) : undefined;
    const ours = st && (typeof process.getuid !== 'function' || (st.uid === process.getuid() && (st.mode & 0o022) === 0));
    const data = ours ? readFileSync(cacheFile) : undefined;
    if (data && data.length > MAGIC.length && data.subarray(0, MAGIC.length - 1).equals(MAGIC.subarray(0, MAGIC.length - 1))) {
      cachedLevel = data[MAGIC.length - 1]!;
      cachedData = data.subarray(MAGIC.length);
    }
  } catch {
    cachedData = undefined;
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname, __svcHost, __svcImport) {${source}\n})`;
  const script = new (process.getBuiltinModule('node:vm').Script)(wrapper, { filename: path, ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} as unknown };
  loaded.set(path, mod.exports);
  try {
    (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, requireFor(path), mod, path, dirname(path), host, host.import);
  } catch (e) {
    loaded.delete(path); // as require() does: the next call evaluates the file again
    throw e;
  }
  loaded.set(path, mod.exports);
  if (dir) {
    process.once('exit', () => {
      if (flagsChanged) return;
      const level = Math.min(255, host.level?.() ?? 0);
      if (cachedData && !script.cachedDataRejected && level <= cachedLevel) return;
      try {
        const header = Buffer.from(MAGIC);
        header[MAGIC.length - 1] = level;
        const data = script.createCachedData();
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600 });
        renameSync(tmp, cacheFile);
        // Caches of earlier builds of the same file (`zod-<other hash>-...`) will not be read again.
        const family = name.replace(/-[0-9a-f]{8,}$/, '-');
        for (const f of readdirSync(dir)) {
          if (f.startsWith(family) && f.endsWith('.v8') && !f.startsWith(`${name}-`)) rmSync(join(dir, f), { force: true });
        }
      } catch {
        // A read-only or full disk: the next run compiles again.
      }
    });
  }
  return mod.exports;
}

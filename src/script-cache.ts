// Runs the command line's hot path (dist/hot-path.js: commander, the runtime, the API session, the
// output) as a script whose V8 code cache is made after it has run, so that the cache holds the
// functions a command ran, not only the file's top level.
//
// Why not the runtime's compile cache alone (bin/svc.js turns it on, and it covers every other file of
// dist/): Node writes a module's cache as soon as the module is compiled. V8 compiles a function when it
// is first called, so the functions of commander's parsing, the session and the printer were compiled
// again on every run. `vm.Script#createCachedData()`, called once the command is done, is V8's way of
// caching what ran (Chrome does the same after a page's scripts have run); Node offers it for scripts,
// not for ES modules, hence a script.
//
// The cache is a file in the runtime's compile cache folder (module.getCompileCacheDir(): a folder of
// this Node version, architecture and V8 flags), named after a digest of the script's contents, so a new
// build never meets an old cache. V8 refuses data whose header does not match (another V8, other flags,
// another source length), but release builds of V8 do not checksum a code cache: data damaged past its
// header stops the process in V8's deserializer, on every run until the file is gone. So the file holds
// the cache twice, and only two copies that match are used: a byte compare, where a checksum would
// first load node:zlib or node:crypto, which costs more than the cache saves (bench/RESULTS-cli-plain.md).
// A missing, damaged or refused cache is compiled anew and written once the command is done, aside and
// renamed, so that no reader sees half a file; a cache in use grows when a later command compiled more
// (afterRun). With the compile cache off (NODE_DISABLE_COMPILE_CACHE, a folder that cannot be made),
// nothing is read or written, and svc works the same, only compiling.

/** What the hot path's script returns: its exports, by name. */
export type HotPath = Record<string, unknown>;

/** The script is a function expression taking these two and returning its exports. */
type HotPathFunction = (moduleUrl: string, importChunk: (specifier: string) => Promise<unknown>) => HotPath;

/**
 * Runs the script at `file` (a function expression, see HotPath) with the code cache named by `key`
 * (a digest of its contents), and returns its exports. `importChunk` imports a file of dist/ for it
 * (the script's own import() of `./chunks/…`, relative to dist/main.js).
 */
export function runHotPath(file: URL, key: string, importChunk: (specifier: string) => Promise<unknown>): HotPath {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { Script } = process.getBuiltinModule('node:vm');
  const filename = process.getBuiltinModule('node:url').fileURLToPath(file);
  const folder = process.getBuiltinModule('node:module').getCompileCacheDir();
  const cacheFile = folder ? `${folder}/svc-hot-path-${key}.bin` : undefined;
  let read: { data?: Buffer; mtimeMs: number } | undefined;
  if (cacheFile) {
    try {
      read = readCache(cacheFile);
    } catch {
      // No cache yet, or one that cannot be read: compiled, and written when the command is done.
    }
  }
  const script = new Script(readFileSync(filename, 'utf8'), { filename, cachedData: read?.data });
  if (folder && cacheFile) {
    const used = read?.data && !script.cachedDataRejected ? read.data : undefined;
    process.once('exit', () => afterRun(folder, cacheFile, script, used, read?.mtimeMs));
  }
  return (script.runInThisContext() as HotPathFunction)(file.href, importChunk);
}

/** How old a cache is before a run checks whether it has grown: at most one such check an hour. */
const REFRESH_MS = 60 * 60 * 1000;
/**
 * A run longer than this does not refresh the cache: V8 drops the bytecode of functions left unused
 * through enough collections, and what it dropped (functions read from the cache that this run never
 * called) would be missing from the cache it makes.
 */
const LONG_RUN_MS = 60 * 1000;

/**
 * What the cache file becomes once the command is done (`used`: the cache this run read and V8 took;
 * `seenMtimeMs`: the file's modification time then, if there was a file).
 * - Another process wrote or removed the file meanwhile: it stays as that process left it (a
 *   long-running svc dev leaves the cache of the commands run beside it).
 * - None was used (none, damaged or refused): this run's cache is written.
 * - One was used and is an hour old: this run's cache replaces it when it is larger, since it then holds
 *   what the file held and what this run compiled besides, so that the cache comes to hold the commands
 *   a user runs, whichever ran first; otherwise the file is touched, and the next check is an hour away.
 */
function afterRun(folder: string, file: string, script: import('node:vm').Script, used: Buffer | undefined, seenMtimeMs: number | undefined): void {
  const { statSync, utimesSync } = process.getBuiltinModule('node:fs');
  let mtimeMs: number | undefined;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    // No file now.
  }
  if (mtimeMs !== seenMtimeMs) return;
  try {
    if (!used) {
      writeCache(file, script.createCachedData());
      removeStale(folder, file);
    } else if (Date.now() - mtimeMs! >= REFRESH_MS && process.uptime() * 1000 < LONG_RUN_MS) {
      const data = script.createCachedData();
      if (data.length > used.length) writeCache(file, data);
      else utimesSync(file, new Date(), new Date());
    }
  } catch {
    // A folder that cannot be written: the next run compiles what this one did.
  }
}

/**
 * The cache file's modification time, and the cache it holds when it holds two copies that match. The
 * second copy is compared a slice at a time, so that it never takes the first one's memory again.
 */
function readCache(file: string): { data?: Buffer; mtimeMs: number } {
  const { closeSync, fstatSync, openSync, readSync } = process.getBuiltinModule('node:fs');
  const fd = openSync(file, 'r');
  try {
    const { size, mtimeMs } = fstatSync(fd);
    const half = size / 2;
    if (half === 0 || !Number.isInteger(half)) return { mtimeMs };
    const data = Buffer.allocUnsafe(half);
    if (readSync(fd, data, 0, half, 0) !== half) return { mtimeMs };
    const slice = Buffer.allocUnsafe(Math.min(half, 64 * 1024));
    for (let at = 0; at < half; ) {
      const n = readSync(fd, slice, 0, Math.min(slice.length, half - at), half + at);
      if (n === 0 || slice.compare(data, at, at + n, 0, n) !== 0) return { mtimeMs };
      at += n;
    }
    return { data, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * A code cache, twice, written aside and renamed over `file`. Not write-file-atomic, which the profile
 * store uses: this module is bundled into dist/main.js on its own, apart from the hot path and its
 * packages, and a cache needs none of that library's ownership, fsync or signal handling: it runs in an
 * exit handler, and a cache lost is only compiled again.
 */
function writeCache(file: string, data: Buffer): void {
  const { renameSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const aside = `${file}.${process.pid}.tmp`;
  try {
    // Private to its owner, as the runtime's own cache files are.
    writeFileSync(aside, Buffer.concat([data, data]), { mode: 0o600 });
    renameSync(aside, file);
  } catch {
    // A folder that cannot be written: the next run compiles, as this one did.
    try {
      rmSync(aside, { force: true });
    } catch {}
  }
}

/** A month: how long the cache of another build (an earlier svc, say) stays unused before it goes. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Each build of svc has a cache file of its own: those of other builds (and files left aside by a run
 * that stopped between writing and renaming) go once a month old, when a cache is written. An svc still
 * in use whose cache went writes it again on its next run.
 */
function removeStale(folder: string, keep: string): void {
  const { readdirSync, rmSync, statSync } = process.getBuiltinModule('node:fs');
  try {
    for (const name of readdirSync(folder)) {
      const path = `${folder}/${name}`;
      if (path === keep || !/^svc-hot-path-[0-9a-f]{16}\.bin(\.\d+\.tmp)?$/.test(name)) continue;
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    }
  } catch {
    // A folder that cannot be read or a file that cannot be removed: left as it is.
  }
}

// Starts the command line (dist/main.cjs, which bin/svc.js requires): runs its hot path
// (dist/hot-path.js: commander, the runtime, the API session, the output) as a script whose V8 code
// cache is made after it has run, so that the cache holds the functions a command ran, not only the
// file's top level; and so every chunk that imports nothing but the hot path (a command's file, an
// answer's validator), the first time it is imported.
//
// Why not the runtime's compile cache alone (bin/svc.js turns it on, and it covers every other file of
// dist/): Node writes a module's cache as soon as the module is compiled. V8 compiles a function when it
// is first called, so the functions of commander's parsing, the session and the printer were compiled
// again on every run. `vm.Script#createCachedData()`, called once the command is done, is V8's way of
// caching what ran (Chrome does the same after a page's scripts have run); Node offers it for scripts,
// not for ES modules, hence scripts. And a command that loads only scripts never sets up Node's ES
// module loader, which Node 22 loads from source (eight of its own modules) the first time it imports.
// Chunks that import a package, or that an ES module imports, stay ES modules (dist/main.js gives them
// the hot path's exports).
//
// Each script's cache is a file in the runtime's compile cache folder (module.getCompileCacheDir(): a
// folder of this Node version, architecture and V8 flags), named after a digest of the script's contents
// (the build computes it), so a new build never meets an old cache. V8 refuses data whose header does
// not match (another V8, other flags, another source length), but release builds of V8 do not checksum a
// code cache: data damaged past its header stops the process in V8's deserializer, on every run until
// the file is gone. So the file holds the cache twice, and only two copies that match are used: a byte
// compare, where a checksum would first load node:zlib or node:crypto, which costs more than the cache
// saves (bench/RESULTS-cli-plain.md).
// A missing, damaged or refused cache is compiled anew and written once the command is done, aside and
// renamed, so that no reader sees half a file; a cache in use grows when a later command compiled more
// (afterRun). With the compile cache off (NODE_DISABLE_COMPILE_CACHE, a folder that cannot be made),
// nothing is read or written, and svc works the same, only compiling.

/** The hot path's exports, by name. */
export type HotPath = Record<string, unknown>;

/**
 * A script of dist/ (scripts/chunk-scripts.mjs): a function expression taking the file's import.meta, the
 * hot path's exports (none, for the hot path itself) and its import() of a chunk (`./x.js`, relative to
 * dist/chunks/), and returning its exports.
 */
type ScriptFunction = (meta: ImportMeta, hot: HotPath, importChunk: (specifier: string) => Promise<unknown>) => HotPath;

/**
 * Starts the command line from dist/ (the folder `dist`): runs the hot path (dist/hot-path.js, whose
 * digest is `hotKey`) and returns its exports. The chunks named in `chunkKeys` (file name: digest) are
 * scripts too, run the first time the hot path or one of them imports them; any other chunk is an ES
 * module, imported.
 */
export function start(dist: string, hotKey: string, chunkKeys: Record<string, string>): HotPath {
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  const folder = process.getBuiltinModule('node:module').getCompileCacheDir();
  const run = (filename: string, cacheName: string, hot: HotPath): HotPath => {
    const meta = { url: pathToFileURL(filename).href, filename, dirname: filename.slice(0, filename.lastIndexOf('/')) } as ImportMeta;
    return (runScript(filename, folder && `${folder}/${cacheName}.bin`) as ScriptFunction)(meta, hot, importChunk);
  };
  const scripts = new Map<string, Promise<unknown>>();
  /** Imports `./x.js` of dist/chunks/: once, as an ES module would be. */
  const importChunk = (specifier: string): Promise<unknown> => {
    const name = specifier.slice('./'.length);
    const key = chunkKeys[name];
    const failed = (e: unknown) => {
      throw notLoaded(`dist/chunks/${name}`, e);
    };
    if (key === undefined) return import(pathToFileURL(`${dist}/chunks/${name}`).href).catch(failed);
    let loaded = scripts.get(name);
    if (!loaded) {
      // After this turn, as import() is: a chunk that throws rejects the promise.
      loaded = Promise.resolve()
        .then(() => run(`${dist}/chunks/${name}`, `svc-chunk-${key}`, hot))
        .catch(failed);
      scripts.set(name, loaded);
    }
    return loaded;
  };
  const hot = run(`${dist}/hot-path.js`, `svc-hot-path-${hotKey}`, {});
  return hot;
}

/** How a file of dist/ that is missing, unreadable or not JavaScript fails to load. */
const LOAD_FAILURES = new Set(['ENOENT', 'EACCES', 'EISDIR', 'ERR_MODULE_NOT_FOUND']);

/**
 * A chunk that could not be loaded (`file`, a path in the package) says so and what to do, in place of
 * the runtime's own error; an error the chunk's code threw stays as it is.
 */
function notLoaded(file: string, e: unknown): unknown {
  if (!(e instanceof SyntaxError) && !LOAD_FAILURES.has((e as NodeJS.ErrnoException)?.code ?? '')) return e;
  const why = String((e as Error)?.message ?? e).split('\n')[0];
  return new Error(`svc's built file ${file} cannot be loaded (${why}): rebuild svc (npm run build) or reinstall it`, { cause: e });
}

/** The scripts this process ran with a cache file, for afterRun once the command is done. */
const ran: { file: string; script: import('node:vm').Script; used: Buffer | undefined; mtimeMs: number | undefined }[] = [];

/**
 * Compiles the script at `filename` with the code cache in `cacheFile` (none when the compile cache is
 * off), runs it, and returns what it evaluates to.
 */
function runScript(filename: string, cacheFile: string | undefined): unknown {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { Script } = process.getBuiltinModule('node:vm');
  let read: { data?: Buffer; mtimeMs: number } | undefined;
  if (cacheFile) {
    try {
      read = readCache(cacheFile);
    } catch {
      // No cache yet, or one that cannot be read: compiled, and written when the command is done.
    }
  }
  const script = new Script(readFileSync(filename, 'utf8'), { filename, cachedData: read?.data });
  if (cacheFile) {
    if (ran.length === 0)
      process.once('exit', () => {
        const wrote = ran.filter((r) => afterRun(r.file, r.script, r.used, r.mtimeMs));
        if (wrote.length > 0) removeStale(new Set(ran.map((r) => r.file)));
      });
    ran.push({ file: cacheFile, script, used: read?.data && !script.cachedDataRejected ? read.data : undefined, mtimeMs: read?.mtimeMs });
  }
  return script.runInThisContext();
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
 * Returns whether a new build's cache was written (old builds' files are then looked for).
 */
function afterRun(file: string, script: import('node:vm').Script, used: Buffer | undefined, seenMtimeMs: number | undefined): boolean {
  const { statSync, utimesSync } = process.getBuiltinModule('node:fs');
  let mtimeMs: number | undefined;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    // No file now.
  }
  if (mtimeMs !== seenMtimeMs) return false;
  try {
    if (!used) return writeCache(file, script.createCachedData());
    if (Date.now() - mtimeMs! >= REFRESH_MS && process.uptime() * 1000 < LONG_RUN_MS) {
      const data = script.createCachedData();
      if (data.length > used.length) writeCache(file, data);
      else utimesSync(file, new Date(), new Date());
    }
  } catch {
    // A folder that cannot be written: the next run compiles what this one did.
  }
  return false;
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
 * store uses: this module is bundled into dist/main.cjs on its own, apart from the hot path and its
 * packages, and a cache needs none of that library's ownership, fsync or signal handling: it runs in an
 * exit handler, and a cache lost is only compiled again.
 */
function writeCache(file: string, data: Buffer): boolean {
  const { renameSync, rmSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const aside = `${file}.${process.pid}.tmp`;
  try {
    // Private to its owner, as the runtime's own cache files are.
    writeFileSync(aside, Buffer.concat([data, data]), { mode: 0o600 });
    renameSync(aside, file);
    return true;
  } catch {
    // A folder that cannot be written: the next run compiles, as this one did.
    try {
      rmSync(aside, { force: true });
    } catch {}
    return false;
  }
}

/** A month: how long the cache of another build (an earlier svc, say) stays unused before it goes. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Each build of svc has a cache file of its own: those of other builds (and files left aside by a run
 * that stopped between writing and renaming) go once a month old, when a cache is written. An svc still
 * in use whose cache went writes it again on its next run.
 */
function removeStale(keep: Set<string>): void {
  const { readdirSync, rmSync, statSync } = process.getBuiltinModule('node:fs');
  const [one = ''] = keep;
  const folder = one.slice(0, one.lastIndexOf('/'));
  try {
    for (const name of readdirSync(folder)) {
      const path = `${folder}/${name}`;
      if (keep.has(path) || !/^svc-(hot-path|chunk)-[0-9a-f]{16}\.bin(\.\d+\.tmp)?$/.test(name)) continue;
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    }
  } catch {
    // A folder that cannot be read or a file that cannot be removed: left as it is.
  }
}

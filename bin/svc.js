#!/usr/bin/env node
// The supported Node lines are 22 (from 22.19), 24 and 26. Older ones get one line, not a crash in the store's driver.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`error: svc needs Node.js 22.19 or later (22, 24 or 26); this is Node.js ${process.versions.node}\n`);
  process.exit(1);
}
// The runtime's compile cache: V8's bytecode of dist/ kept in the user's cache folder, written by the
// first run, read by the next (Node checks each entry against the file's contents and its own version).
// Turned on before dist/ loads, so that it covers every file of it. NODE_DISABLE_COMPILE_CACHE=1 turns it
// off; a folder that cannot be made or written leaves it off, and svc works the same, only compiling.
const env = process.env;
const home = () => env.HOME || process.getBuiltinModule('node:os').homedir();
let cache;
try {
  const dir = env.SVC_CACHE_DIR
    ? env.SVC_CACHE_DIR
    : process.platform === 'win32' && env.LOCALAPPDATA
      ? `${env.LOCALAPPDATA}/svc/Cache`
      : process.platform === 'darwin'
        ? `${home()}/Library/Caches/svc`
        : `${env.XDG_CACHE_HOME || `${home()}/.cache`}/svc`;
  cache = process.getBuiltinModule('node:module').enableCompileCache(`${dir}/compile`);
} catch (e) {
  cache = { status: 0, message: String(e?.message ?? e) };
}
import('../dist/main.js').then((m) => m.run(process.argv.slice(2), cache));

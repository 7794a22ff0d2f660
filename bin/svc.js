#!/usr/bin/env node
// The command's entry. A CommonJS file (bin/package.json says so), as dist/main.cjs is: Node starts one
// without its ES module loader, which a plain `--version`, and a command whose files are all scripts
// (src/script-cache.ts), then never set up.
'use strict';
const { join } = require('node:path');

const root = join(__dirname, '..');
// The supported Node lines are 22 (from 22.19), 24 and 26. An older Node (the system's Node 20, say,
// behind an `svc` that `npm link` put on PATH) hands the command to the project's own Node when it is
// installed beside this file (the `node` dev dependency: node_modules/node/bin/node); otherwise it
// stops with one line saying what to run, not a crash in the store's driver.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) handOff();
else if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  // Scripts probe for the tool with --version: answered from the package's own file, with nothing of
  // dist/ loaded.
  process.stdout.write(`${JSON.parse(require('node:fs').readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
} else start();

function handOff() {
  const { existsSync } = require('node:fs');
  const own = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(own) || process.env.SVC_NODE_HANDOFF) {
    const clone = existsSync(join(root, 'package.json')) && existsSync(join(root, 'src'));
    const run = clone ? `run \`npm install\` in ${root}/ (it brings the project's own Node 24), or use Node.js 24` : 'install Node.js 24 (or 22.19+, 26) and run svc with it';
    process.stderr.write(`error: svc needs Node.js 22.19 or later; this is Node.js ${process.versions.node}: ${run}\n`);
    process.exit(1);
  }
  const child = require('node:child_process').spawn(own, [__filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SVC_NODE_HANDOFF: process.versions.node },
  });
  // Ctrl-C at a terminal reaches both processes (the terminal signals its whole foreground group): this
  // one then waits for the child to finish with it, which a second SIGINT would cut short. A SIGINT with
  // no terminal (a script or a test harness stopping svc dev) was sent to this process alone, and is
  // passed on, as SIGTERM and SIGHUP always are.
  const atTerminal = require('node:tty').isatty(0);
  process.on('SIGINT', () => {
    if (!atTerminal) child.kill('SIGINT');
  });
  for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('error', (e) => {
    process.stderr.write(`error: could not start ${own}: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code ?? 1);
  });
}

function start() {
  // The runtime's compile cache: V8's bytecode of dist/ kept in the user's cache folder, written by the
  // first run, read by the next (Node checks each entry against the file's contents and its own version).
  // Turned on before dist/ loads, so that it covers every file of it. NODE_DISABLE_COMPILE_CACHE=1 turns it
  // off; a folder that cannot be made or written leaves it off, and svc works the same, only compiling.
  const env = process.env;
  const home = () => env.HOME || require('node:os').homedir();
  let cache;
  try {
    const dir = env.SVC_CACHE_DIR
      ? env.SVC_CACHE_DIR
      : process.platform === 'win32' && env.LOCALAPPDATA
        ? `${env.LOCALAPPDATA}/svc/Cache`
        : process.platform === 'darwin'
          ? `${home()}/Library/Caches/svc`
          : `${env.XDG_CACHE_HOME || `${home()}/.cache`}/svc`;
    cache = require('node:module').enableCompileCache(`${dir}/compile`);
  } catch (e) {
    cache = { status: 0, message: String(e?.message ?? e) };
  }
  // dist/ not built (a clone before `npm run build`) or damaged: one line saying what to run, not a trace.
  let main;
  try {
    main = require('../dist/main.cjs');
  } catch (e) {
    const clone = require('node:fs').existsSync(join(root, 'src'));
    const fix = clone ? `run \`npm run build\` in ${root}/` : 'reinstall svc';
    process.stderr.write(`error: svc's built files cannot be loaded (${String(e?.message ?? e).split('\n')[0]}): ${fix}\n`);
    process.exitCode = 1;
    return;
  }
  main.run(process.argv.slice(2), cache);
}

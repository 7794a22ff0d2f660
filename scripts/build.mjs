// Bundles the CLI with esbuild into ES modules: dist/main.js is the entry, everything else is split
// into chunks under dist/chunks/, each loaded only when a command needs it. Bundling replaces hundreds of
// small package files (zod, commander, conf) with a few chunks; compiling them is left to the runtime's
// own compile cache, which bin/svc.js turns on. Type checking is `tsc --noEmit` (npm run typecheck),
// run by `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// commander requires node:child_process when it loads, for subcommands that are executables of their own,
// which svc has none of; child_process brings ~10 of Node's internal modules. It gets it on first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.kind === 'require-call' ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      loader: 'js',
      contents:
        "let m; const get = () => (m ??= require('node:child_process')); module.exports = new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get() });",
    }));
  },
};

// Node's own modules, imported by svc's code and the packages, come from process.getBuiltinModule, not
// as ES modules: importing one as an ES module reads every export it has, and some are getters that
// load more (node:http's WebSocket loads Node's copy of undici, ~100 internal modules, on Node 22-26).
const builtinsOnUse = {
  name: 'builtins-on-use',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'node-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      loader: 'js',
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
    }));
  },
};

// The answers' and request bodies' validators (src/api/shape-compile.ts): schemas of the operation table
// compiled to standalone code, which replaces src/api/shape-validators.ts in the bundle, so that a command
// whose input and answer pass loads no zod. Each validator is a chunk, imported when first needed. The
// compiler runs from a bundle of its own, removed once it has run.
const shapeGen = 'dist/shape-gen.mjs';
await build({
  stdin: {
    contents: "export { compileShapes } from './src/api/shape-compile.ts'; export { operations } from './src/api/operations.ts';",
    resolveDir: root,
    loader: 'ts',
  },
  outfile: shapeGen,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning',
});
const { compileShapes, operations } = await import(new URL(`../${shapeGen}`, import.meta.url).href);
const compiled = compileShapes(operations);
rmSync(new URL(`../${shapeGen}`, import.meta.url));
const shapeValidators = fileURLToPath(new URL('../src/api/shape-validators.ts', import.meta.url));
const compiledShapes = {
  name: 'compiled-shapes',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]api[\\/]shape-validators\.ts$/ }, (args) =>
      args.path === shapeValidators ? { contents: compiled.index, loader: 'js', resolveDir: root } : undefined,
    );
    b.onResolve({ filter: /^svc-shape:/ }, (args) => ({ path: args.path.slice('svc-shape:'.length), namespace: 'svc-shape' }));
    b.onLoad({ filter: /.*/, namespace: 'svc-shape' }, (args) => ({ contents: compiled.modules[args.path], loader: 'js', resolveDir: root }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  // Whitespace and syntax only: smaller files parse faster, and names stay readable in --debug traces.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};
// dist/main.js, the entry, is a bundle of its own that imports nothing when it loads: `svc --version`
// loads it alone. The rest of the command line starts at dist/execute.js (`--version --verbose` at
// dist/about.js), which main.js imports when needed.
await build({
  ...common,
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  plugins: [
    {
      name: 'entries-apart',
      setup(b) {
        b.onResolve({ filter: /^\.\/(execute|about)\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});
if (/^import\s*["'{*]|\bfrom\s*["']/m.test(readFileSync('dist/main.js', 'utf8')))
  throw new Error('dist/main.js imports a module when it loads: --version would load it');
await build({
  ...common,
  entryPoints: { execute: 'src/execute.ts', about: 'src/about.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Native addon and the server framework stay as packages: fastify resolves plugins at run time and
  // better-sqlite3 loads a compiled .node file. Ink (events browse) imports react-devtools-core only in
  // its devtools chunk, loaded when DEV=true; the package is not installed.
  external: ['better-sqlite3', 'fastify', 'react-devtools-core'],
  // CommonJS packages bundled into ES modules still call require() for Node's own modules: they get them
  // from process.getBuiltinModule (node:module, for anything else, loads only then).
  banner: {
    js: "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);",
  },
  plugins: [builtinsOnUse, lazyChildProcess, compiledShapes],
});

// The web console of `svc dev` (src/console): preact + htm bundled for the browser into dist/console,
// served from memory by src/server/console. Everything it needs is in these files: no CDN, works offline.
await build({
  entryPoints: { app: 'src/console/main.ts' },
  outdir: 'dist/console',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(new URL('../src/console/index.html', import.meta.url), new URL('../dist/console/index.html', import.meta.url));

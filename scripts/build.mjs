// Bundles the CLI with esbuild. Why bundle: Node 20 has no compile cache, and resolving hundreds of
// small ESM files (zod, undici, conf) costs more than parsing one file each; bundling halves start-up.
// What every command runs is CommonJS compiled from V8's code cache (zod, commander, the hot path, the
// validators: src/core/code-cache.ts); dist/main.js is the entry; everything else is split into ES
// module chunks under dist/chunks/, each loaded only when a command needs it. Type checking is
// `tsc --noEmit` (npm run typecheck), run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// The largest packages most commands load, zod (~600 KB; every schema is built from it) and commander
// (the command tree), are bundled on their own as CommonJS, dist/<package>-<hash>.cjs, so that
// src/core/code-cache.ts can compile them from V8's code cache (Node 20 caches no ES module). Every
// import of such a package in the bundle gets a small module that loads that file: one instance of the
// package for the CLI and the local service alike.
const root = fileURLToPath(new URL('..', import.meta.url));
/** esbuild's options for every CommonJS file loaded through V8's code cache (packages, the hot path, validators). */
const CACHED_CJS = { bundle: true, format: 'cjs', platform: 'node', target: 'node22', minifyWhitespace: true, minifySyntax: true };
const CACHED = {
  // From zod's ES modules: evaluating its CommonJS build costs more (it copies every export, getters run).
  zod: "export * from 'zod'; export { default } from 'zod';",
  commander: "module.exports = require('commander');",
};
// commander requires node:child_process when it loads, for subcommands that are executables of their own,
// which svc has none of; child_process brings ~10 of Node's internal modules (dgram, net's socket list,
// the process and signal bindings). It gets it on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: 'child_process', namespace: 'lazy-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      loader: 'js',
      contents:
        "let m; const get = () => (m ??= require('node:child_process')); module.exports = new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get() });",
    }));
  },
};
const cachedFiles = {};
for (const [name, contents] of Object.entries(CACHED)) {
  const out = `dist/${name}.cjs`;
  await build({
    stdin: { contents, resolveDir: root },
    outfile: out,
    ...CACHED_CJS,
    plugins: [lazyChildProcess],
    logLevel: 'warning',
  });
  const file = `${name}-${createHash('sha256').update(readFileSync(out)).digest('hex').slice(0, 12)}.cjs`;
  renameSync(out, `dist/${file}`);
  const names = Object.keys(await import(name)).filter(
    (k) =>
      k !== 'default' &&
      /^[A-Za-z_$][\w$]*$/.test(k) &&
      (() => {
        try {
          new Function(`const ${k} = 1;`);
          return true;
        } catch {
          return false;
        }
      })(),
  );
  cachedFiles[name] = { file, names };
}
const codeCache = fileURLToPath(new URL('../src/core/code-cache.ts', import.meta.url));
const fromCodeCache = {
  name: 'from-code-cache',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(cachedFiles).join('|')})$`);
    b.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'code-cached' }));
    b.onLoad({ filter: /.*/, namespace: 'code-cached' }, (args) => {
      const { file, names } = cachedFiles[args.path];
      return {
        resolveDir: root,
        loader: 'js',
        contents: [
          `import { requireCached } from ${JSON.stringify(codeCache)};`,
          `const m = requireCached(${JSON.stringify(file)});`,
          'export default m.default ?? m;',
          ...names.map((k) => `export const ${k} = m.${k};`),
        ].join('\n'),
      };
    });
  },
};

// The answers' shape validators (src/api/shape-compile.ts): the response schemas of the operation table
// compiled to standalone code, which replaces src/api/shape-validators.ts in the bundle, so that checking
// an answer does not load zod. The compiler runs from a bundle of its own, removed once it has run.
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
// Each validator is a CommonJS file of its own, dist/shapes/<kind>_<operation>-<hash>.cjs, loaded through
// the code cache when a command first needs it: ajv's code is one large function per validator, and
// compiling it from source was ~2 ms of `events get ID` (its answer's validator is 54 KB).
mkdirSync(new URL('../dist/shapes', import.meta.url), { recursive: true });
const shapeFiles = {};
await Promise.all(
  Object.entries(compiled.modules).map(async ([key, code]) => {
    const out = await build({
      stdin: { contents: code, loader: 'js', resolveDir: root, sourcefile: `svc-shape-${key.replace(':', '_')}.js` },
      outfile: 'dist/shapes/shape.cjs',
      ...CACHED_CJS,
      sourcemap: 'external',
      sourcesContent: false,
      write: false,
      logLevel: 'warning',
    });
    const js = out.outputFiles.find((f) => f.path.endsWith('.cjs')).text;
    const map = out.outputFiles.find((f) => f.path.endsWith('.map')).text;
    const file = `shapes/${key.replace(':', '_')}-${createHash('sha256').update(js).digest('hex').slice(0, 12)}.cjs`;
    writeFileSync(`dist/${file}`, js);
    writeFileSync(`dist/${file}.map`, map);
    shapeFiles[key] = file;
  }),
);
const compiledShapes = {
  name: 'compiled-shapes',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]api[\\/]shape-validators\.ts$/ }, (args) =>
      args.path === shapeValidators ? { contents: compiled.index, loader: 'js', resolveDir: root } : undefined,
    );
    b.onResolve({ filter: /^svc-shape:/ }, (args) => ({ path: args.path.slice('svc-shape:'.length), namespace: 'svc-shape' }));
    b.onLoad({ filter: /.*/, namespace: 'svc-shape' }, (args) => ({
      contents: `import { requireCached } from ${JSON.stringify(codeCache)};\nexport const validate = requireCached(${JSON.stringify(shapeFiles[args.path])}).validate;`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

// The hot path: the code every command runs (command line, runtime, execute, the command tree with
// every command's own module) and what a one-request command loads after it (the API session, the
// node:http transport, the JSON output, the shape-check index, the completion cache). In dist/ as ES
// modules it was ~25 chunks, and Node 20's ES module loader costs ~0.5 ms per module besides compiling
// each from source every run (it caches no ES module): ~13 ms of a ~90 ms `events get ID`. So it is one
// CommonJS file, dist/hot-<hash>.cjs, compiled from V8's code cache like zod (src/core/code-cache.ts).
// The roots below other than execute stay lazy: the file evaluates one when it is first imported (through
// the loader in main.js, which counts them: see `level` in code-cache.ts). The file's dynamic imports of
// anything else (a renderer, a prompt, the local service, a package) go to the ES module build below,
// which makes its chunks as before; a validator is a CommonJS file of its own (above). Every module of
// the hot file exists once: an ES module of the bundle that imports one gets a small module handing out
// the hot file's instance (classes such as SvcError stay one class).
const HOT_ROOTS = [
  'src/execute.ts',
  'src/api/session.ts',
  'src/api/undici.ts',
  'src/io/output.ts',
  'src/api/shape-validators.ts',
  'src/commands/events/cache.ts',
  'src/core/completion-cache.ts',
].map((p) => fileURLToPath(new URL(`../${p}`, import.meta.url)));
const rel = (p) => relative(root, p).split(sep).join('/');
const SKIP = { svcSkip: true };
// src/core/code-cache.ts loads the hot file, so the hot file cannot contain it: inside, its exports are
// the instance of the ES module build (one flagsChanged), handed in by the loader as __svcHost.codeCache.
const codeCacheExports = ['cacheDir', 'requireCached', 'setV8Flags'];
// A dynamic import of something outside the hot path: `import("svc-lazy:KEY")`, rewritten after the
// build into `__svcImport(    "KEY")` (same length: the source map stays right), which the loader
// answers with import() from the ES module build. import() itself cannot run inside the file: V8 code
// caches keep no callback for it.
const lazyTargets = new Map(); // key -> specifier for the ES module build
let hotSet; // the modules of the hot file, once the first pass has found them
const hotPlugin = {
  name: 'hot-path',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.svcSkip) return undefined;
      // import('node:http'): Node's own modules are there already; require() them when first imported.
      if (args.kind === 'dynamic-import' && args.path.startsWith('node:')) return { path: args.path, namespace: 'node-builtin' };
      // A validator: loaded from its own file (above), from inside the hot file.
      if (args.path.startsWith('svc-shape:')) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: SKIP });
      if (r.errors.length > 0) return { errors: r.errors };
      if (r.path === codeCache) return { path: codeCache, namespace: 'hot-host' };
      const found = { path: r.path, namespace: r.namespace, external: r.external, sideEffects: r.sideEffects, pluginData: r.pluginData };
      // A root of the hot path, imported when a command needs it (the session, the output): through the
      // loader too, which evaluates it from the hot file and counts it (the level of the code cache).
      if (args.kind === 'dynamic-import' && HOT_ROOTS.includes(r.path)) return { path: `svc-lazy:hot:${rel(r.path)}`, external: true };
      if (args.kind !== 'dynamic-import' || hotSet?.has(r.path) || r.external || r.namespace !== 'file') return found;
      const bare = !args.path.startsWith('.') && !args.path.startsWith('/');
      const key = bare ? args.path : rel(r.path);
      lazyTargets.set(key, bare ? args.path : r.path);
      return { path: `svc-lazy:${key}`, external: true };
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({ loader: 'js', contents: `module.exports = require(${JSON.stringify(args.path)});` }));
    b.onLoad({ filter: /.*/, namespace: 'hot-host' }, () => ({
      loader: 'js',
      contents: codeCacheExports.map((k) => `export const ${k} = __svcHost.codeCache.${k};`).join('\n'),
    }));
  },
};
const hotOptions = {
  ...CACHED_CJS,
  external: ['better-sqlite3', 'fastify', 'react-devtools-core'],
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  plugins: [hotPlugin, fromCodeCache, compiledShapes],
  logLevel: 'warning',
};
// First pass: which modules the hot path holds (its static imports from the roots).
const probe = await build({
  ...hotOptions,
  stdin: { contents: HOT_ROOTS.map((p, i) => `export * as m${i} from ${JSON.stringify(p)};`).join('\n'), resolveDir: root, loader: 'js' },
  write: false,
  outfile: 'dist/probe.cjs',
  metafile: true,
});
const hotFiles = Object.keys(probe.metafile.inputs)
  .filter((p) => !p.includes(':') && !p.startsWith('<'))
  .map((p) => join(root, p))
  .filter((p) => !p.includes(`${sep}node_modules${sep}`));
const hotPackages = Object.keys(probe.metafile.inputs).filter((p) => p.includes('node_modules'));
if (hotPackages.length > 0) throw new Error(`the hot path must import no package statically (commander comes from the code cache): ${hotPackages.join(', ')}`);
// Their export names, for the modules the ES module build gets from the hot file.
const listed = await build({
  entryPoints: hotFiles,
  outdir: 'dist/probe',
  outbase: root,
  bundle: false,
  format: 'esm',
  platform: 'node',
  write: false,
  metafile: true,
  logLevel: 'warning',
});
const hotExports = new Map();
for (const out of Object.values(listed.metafile.outputs)) {
  const file = join(root, out.entryPoint);
  const text = readFileSync(file, 'utf8');
  if (/^\s*export \*/m.test(text)) throw new Error(`${rel(file)}: export * in the hot path (its names cannot be listed)`);
  // The ES module build gets a copy of each export when it loads (export const x = m.x): a binding that
  // changes afterwards would not be seen there.
  if (/^\s*export (let|var) /m.test(text)) throw new Error(`${rel(file)}: export let/var in the hot path (not a live binding for ES modules)`);
  hotExports.set(file, out.exports);
}
hotSet = new Set(hotFiles);
lazyTargets.clear();
// The hot file: a table of every module in it for the ES module build.
const hotResult = await build({
  ...hotOptions,
  stdin: {
    contents: [`export const modules = {`, ...hotFiles.map((p) => `  ${JSON.stringify(rel(p))}: () => require(${JSON.stringify(p)}),`), '};'].join('\n'),
    resolveDir: root,
    loader: 'js',
  },
  outfile: 'dist/hot.cjs',
  sourcemap: 'external',
  sourcesContent: false,
  metafile: true,
  write: false,
});
const hotFilesAgain = Object.keys(hotResult.metafile.inputs).filter((p) => !p.includes(':') && !p.startsWith('<') && !p.includes('node_modules'));
if (hotFilesAgain.length !== hotFiles.length) throw new Error('the hot file holds other modules than the first pass found');
let hotCode = '';
let hotMap = '';
for (const f of hotResult.outputFiles) {
  if (f.path.endsWith('.map')) hotMap = f.text;
  else hotCode = f.text;
}
hotCode = hotCode.replace(/import\("svc-lazy:/g, '__svcImport(    "');
if (/\bimport\(/.test(hotCode.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')))
  throw new Error('dist/hot.cjs: an import() is left (it cannot run from the code cache)');
if (hotCode.includes('import.meta')) throw new Error('dist/hot.cjs: import.meta in CommonJS');
const hotFile = `hot-${createHash('sha256').update(hotCode).digest('hex').slice(0, 12)}.cjs`;
writeFileSync(`dist/${hotFile}`, hotCode);
writeFileSync(`dist/${hotFile}.map`, hotMap);

// The ES module build, in two parts. dist/main.js is a bundle of its own: the entry (main.ts), the
// code cache (code-cache.ts) and the loader of the hot file, with no chunk to import (`svc --version`
// loads main.js alone; every other command line the hot file next, from main.js, with no ES module
// between them). dist/chunks/ holds everything loaded later, split as before; its entry, chunks/lazy.js,
// is the table of the hot file's dynamic imports. A module there that imports a module of the hot file
// gets the hot file's instance through main.js, which exports the loader and the code cache: one of each.
const HOT_LOADER = 'svc-hot-loader';
const MAIN_FROM_CHUNKS = '../main.js';
const fromHotFile = (part) => ({
  name: 'from-hot-file',
  setup(b) {
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.svcSkip || args.namespace === 'hot-loader') {
        if (part === 'main' && args.path === './chunks/lazy.js') return { path: args.path, external: true };
        if (args.pluginData?.svcSkip || args.path !== codeCache) return undefined;
      }
      if (args.path === HOT_LOADER) return part === 'main' ? { path: HOT_LOADER, namespace: 'hot-loader' } : { path: MAIN_FROM_CHUNKS, external: true };
      if (args.path === 'svc-lazy-table') return { path: args.path, namespace: 'lazy-table' };
      if (args.path.startsWith('svc-shape:') || !(args.path.startsWith('.') || args.path.startsWith('/'))) return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: SKIP });
      if (r.errors.length > 0) return { errors: r.errors };
      if (r.path === codeCache && part === 'chunks') return { path: MAIN_FROM_CHUNKS, external: true };
      if (hotSet.has(r.path)) return { path: r.path, namespace: 'from-hot' };
      return { path: r.path, namespace: r.namespace, external: r.external, sideEffects: r.sideEffects, pluginData: r.pluginData };
    });
    b.onLoad({ filter: /.*/, namespace: 'from-hot' }, (args) => {
      const names = hotExports.get(args.path);
      return {
        resolveDir: root,
        loader: 'js',
        contents: [
          `import { hotModule } from ${JSON.stringify(HOT_LOADER)};`,
          `const m = hotModule(${JSON.stringify(rel(args.path))});`,
          ...names.map((k) => (k === 'default' ? 'export default m.default;' : `export const ${k} = m.${k};`)),
        ].join('\n'),
      };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-table' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: [
        'export const lazy = {',
        ...[...lazyTargets].map(([key, spec]) => `  ${JSON.stringify(key)}: () => import(${JSON.stringify(spec)}),`),
        '};',
      ].join('\n'),
    }));
    b.onLoad({ filter: /.*/, namespace: 'hot-loader' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: [
        `import * as codeCache from ${JSON.stringify(codeCache)};`,
        // The roots of the hot path a run used: the more, the more of the file's functions V8 compiled.
        'const used = new Set();',
        'let hot;',
        'const importLazy = (key) => {',
        "  if (!key.startsWith('hot:')) return import('./chunks/lazy.js').then((m) => m.lazy[key]());",
        '  used.add(key);',
        '  return new Promise((resolve) => resolve(loadHot().modules[key.slice(4)]()));',
        '};',
        // Loaded when first asked for: not by `svc --version`.
        'const loadHot = () =>',
        `  (hot ??= codeCache.requireCached(${JSON.stringify(hotFile)}, process.env, { import: importLazy, codeCache, level: () => used.size }));`,
        'export const hotModule = (key) => loadHot().modules[key]();',
      ].join('\n'),
    }));
  },
});

const esmOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  // Whitespace and syntax only: smaller files parse faster, and names stay readable in --debug traces.
  minifyWhitespace: true,
  minifySyntax: true,
  // Native addon and the server framework stay as packages: fastify resolves plugins at run time and
  // better-sqlite3 loads a compiled .node file. Ink (events browse) imports react-devtools-core only in
  // its devtools chunk, loaded when DEV=true; the package is not installed.
  external: ['better-sqlite3', 'fastify', 'react-devtools-core'],
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
};
await build({
  ...esmOptions,
  stdin: {
    contents: [
      `export { main, run } from ${JSON.stringify(fileURLToPath(new URL('../src/main.ts', import.meta.url)))};`,
      `export { ${codeCacheExports.join(', ')} } from ${JSON.stringify(codeCache)};`,
      `export { hotModule } from ${JSON.stringify(HOT_LOADER)};`,
    ].join('\n'),
    resolveDir: root,
    loader: 'js',
    sourcefile: 'main-entry.js',
  },
  outfile: 'dist/main.js',
  plugins: [fromHotFile('main')],
});
await build({
  ...esmOptions,
  entryPoints: { 'chunks/lazy': 'svc-lazy-table' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  plugins: [fromHotFile('chunks'), fromCodeCache, compiledShapes],
});
const mainCode = readFileSync('dist/main.js', 'utf8');
if (/^import\s*["'{*]|\bfrom\s*["']\.\/chunks\//m.test(mainCode)) throw new Error('dist/main.js imports a chunk: --version would load it');

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

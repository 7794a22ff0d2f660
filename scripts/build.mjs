// Bundles the CLI with esbuild into ES modules, split into the hot path (what every command needs) and
// chunks under dist/chunks/, each loaded only when a command needs it. Bundling replaces hundreds of
// small package files (zod, commander, conf) with a few chunks. The hot path and the chunks that import
// nothing else become scripts that dist/main.cjs, the entry, runs with code caches of their own
// (src/script-cache.ts); compiling the rest is left to the runtime's own compile cache, which bin/svc.js
// turns on. Type checking is `tsc --noEmit` (npm run typecheck), run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkScript, hotPathScript } from './chunk-scripts.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// Node's own modules, imported by svc's code and the packages, come from process.getBuiltinModule, not
// as ES modules: importing one as an ES module reads every export it has, and some are getters that
// load more (node:http's WebSocket loads Node's copy of undici, ~100 internal modules, on Node 22-26).
// Each is a small ES module whose exports read the module's property only when something imports that
// export (unused ones are dropped, so a getter nobody asks for never runs), and whose default is the
// module itself.
const identifier = /^[A-Za-z_$][\w$]*$/;
const builtinsOnUse = {
  name: 'builtins-on-use',
  setup(b) {
    // A module of its own for svc's code and another for the packages' (`?package`): the one svc's hot
    // path uses is then reached from the same entry points as the rest of it, and joins its chunk.
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement'
        ? { path: args.importer.includes('node_modules') ? `${args.path}?package` : args.path, namespace: 'node-builtin', sideEffects: false }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => {
      const name = args.path.replace(/\?package$/, '');
      const names = Object.keys(process.getBuiltinModule(name)).filter((k) => identifier.test(k) && k !== 'default');
      return {
        loader: 'js',
        contents: [
          `const m = process.getBuiltinModule(${JSON.stringify(name)});`,
          'export default m;',
          ...names.map((k) => `export const ${k} = /* @__PURE__ */ (() => m.${k})();`),
        ].join('\n'),
      };
    });
  },
};

// commander, as ES modules: its CommonJS files would each be one function that V8 compiles on every run
// (the runtime's compile cache keeps only what is compiled when a file loads, and a module's top level
// is). Its files are plain (`const { X } = require('./x.js')`, `exports.X = X`), turned into imports and
// exports here; the build stops if a new version has anything else. svc imports its classes, not its
// entry, which builds a Command (its default `program`) that svc never uses.
const commanderLib = fileURLToPath(new URL('../node_modules/commander/lib/', import.meta.url));
const commanderAsEsm = {
  name: 'commander-as-esm',
  setup(b) {
    b.onResolve({ filter: /^commander$/ }, (args) =>
      args.importer.startsWith(join(root, 'src')) ? { path: 'commander', namespace: 'commander-classes' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'commander-classes' }, () => ({
      loader: 'js',
      resolveDir: commanderLib,
      contents: [
        "export { Argument } from './argument.js';",
        "export { Command } from './command.js';",
        "export { CommanderError, InvalidArgumentError } from './error.js';",
        "export { Help } from './help.js';",
        "export { Option } from './option.js';",
      ].join('\n'),
    }));
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/][\w]+\.js$/ }, (args) => {
      const esm = readFileSync(args.path, 'utf8')
        // child_process only when used: commander needs it for subcommands that are executables of their own, which svc has none of.
        .replace(/^const (\w+) = require\('node:child_process'\);$/m, "import $1 from 'svc-lazy-child-process';")
        .replace(/^const (\w+) = require\('(node:\w+)'\)\.(\w+);$/gm, "import { $3 as $1 } from '$2';")
        .replace(/^const (\w+) = require\('(node:\w+)'\);$/gm, "import $1 from '$2';")
        .replace(/^const (\{[\w, ]+\}) = require\('(\.\/\w+)(?:\.js)?'\);$/gm, "import $1 from '$2.js';")
        .replace(/^exports\.(\w+) = (\w+);.*$/gm, (_, a, b) => (a === b ? `export { ${a} };` : `export { ${b} as ${a} };`));
      const left = esm.split('\n').find((l) => /\brequire\(|\bexports\.|module\.exports/.test(l.replace(/\/\/.*$|^\s*\*.*$/, '')));
      if (left) throw new Error(`${args.path}: a line the build does not know how to turn into ES module syntax: ${left.trim()}`);
      return { contents: esm, loader: 'js' };
    });
    b.onResolve({ filter: /^svc-lazy-child-process$/ }, () => ({ path: 'child_process', namespace: 'lazy-builtin-esm' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin-esm' }, () => ({
      loader: 'js',
      contents:
        "let m; const get = () => (m ??= process.getBuiltinModule('node:child_process')); export default new Proxy({}, { get: (_, k) => get()[k], has: (_, k) => k in get() });",
    }));
  },
};

/**
 * Runs TypeScript of src/ at build time: `contents` (an ES module of exports) bundled to a file of its
 * own (packages stay imports), imported, and the file removed. The module's exports are returned.
 */
async function runFromSource(contents) {
  const file = 'dist/build-gen.mjs';
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
  });
  const url = new URL(`../${file}`, import.meta.url);
  // A query of its own per run: two imports of the same path in one process would be one module.
  const mod = await import(`${url.href}?${Date.now()}-${Math.random()}`);
  rmSync(url);
  return mod;
}

// The answers' and request bodies' validators (src/api/shape-compile.ts): schemas of the operation table
// compiled to standalone code, which replaces src/api/shape-validators.ts in the bundle, so that a command
// whose input and answer pass loads no zod. Each validator is a chunk, imported when first needed. The
// compiler runs from a bundle of its own, removed once it has run.
const { compileShapes, operations } = await runFromSource(
  "export { compileShapes } from './src/api/shape-compile.ts'; export { operations } from './src/api/operations.ts';",
);
const compiled = compileShapes(operations);
const shapeValidators = fileURLToPath(new URL('../src/api/shape-validators.ts', import.meta.url));
const compiledShapes = {
  name: 'compiled-shapes',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]api[\\/]shape-validators\.ts$/ }, (args) =>
      args.path === shapeValidators ? { contents: compiled.index, loader: 'js', resolveDir: root } : undefined,
    );
    b.onResolve({ filter: /^svc-shape:/ }, (args) => ({ path: args.path.slice('svc-shape:'.length), namespace: 'svc-shape' }));
    // ajv's deep equality, which validators of enums share: a module of svc's own, which the hot path
    // imports (`svc-hot-path` below), so that it lands there and not in a file of its own.
    b.onResolve({ filter: /^ajv\/dist\/runtime\/equal$/ }, (args) => (args.namespace.startsWith('svc-') ? { path: 'equal', namespace: 'svc-ajv' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'svc-ajv' }, () => ({ contents: "export { default } from 'fast-deep-equal';", loader: 'js', resolveDir: root }));
    // Each validator imports the hot path too (the one-hot-path plugin below: `svc-hot-path`).
    b.onLoad({ filter: /.*/, namespace: 'svc-shape' }, (args) => ({
      contents: `${compiled.modules[args.path]}\nimport 'svc-hot-path';\n`,
      loader: 'js',
      resolveDir: root,
    }));
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
  // __filename in a CommonJS package (write-file-atomic names its temporary files after it): the chunk's own.
  define: { __SVC_VERSION__: JSON.stringify(pkg.version), __filename: 'import.meta.filename', __dirname: 'import.meta.dirname' },
  logLevel: 'warning',
};
const cli = {
  ...common,
  // The store's template (below), from dist/chunks/ where svc dev's store lands.
  define: { ...common.define, __SVC_STORE_TEMPLATE__: JSON.stringify('../store-template.db') },
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // The native addon stays a package: better-sqlite3 loads a compiled .node file. fastify is bundled
  // (svc dev registers no plugins, which it would resolve at run time): one chunk for `svc dev` to load
  // instead of some 130 files. Ink (events browse) imports react-devtools-core only in its devtools
  // chunk, loaded when DEV=true; the package is not installed.
  external: ['better-sqlite3', 'react-devtools-core'],
  // CommonJS packages bundled into ES modules still call require() for Node's own modules: they get them
  // from process.getBuiltinModule (node:module, for anything else, loads only then).
  banner: {
    js: "const require = (id) => process.getBuiltinModule(id) ?? process.getBuiltinModule('node:module').createRequire(import.meta.url)(id);",
  },
};

// The hot path, one file: what main.ts imports statically (the command line, the runtime, the API session
// and transport, the JSON output) is what every command runs, and the ES module loader's work for each
// file it loads (resolve, read, compile, link) costs more than the few kilobytes a file of its own would
// spare a command that does not use it. esbuild puts a module in a chunk of its own whenever the set of
// entry points (main.js, and every import() target) that reach it differs from its neighbours': a
// command file that imports errors.ts but not output.ts would split the two apart. So every other module
// of src/, every validator and every package svc imports with import() also imports `svc-hot-path`,
// which imports all that main.ts imports: the whole hot path (and esbuild's own helpers) is then reached
// by the same entry points and lands in one chunk. A first pass of the same build finds what main.ts
// reaches.
const ENTRY = 'src/main.ts';
const notYet = { name: 'hot-path-later', setup: (b) => b.onResolve({ filter: /^svc-hot-path$/ }, () => ({ path: 'svc-hot-path', external: true })) };
const probe = await build({
  ...cli,
  write: false,
  metafile: true,
  sourcemap: false,
  plugins: [compiledShapes, notYet, commanderAsEsm, builtinsOnUse],
});
const inputs = probe.metafile.inputs;
const reached = (roots) => {
  const found = new Set(roots);
  for (const todo = [...roots]; todo.length > 0; ) {
    for (const i of inputs[todo.pop()].imports) {
      if (i.kind === 'dynamic-import' || i.external || found.has(i.path)) continue;
      found.add(i.path);
      todo.push(i.path);
    }
  }
  return found;
};
// The command files (cli.ts imports each with import()) stay apart; what they import statically (the
// helpers commands share: flags, filters, confirmations) joins the hot path, so that a command loads as
// its own file and nothing more.
const commandFiles = new Set(inputs['src/cli.ts'].imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
const helpers = [...reached([...commandFiles])].filter((p) => !commandFiles.has(p));
const hot = reached([ENTRY, ...helpers]);
const importedLater = Object.entries(inputs).flatMap(([from, { imports }]) =>
  imports.filter((i) => i.kind === 'dynamic-import' && hot.has(i.path)).map((i) => `${from} imports ${i.path}`),
);
if (importedLater.length > 0) throw new Error(`the hot path loads with main.js; import it statically:\n  ${importedLater.join('\n  ')}`);
const hotPath = new Set([...hot].map((p) => join(root, p)));
// What each import() target exports (a package's wrapper below passes its default on when it has one).
const entryExports = new Map(
  Object.values(probe.metafile.outputs)
    .filter((o) => o.entryPoint)
    .map((o) => [o.entryPoint, o.exports]),
);
const hotImports = [ENTRY, ...inputs[ENTRY].imports.filter((i) => !i.external && i.kind !== 'dynamic-import').map((i) => i.path), ...helpers]
  .filter((p, i, all) => !p.includes(':') && all.indexOf(p) === i)
  .map((p) => join(root, p));
const entry = join(root, ENTRY);
const srcDir = join(root, 'src');
// svc dev's start, one file too, by the same means: what src/server/index.ts reaches statically (the
// store, the runner, the app) is imported by `svc-dev-start`, which every module of src/server/ imports,
// so that every import() of the service's modules reaches all of it and it lands in one chunk, instead
// of the few dozen that the import() targets of svc dev and of each route's handler would split it into.
const serverDir = join(srcDir, 'server');
const devStart = [...reached(['src/server/index.ts'])].filter((p) => p.startsWith('src/server/')).map((p) => join(root, p));
// And it builds no schema: zod and the operation table's schemas load with the first request that
// checks something (src/server/app.ts), the workflow engine with the first job due (runner/loop.ts).
const schemasAtStart = [...reached(['src/server/index.ts'])].filter((p) =>
  /^(node_modules\/zod\/|src\/api\/schemas\/|src\/api\/operations\.ts$|src\/server\/engine\/index\.ts$)/.test(p),
);
if (schemasAtStart.length > 0)
  throw new Error(`svc dev's start loads schemas or the engine; import them where first needed:\n  ${schemasAtStart.join('\n  ')}`);
const onePath = {
  name: 'one-hot-path',
  setup(b) {
    b.onResolve({ filter: /^svc-hot-path$/ }, () => ({ path: 'svc-hot-path', namespace: 'svc-hot' }));
    b.onLoad({ filter: /.*/, namespace: 'svc-hot' }, () => ({
      contents: [...hotImports, 'ajv/dist/runtime/equal'].map((p) => `import ${JSON.stringify(p)};`).join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
    b.onResolve({ filter: /^svc-dev-start$/ }, () => ({ path: 'svc-dev-start', namespace: 'svc-dev' }));
    b.onLoad({ filter: /.*/, namespace: 'svc-dev' }, () => ({
      contents: devStart.map((p) => `import ${JSON.stringify(p)};`).join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
    // main.ts imports it too: it then joins the hot chunk instead of being a file of its own.
    b.onLoad({ filter: /[\\/]src[\\/].*\.tsx?$/ }, (args) => {
      if ((hotPath.has(args.path) && args.path !== entry) || !args.path.startsWith(srcDir)) return undefined;
      const dev = args.path.startsWith(serverDir) ? "import 'svc-dev-start';\n" : '';
      return { contents: `${readFileSync(args.path, 'utf8')}\nimport 'svc-hot-path';\n${dev}`, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
    // A package imported with import() (by svc's code, or by a package itself): through a module that
    // also imports the hot path.
    b.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.namespace !== 'file' || args.path.includes(':')) return undefined;
      if (args.importer.startsWith(srcDir) && /^[./]/.test(args.path)) return undefined;
      const r = await b.resolve(args.path, { kind: 'import-statement', importer: args.importer, resolveDir: args.resolveDir });
      if (r.errors.length > 0 || r.external) return r.external ? { path: args.path, external: true } : { errors: r.errors };
      return { path: r.path, namespace: 'svc-package' };
    });
    b.onLoad({ filter: /.*/, namespace: 'svc-package' }, (args) => {
      const from = JSON.stringify(args.path);
      const withDefault = entryExports.get(relative(root, args.path).split(sep).join('/'))?.includes('default') ? `export { default } from ${from};\n` : '';
      return { contents: `import 'svc-hot-path';\nexport * from ${from};\n${withDefault}`, loader: 'js', resolveDir: root };
    });
  },
};
// fastify's router (find-my-way) without eval at start: it writes a small function for every static
// path segment (its prefix match) and two for every route (its parameters object, its constraint
// match) and compiles each with `new Function`, 824 compilations while svc dev starts
// (test/e2e/dev-route-table.test.ts counts them), none of which the compile cache keeps. Here the three
// are closures of the same meaning: a prefix is matched with startsWith, the parameters object is filled
// from the names in order, and the constraint match (svc dev's routes have none: it is never asked) is
// compiled when first asked. The build stops if a new version of these lines is not found.
const routerWithoutEval = {
  name: 'router-without-eval',
  setup(b) {
    const edits = {
      'node.js': [
        [
          /\n  const lines = \[\]\n  for \(let i = 1; i < prefix\.length; i\+\+\) \{\n[\s\S]*?\n  return new Function\('path', 'i', [^\n]*\n\}/,
          '\n  return function matchPrefix (path, i) {\n    return path.startsWith(prefix, i)\n  }\n}',
        ],
      ],
      'handler-storage.js': [
        [
          /\n  _compileCreateParamsObject \(params\) \{\n[\s\S]*?\n    return new Function\('NullObject', fnBody\.join\('\\n'\)\)\(NullObject\)[^\n]*\n  \}/,
          [
            '',
            '  _compileCreateParamsObject (params) {',
            '    return function _createParamsObject (param0, param1, param2, param3, extraParams) {',
            '      const values = new NullObject()',
            '      for (let i = 0; i < params.length; i++) {',
            '        values[params[i]] = i === 0 ? param0 : i === 1 ? param1 : i === 2 ? param2 : i === 3 ? param3 : extraParams[i - 4]',
            '      }',
            '      return values',
            '    }',
            '  }',
          ].join('\n'),
        ],
        [
          /\n  _compileGetHandlerMatchingConstraints \(constrainer\) \{\n/,
          [
            '',
            '  _compileGetHandlerMatchingConstraints (constrainer) {',
            '    this._getHandlerMatchingConstraints = function (derivedConstraints) {',
            '      this._compileGetHandlerMatchingConstraintsNow(constrainer)',
            '      return this._getHandlerMatchingConstraints(derivedConstraints)',
            '    }',
            '  }',
            '',
            '  _compileGetHandlerMatchingConstraintsNow (constrainer) {',
            '',
          ].join('\n'),
        ],
      ],
    };
    b.onLoad({ filter: /[\\/]find-my-way[\\/]lib[\\/](node|handler-storage)\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of edits[args.path.split(/[\\/]/).pop()]) {
        if (!from.test(text)) throw new Error(`${args.path}: the router's code is not what the build expects (${from})`);
        text = text.replace(from, () => to);
      }
      return { contents: text, loader: 'js' };
    });
  },
};
// fastify's JSON Schema compilers, which svc dev replaces (its routes validate with the operation
// table's zod schemas: src/server/app.ts): left out of the bundle, and with them a copy of ajv.
const noSchemaCompilers = {
  name: 'no-schema-compilers',
  setup(b) {
    b.onResolve({ filter: /^@fastify\/(ajv-compiler|fast-json-stringify-compiler)$/ }, (args) => ({ path: args.path, namespace: 'svc-unused' }));
    b.onLoad({ filter: /.*/, namespace: 'svc-unused' }, (args) => ({
      contents: `module.exports = () => { throw new Error(${JSON.stringify(`${args.path} is not bundled: svc dev's routes use no JSON Schema`)}); };`,
      loader: 'js',
    }));
  },
};
const result = await build({ ...cli, metafile: true, plugins: [compiledShapes, onePath, noSchemaCompilers, routerWithoutEval, commanderAsEsm, builtinsOnUse] });
// The check of the above: every module of the hot path is in one chunk, which main.js re-exports.
const hotFiles = Object.entries(result.metafile.outputs).filter(([f, o]) => f.endsWith('.js') && Object.keys(o.inputs).some((i) => hot.has(i)));
if (hotFiles.length !== 1) throw new Error(`the hot path is split over ${hotFiles.length} files: ${hotFiles.map(([f]) => f).join(', ')}`);
// ...and that chunk becomes a script, dist/hot-path.js, which dist/main.cjs runs with a code cache made
// after the command has run (src/script-cache.ts says why a script); the chunks that imported the hot
// path's chunk import main.js instead. Its imports of other chunks stay relative to dist/chunks/, as the
// chunks' own do.
const hotChunk = hotFiles[0][0].slice('dist/chunks/'.length);
const hotText = readFileSync(`dist/chunks/${hotChunk}`, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
const hotMap = JSON.parse(readFileSync(`dist/chunks/${hotChunk}.map`, 'utf8'));
rmSync(`dist/chunks/${hotChunk}`);
rmSync(`dist/chunks/${hotChunk}.map`);
const chunkTexts = new Map();
for (const f of readdirSync('dist/chunks').filter((f) => f.endsWith('.js'))) {
  const text = readFileSync(`dist/chunks/${f}`, 'utf8').replaceAll(`"./${hotChunk}"`, '"../main.js"');
  chunkTexts.set(f, text);
}
const { script: hotScript, exported } = hotPathScript(hotText, cli.banner.js);
writeFileSync('dist/hot-path.js', `${hotScript}//# sourceMappingURL=hot-path.js.map\n`);
// Lines and columns as in the chunk (hotPathScript keeps them); its sources, one folder up.
const sources = hotMap.sources.map((s) => s.replace(/^\.\.\//, ''));
writeFileSync('dist/hot-path.js.map', JSON.stringify({ ...hotMap, file: 'hot-path.js', sources }));
// Every chunk that imports nothing but the hot path becomes a script too, unless an ES module imports it
// (an ES module's import of a file loads it as one): a command whose files are all scripts never sets up
// the ES module loader. Their source maps hold as they are (chunkScript keeps lines and columns).
const scripts = new Map();
for (const [f, text] of chunkTexts) {
  // What imports another chunk or a package statically is not one (and is not parsed).
  const { imports } = result.metafile.outputs[`dist/chunks/${f}`];
  if (imports.some((i) => i.kind === 'import-statement' && i.path !== `dist/chunks/${hotChunk}`)) continue;
  const script = chunkScript(text, cli.banner.js);
  if (script) scripts.set(f, script);
}
for (let dropped = true; dropped; ) {
  dropped = false;
  for (const [out, { imports }] of Object.entries(result.metafile.outputs)) {
    const from = out.slice('dist/chunks/'.length);
    if (!out.startsWith('dist/chunks/') || !out.endsWith('.js') || from === hotChunk || scripts.has(from)) continue;
    for (const i of imports) if (scripts.delete(i.path.slice('dist/chunks/'.length))) dropped = true;
  }
}
const chunkKeys = {};
for (const [f, text] of chunkTexts) {
  const script = scripts.get(f);
  if (script) chunkKeys[f] = createHash('sha256').update(script).digest('hex').slice(0, 16);
  writeFileSync(`dist/chunks/${f}`, script ?? text);
}
// dist/main.cjs, which bin/svc.js requires: runs the hot path (its cache named after its contents) and
// gives its exports, with the chunks that are scripts and their digests.
const hotKey = createHash('sha256').update(hotScript).digest('hex').slice(0, 16);
await build({
  stdin: {
    contents: [
      "const { start } = require('./src/script-cache.ts');",
      `module.exports = start(__dirname, ${JSON.stringify(hotKey)}, ${JSON.stringify(chunkKeys)});`,
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'main.cjs',
    loader: 'js',
  },
  outfile: 'dist/main.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  minifyWhitespace: true,
  logLevel: 'warning',
});
// dist/main.js: the hot path's exports as an ES module's, for the chunks that are ES modules (in place of
// the bundle's entry, whose code is all in the hot path: its map goes too).
rmSync('dist/main.js.map');
writeFileSync(
  'dist/main.js',
  [
    "const hot = process.getBuiltinModule('node:module').createRequire(import.meta.url)('./main.cjs');",
    `const { ${exported.map((name, i) => `${JSON.stringify(name)}: $${i}`).join(', ')} } = hot;`,
    `export { ${exported.map((name, i) => `$${i} as ${identifier.test(name) ? name : JSON.stringify(name)}`).join(', ')} };`,
    '',
  ].join('\n'),
);

// The store's template: a new store's schema with every migration applied, as SQLite's bytes, made by
// the same code that migrates (src/server/store/db.ts, run from a bundle of its own, removed once it has
// run). An in-memory store (svc dev --in-memory, svc-cli/testing) opens a copy of it instead of running
// the migrations at every start.
const { schemaTemplate } = await runFromSource("export { schemaTemplate } from './src/server/store/db.ts';");
writeFileSync('dist/store-template.db', schemaTemplate());

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

// `svc-cli/testing` (src/testing): svc dev in a team's own test process. One file of its own, apart from
// the command line's chunks (a test that imports it loads none of them); its packages stay imports of
// the package's dependencies. Its types: src/testing/types.ts as it is, and the two runtime exports.
await build({
  ...common,
  define: { ...common.define, __SVC_STORE_TEMPLATE__: JSON.stringify('./store-template.db') },
  entryPoints: { testing: 'src/testing/index.ts' },
  outdir: 'dist',
  packages: 'external',
});
writeFileSync(
  'dist/testing.d.ts',
  `${readFileSync('src/testing/types.ts', 'utf8')}
/** Starts svc dev in this process on a free loopback port (in memory, a manual clock unless told). */
export declare function startLocalService(opts?: StartOptions): Promise<LocalServiceHandle>;
/** Raised when a wait ends without a matching message. */
export declare class MessageWaitTimeout extends Error {}
`,
);

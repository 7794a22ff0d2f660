// Bundles the CLI with esbuild. Why bundle: Node 20 has no compile cache, and resolving hundreds of
// small ESM files (zod, undici, conf) costs more than parsing one file each; bundling halves start-up.
// Code splitting keeps every command's module (and its heavy dependencies) in its own chunk, loaded
// only when that command runs. Type checking is `tsc --noEmit` (npm run typecheck), run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// The largest packages most commands load, zod (~600 KB; every schema is built from it) and commander
// (the command tree), are bundled on their own as CommonJS, dist/<package>-<hash>.cjs, so that
// src/core/code-cache.ts can compile them from V8's code cache (Node 20 caches no ES module). Every
// import of such a package in the bundle gets a small module that loads that file: one instance of the
// package for the CLI and the local service alike.
const root = fileURLToPath(new URL('..', import.meta.url));
const CACHED = {
  // From zod's ES modules: evaluating its CommonJS build costs more (it copies every export, getters run).
  zod: "export * from 'zod'; export { default } from 'zod';",
  commander: "module.exports = require('commander');",
};
const cachedFiles = {};
for (const [name, contents] of Object.entries(CACHED)) {
  const out = `dist/${name}.cjs`;
  await build({
    stdin: { contents, resolveDir: root },
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
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
  target: 'node20',
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

await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Whitespace and syntax only: smaller files parse faster, and names stay readable in --debug traces.
  minifyWhitespace: true,
  minifySyntax: true,
  chunkNames: 'chunks/[name]-[hash]',
  // Native addon and the server framework stay as packages: fastify resolves plugins at run time and
  // better-sqlite3 loads a compiled .node file. Ink (events browse) imports react-devtools-core only in
  // its devtools chunk, loaded when DEV=true; the package is not installed.
  external: ['better-sqlite3', 'fastify', 'react-devtools-core'],
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  plugins: [fromCodeCache, compiledShapes],
  logLevel: 'warning',
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

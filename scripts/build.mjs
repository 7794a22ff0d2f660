// Bundles the CLI with esbuild. Why bundle: Node 20 has no compile cache, and resolving hundreds of
// small ESM files (zod, undici, conf) costs more than parsing one file each; bundling halves start-up.
// Code splitting keeps every command's module (and its heavy dependencies) in its own chunk, loaded
// only when that command runs. Type checking is `tsc --noEmit` (npm run typecheck), run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// zod, with every schema built from it, is the largest code most commands load (~700 KB). It is bundled
// on its own as CommonJS, dist/zod-<hash>.cjs, so that src/core/code-cache.ts can compile it from V8's
// code cache (Node 20 caches no ES module); every `import ... from 'zod'` of the bundle gets a module
// that loads that file (one zod instance for the CLI and the local service alike).
await build({
  // From zod's ES modules: evaluating its CommonJS build costs more (it copies every export, getters run).
  stdin: { contents: "export * from 'zod'; export { default } from 'zod';", resolveDir: fileURLToPath(new URL('..', import.meta.url)) },
  outfile: 'dist/zod.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
const zodHash = createHash('sha256').update(readFileSync('dist/zod.cjs')).digest('hex').slice(0, 12);
const zodFile = `zod-${zodHash}.cjs`;
renameSync('dist/zod.cjs', `dist/${zodFile}`);
const zodNames = Object.keys(await import('zod')).filter((k) => k !== 'default' && /^[A-Za-z_$][\w$]*$/.test(k) && (() => {
  try {
    new Function(`const ${k} = 1;`);
    return true;
  } catch {
    return false;
  }
})());
const codeCache = fileURLToPath(new URL('../src/core/code-cache.ts', import.meta.url));
const zodFromCache = {
  name: 'zod-from-code-cache',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'zod-cached' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-cached' }, () => ({
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
      loader: 'js',
      contents: [
        `import { requireCached } from ${JSON.stringify(codeCache)};`,
        `const m = requireCached(${JSON.stringify(zodFile)});`,
        'export default m.default;',
        ...zodNames.map((k) => `export const ${k} = m.${k};`),
      ].join('\n'),
    }));
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
  // better-sqlite3 loads a compiled .node file.
  external: ['better-sqlite3', 'fastify'],
  define: { __SVC_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  plugins: [zodFromCache],
  logLevel: 'warning',
});

// Bundles the CLI with esbuild. Why bundle: Node 20 has no compile cache, and resolving hundreds of
// small ESM files (zod, undici, conf) costs more than parsing one file each; bundling halves start-up.
// Code splitting keeps every command's module (and its heavy dependencies) in its own chunk, loaded
// only when that command runs. Type checking is `tsc --noEmit` (npm run typecheck), run by `npm run build`.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

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
  logLevel: 'warning',
});
